package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/internal/loadgen"
)

// The goals for 1,000 tables on a 2-core machine (docs/tables.md).
const (
	targetP99    = 50 * time.Millisecond
	targetMemory = 500 << 20
)

// loadtestFlags are the flags of arlington loadtest.
type loadtestFlags struct {
	tables, people, bots int
	botLevel             string
	target               int
	duration, think      time.Duration
	// --duration and --think as typed
	durationFlag, thinkFlag *durationValue
	maxActions              int64
	seed                    uint64
	server, db, cpuprof     string
	pid                     int
	inProcess, serveOnly    bool
	asJSON                  bool
}

// runArlingtonLoadtest is the load benchmark of live tables: simulated
// people over real WebSockets on loopback (docs/tables.md, "Load test").
// By default the server runs in a child process (this program, with
// --serve-only) so that its memory is measured apart from the clients'.
func runArlingtonLoadtest(fs *pflag.FlagSet) runFunc {
	var f loadtestFlags
	fs.IntVar(&f.tables, "tables", 1000, "tables in play at once")
	fs.IntVar(&f.people, "people", 3, "seats per table held by simulated people, each with its own identity and WebSocket")
	fs.IntVar(&f.bots, "bots", 0, "seats per table held by the server's bots")
	fs.StringVar(&f.botLevel, "bot-level", "random", "the bots' level")
	fs.IntVar(&f.target, "target", 0, "the games' target score (0: the default, 32)")
	f.durationFlag = durationVar(fs, &f.duration, "duration", time.Minute, "how long to measure, once every table is connected")
	fs.Int64Var(&f.maxActions, "max-actions", 0, "stop sooner, once this many actions are acknowledged (0: no limit)")
	f.thinkFlag = durationVar(fs, &f.think, "think", 2*time.Second, "a person's mean pause before acting (exponential); tables/think actions a second")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the people's choices")
	fs.StringVar(&f.server, "server", "", "a running server's `url` (default: start one on a temporary database)")
	fs.IntVar(&f.pid, "pid", 0, "with --server: the server's process id, to read its memory")
	fs.BoolVar(&f.inProcess, "in-process", false, "run the server in this process (its memory then includes the clients')")
	fs.StringVar(&f.db, "db", "", "the started server's SQLite database `file` (default: a temporary file, removed after)")
	fs.StringVar(&f.cpuprof, "cpuprofile", "", "write the started server's CPU profile to this `file`")
	fs.BoolVar(&f.serveOnly, "serve-only", false, "run only the server side on --addr 127.0.0.1:0, print its URL and memory as JSON lines,\n"+
		"and stop when standard input ends (what loadtest runs in its child process)")
	_ = fs.MarkHidden("serve-only") // internal: the child process's flag
	_ = fs.SetAnnotation("serve-only", stopsOnSignalAnnotation, []string{"true"})
	fs.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("arlington loadtest: unexpected argument %q", pos[0])
		}
		const cmd = "arlington loadtest"
		if err := firstBroken(cmd, flagRule{"tables", f.tables, f.tables < 1, "at least 1"}); err != nil {
			return err
		}
		if err := seatsRule(cmd, f.people, f.bots); err != nil {
			return err
		}
		if err := firstBroken(cmd,
			flagRule{"duration", f.durationFlag, f.duration <= 0, "more than 0"},
			flagRule{"think", f.thinkFlag, f.think < 0, "at least 0"},
			flagRule{"max-actions", f.maxActions, f.maxActions < 0, "at least 0"}); err != nil {
			return err
		}
		if err := notAddress("arlington loadtest", "--db", f.db); err != nil {
			return err
		}
		if f.server != "" && (f.inProcess || f.db != "" || f.cpuprof != "") {
			return flagErr("arlington loadtest: --server excludes --in-process, --db and --cpuprofile")
		}
		if f.pid != 0 && f.server == "" {
			return flagErr("arlington loadtest: --pid goes with --server")
		}
		if f.serveOnly {
			return loadtestServe(ctx, env, f)
		}
		return loadtestRun(ctx, env, f)
	}
}

// memory is what the run knows of the server's memory. RSS figures come
// from /proc/PID/status; the Go figures from the server's runtime (a
// child reports them; in-process they are this process's).
type memory struct {
	Process      string  `json:"process"` // "child", "in-process (server and clients)", "pid N", "" unknown
	PeakRSSMB    float64 `json:"peakRssMb"`
	EndRSSMB     float64 `json:"endRssMb"`
	PeakHeapMB   float64 `json:"peakHeapMb"`
	PeakSysMB    float64 `json:"peakGoSysMb"`
	PeakRoutines int     `json:"peakGoroutines"`
	// CPUSeconds is the server process's CPU time (user and system)
	// during the measured play; ClientCPUSeconds the load generator's
	// (this process's, less the server's when it runs here too).
	CPUSeconds       float64 `json:"cpuSeconds"`
	ClientCPUSeconds float64 `json:"clientCpuSeconds"`
}

// loadReport is the --json output.
type loadReport struct {
	Tables      int     `json:"tables"`
	People      int     `json:"people"`
	Bots        int     `json:"bots"`
	ThinkMS     float64 `json:"thinkMs"`
	SetupS      float64 `json:"setupSeconds"`
	ElapsedS    float64 `json:"elapsedSeconds"`
	Actions     int64   `json:"actions"`
	ActionsPerS float64 `json:"actionsPerSecond"`
	Over        int64   `json:"gamesOver"`
	Errors      int64   `json:"errors"`
	Missed      int64   `json:"viewsNotTimed"`
	FirstError  string  `json:"firstError,omitempty"`
	All         latMS   `json:"all"`
	Actor       latMS   `json:"actor"`
	Others      latMS   `json:"others"`
	Memory      memory  `json:"serverMemory"`
	LoadBefore  string  `json:"loadavgBefore"`
	LoadAfter   string  `json:"loadavgAfter"`
	CPUs        int     `json:"cpus"`
	TargetMet   bool    `json:"targetMet"`
}

type latMS struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50Ms"`
	P90 float64 `json:"p90Ms"`
	P99 float64 `json:"p99Ms"`
	Max float64 `json:"maxMs"`
}

func latOf(l loadgen.Latency) latMS {
	f := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return latMS{N: l.N, P50: f(l.P50), P90: f(l.P90), P99: f(l.P99), Max: f(l.Max)}
}

func loadtestRun(ctx context.Context, env *Env, f loadtestFlags) error {
	before := loadAvg()
	url := f.server
	var mem *memWatch
	var child *loadChild
	switch {
	case f.server != "":
		mem = newMemWatch("", f.pid)
		if f.pid != 0 {
			mem.m.Process = "pid " + strconv.Itoa(f.pid)
		}
	case f.inProcess:
		stop, u, err := loadtestInProcess(ctx, env, f)
		if err != nil {
			return err
		}
		defer stop()
		url = u
		mem = newMemWatch("in-process (server and clients)", os.Getpid())
		mem.self = true
	default:
		var err error
		if child, err = startLoadServer(ctx, env, f); err != nil {
			return err
		}
		defer child.stop()
		url, mem = child.url, child.mem
	}
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { // exits when stopWatch is called below
		defer close(watched)
		mem.watch(wctx)
	}()
	var cpu0, self0 float64
	res, err := loadgen.RunArlington(ctx, loadgen.ArlConfig{URL: url, Tables: f.tables, People: f.people,
		Bots: f.bots, BotLevel: f.botLevel, Target: f.target, Duration: f.duration, MaxActions: f.maxActions, Think: f.think, Seed: f.seed,
		OnPlay: func() { cpu0, self0 = procCPU(mem.pid), procCPU(os.Getpid()) }})
	cpu, self := procCPU(mem.pid)-cpu0, procCPU(os.Getpid())-self0
	stopWatch()
	<-watched
	if child != nil {
		child.stop() // its last runtime figures come as it stops
	}
	if err != nil {
		return boundSentence(err, f)
	}
	m := mem.result()
	if mem.pid != 0 {
		m.CPUSeconds = cpu
	}
	m.ClientCPUSeconds = self
	if mem.self {
		m.ClientCPUSeconds = 0 // not told apart
	}
	rep := loadReport{Tables: res.Tables, People: res.People, Bots: res.Bots,
		ThinkMS: float64(f.think.Milliseconds()), SetupS: res.Setup.Seconds(), ElapsedS: res.Elapsed.Seconds(),
		Actions: res.Actions, ActionsPerS: res.ActionsPerSecond(), Over: res.Over, Errors: res.Errors, Missed: res.Missed,
		FirstError: res.FirstError, All: latOf(res.All), Actor: latOf(res.Actor), Others: latOf(res.Others),
		Memory: m, LoadBefore: before, LoadAfter: loadAvg(), CPUs: runtime.NumCPU()}
	rep.TargetMet = res.Errors == 0 && res.All.P99 < targetP99 && m.PeakRSSMB > 0 && m.PeakRSSMB < targetMemory>>20
	if f.asJSON {
		return printJSONLine(env.Stdout, rep)
	}
	printLoadReport(env.Stdout, res, rep)
	return nil
}

// boundSentence is the run's error err: where one of the server's bounds
// refused it, not the chain of which table and seat but one sentence of
// what happened and what to do about it (docs/cli.md).
func boundSentence(err error, f loadtestFlags) error {
	var limit *loadgen.AddressLimitError
	if errors.As(err, &limit) {
		if limit.Tables {
			// The tables made stay live until they end idle: a second
			// run meets the bound sooner.
			return fmt.Errorf("arlington loadtest: %w; the test needs %d (--tables): run fewer, "+
				"or without --server (its own server has no such limit); the tables made stay open "+
				"until they end idle, so a run again soon is refused sooner", limit, f.tables)
		}
		return fmt.Errorf("arlington loadtest: %w; the test needs %d (--tables × --people): "+
			"run fewer, or without --server (its own server has no such limit)", limit, f.tables*f.people)
	}
	var full *loadgen.TableLimitError
	if !errors.As(err, &full) {
		return fmt.Errorf("arlington loadtest: %w", err)
	}
	if f.server != "" {
		return fmt.Errorf("arlington loadtest: %w; the test needs %d (--tables): run fewer, "+
			"or give that server a higher --max-tables; the tables made stay open until they end idle, "+
			"so a run again soon is refused sooner", full, f.tables)
	}
	// The own server allows --tables: only tables still open in a --db
	// given again take places. They never age while no server runs on
	// the file, and a server restoring one starts its idle wait over, so
	// waiting does not help: every later run on that file is refused.
	return fmt.Errorf("arlington loadtest: %w; the test needs %d (--tables): the tables still open "+
		"in the database (--db) take places too, and they never end idle between runs (each run's server "+
		"starts their idle wait over), so every later run on that file is refused: run on a new file", full, f.tables)
}

// printJSONLine writes v as one line of JSON (a benchmark's --json).
func printJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// printLoadReport writes the result for a person to read.
func printLoadReport(w io.Writer, res loadgen.ArlResult, rep loadReport) {
	m := rep.Memory
	fmt.Fprintln(w, res)
	if m.Process == "" {
		fmt.Fprintln(w, "server memory: not measured (give --pid with --server)")
	} else {
		fmt.Fprintf(w, "server memory (%s): peak RSS %.0f MB, RSS at the end %.0f MB", m.Process, m.PeakRSSMB, m.EndRSSMB)
		if m.PeakHeapMB > 0 {
			fmt.Fprintf(w, "; Go heap in use at most %.0f MB, from the OS %.0f MB; %d goroutines at most",
				m.PeakHeapMB, m.PeakSysMB, m.PeakRoutines)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "CPU time during the play: server %.1fs (%.2f ms an action)", m.CPUSeconds, 1000*m.CPUSeconds/float64(max(1, res.Actions)))
		if m.ClientCPUSeconds > 0 {
			fmt.Fprintf(w, ", load generator %.1fs", m.ClientCPUSeconds)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "load average before %s, after %s (%d CPUs)\n", rep.LoadBefore, rep.LoadAfter, rep.CPUs)
	verdict := "met"
	if !rep.TargetMet {
		verdict = "NOT met"
	}
	fmt.Fprintf(w, "target (p99 under %v, server under %d MB, no errors): %s\n", targetP99, targetMemory>>20, verdict)
}

// loadAvg is /proc/loadavg's three averages ("" where there is none).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(b))
	if len(fields) < 3 {
		return ""
	}
	return strings.Join(fields[:3], " ")
}
