package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"cardtable/arlington/bot"
	"cardtable/internal/loadgen"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
)

// The targets of issue 21 for 1,000 tables on a 2-core machine.
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
	seed                 uint64
	server, db, cpuprof  string
	pid                  int
	inProcess, serveOnly bool
	asJSON               bool
}

// runArlingtonLoadtest is the load benchmark of live tables: simulated
// people over real WebSockets on loopback (docs/tables.md, "Load test").
// By default the server runs in a child process (this program, with
// --serve-only) so that its memory is measured apart from the clients'.
func runArlingtonLoadtest(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "arlington loadtest")
	var f loadtestFlags
	fs.IntVar(&f.tables, "tables", 1000, "tables in play at once")
	fs.IntVar(&f.people, "people", 3, "seats per table held by simulated people, each with its own identity and WebSocket")
	fs.IntVar(&f.bots, "bots", 0, "seats per table held by the server's bots")
	fs.StringVar(&f.botLevel, "bot-level", "random", "the bots' level")
	fs.IntVar(&f.target, "target", 0, "the games' target score (0: the default, 32)")
	fs.DurationVar(&f.duration, "duration", time.Minute, "how long to measure, once every table is connected")
	fs.DurationVar(&f.think, "think", 2*time.Second, "a person's mean pause before acting (exponential); tables/think actions a second")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the people's choices")
	fs.StringVar(&f.server, "server", "", "a running server's URL (default: start one on a temporary database)")
	fs.IntVar(&f.pid, "pid", 0, "with --server: the server's process id, to read its memory")
	fs.BoolVar(&f.inProcess, "in-process", false, "run the server in this process (its memory then includes the clients')")
	fs.StringVar(&f.db, "db", "", "the started server's SQLite database (default: a temporary file, removed after)")
	fs.StringVar(&f.cpuprof, "cpuprofile", "", "write the started server's CPU profile to this file")
	fs.BoolVar(&f.serveOnly, "serve-only", false, "run only the server side on --addr 127.0.0.1:0, print its URL and memory as JSON lines,\n"+
		"and stop when standard input ends (what loadtest runs in its child process)")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as one JSON object")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("arlington loadtest: unexpected argument %q", pos[0])
	}
	if f.tables < 1 || f.people < 1 || f.bots < 0 || f.people+f.bots < 2 || f.people+f.bots > 6 {
		return usageErr("arlington loadtest: --tables and --people must be positive, --bots at least 0, 2 to 6 seats in all")
	}
	if f.duration <= 0 || f.think < 0 {
		return usageErr("arlington loadtest: --duration must be positive, --think at least 0")
	}
	if f.server != "" && (f.inProcess || f.db != "" || f.cpuprof != "") {
		return usageErr("arlington loadtest: --server excludes --in-process, --db and --cpuprofile")
	}
	if f.pid != 0 && f.server == "" {
		return usageErr("arlington loadtest: --pid goes with --server")
	}
	if f.serveOnly {
		return loadtestServe(ctx, env, f)
	}
	return loadtestRun(ctx, env, f)
}

// memory is what the run knows of the server's memory. RSS figures come
// from /proc/PID/status; the Go figures from the server's runtime (a
// child reports them; in-process they are this process's).
type memory struct {
	Process      string  `json:"process"` // "child", "in-process (server and clients)", "pid N", "" unknown
	PeakRSSMB    float64 `json:"peak_rss_mb"`
	EndRSSMB     float64 `json:"end_rss_mb"`
	PeakHeapMB   float64 `json:"peak_heap_mb"`
	PeakSysMB    float64 `json:"peak_go_sys_mb"`
	PeakRoutines int     `json:"peak_goroutines"`
	// CPUSeconds is the server process's CPU time (user and system)
	// during the measured play; ClientCPUSeconds the load generator's
	// (this process's, less the server's when it runs here too).
	CPUSeconds       float64 `json:"cpu_s"`
	ClientCPUSeconds float64 `json:"client_cpu_s"`
}

// loadReport is the --json output.
type loadReport struct {
	Tables, People, Bots int
	ThinkMS              float64 `json:"think_ms"`
	SetupS               float64 `json:"setup_s"`
	ElapsedS             float64 `json:"elapsed_s"`
	Actions              int64   `json:"actions"`
	ActionsPerS          float64 `json:"actions_per_s"`
	Over                 int64   `json:"games_over"`
	Errors               int64   `json:"errors"`
	FirstError           string  `json:"first_error,omitempty"`
	All                  latMS   `json:"all"`
	Actor                latMS   `json:"actor"`
	Others               latMS   `json:"others"`
	Memory               memory  `json:"server_memory"`
	LoadBefore           string  `json:"loadavg_before"`
	LoadAfter            string  `json:"loadavg_after"`
	CPUs                 int     `json:"cpus"`
	TargetMet            bool    `json:"target_met"`
}

type latMS struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P90 float64 `json:"p90_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
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
		Bots: f.bots, BotLevel: f.botLevel, Target: f.target, Duration: f.duration, Think: f.think, Seed: f.seed,
		OnPlay: func() { cpu0, self0 = procCPU(mem.pid), procCPU(os.Getpid()) }})
	cpu, self := procCPU(mem.pid)-cpu0, procCPU(os.Getpid())-self0
	stopWatch()
	<-watched
	if child != nil {
		child.stop() // its last runtime figures come as it stops
	}
	if err != nil {
		return fmt.Errorf("arlington loadtest: %w", err)
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
		Actions: res.Actions, ActionsPerS: res.ActionsPerSecond(), Over: res.Over, Errors: res.Errors,
		FirstError: res.FirstError, All: latOf(res.All), Actor: latOf(res.Actor), Others: latOf(res.Others),
		Memory: m, LoadBefore: before, LoadAfter: loadAvg(), CPUs: runtime.NumCPU()}
	rep.TargetMet = res.Errors == 0 && res.All.P99 < targetP99 && m.PeakRSSMB > 0 && m.PeakRSSMB < targetMemory>>20
	if f.asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, string(b))
		return nil
	}
	fmt.Fprintln(env.Stdout, res)
	if m.Process == "" {
		fmt.Fprintln(env.Stdout, "server memory: not measured (give --pid with --server)")
	} else {
		fmt.Fprintf(env.Stdout, "server memory (%s): peak RSS %.0f MB, RSS at the end %.0f MB", m.Process, m.PeakRSSMB, m.EndRSSMB)
		if m.PeakHeapMB > 0 {
			fmt.Fprintf(env.Stdout, "; Go heap in use at most %.0f MB, from the OS %.0f MB; %d goroutines at most",
				m.PeakHeapMB, m.PeakSysMB, m.PeakRoutines)
		}
		fmt.Fprintln(env.Stdout)
		fmt.Fprintf(env.Stdout, "CPU time during the play: server %.1fs (%.2f ms an action)", m.CPUSeconds, 1000*m.CPUSeconds/float64(max(1, res.Actions)))
		if m.ClientCPUSeconds > 0 {
			fmt.Fprintf(env.Stdout, ", load generator %.1fs", m.ClientCPUSeconds)
		}
		fmt.Fprintln(env.Stdout)
	}
	fmt.Fprintf(env.Stdout, "load average before %s, after %s (%d CPUs)\n", before, rep.LoadAfter, rep.CPUs)
	verdict := "met"
	if !rep.TargetMet {
		verdict = "NOT met"
	}
	fmt.Fprintf(env.Stdout, "target (p99 under %v, server under %d MB, no errors): %s\n", targetP99, targetMemory>>20, verdict)
	return nil
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

// loadServer builds the server a load test runs: the same parts as
// cardtable serve (store, hub, Arlington routes, the web layer with its
// host check and per-connection limits), with room for tables tables and
// no rate limit on creating them (one address creates them all; playing
// is not rate limited by it anyway). stop ends the hub and the database.
func loadServer(ctx context.Context, log *slog.Logger, dbPath string, tables int) (*web.Server, func(), error) {
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return nil, nil, err
	}
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: bot.New, MaxTables: tables,
		Logf: func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) }})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	srv := web.New(db, web.Options{Log: log, CheckHost: true,
		Games: []web.Routes{arlweb.New(hub, arlweb.Options{Log: log})}})
	return srv, func() { hub.Close(); db.Close() }, nil
}

// tempDB is the database path: the given one, or a file in a new
// temporary directory that cleanup removes.
func tempDB(path string) (string, func(), error) {
	if path != "" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "cardtable-loadtest-")
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(dir, "load.db"), func() { os.RemoveAll(dir) }, nil
}

// loadtestInProcess starts the server in this process on loopback; stop
// shuts it down.
func loadtestInProcess(ctx context.Context, env *Env, f loadtestFlags) (func(), string, error) {
	dbPath, cleanup, err := tempDB(f.db)
	if err != nil {
		return nil, "", err
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, closeSrv, err := loadServer(ctx, log, dbPath, f.tables)
	if err != nil {
		cleanup()
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		closeSrv()
		cleanup()
		return nil, "", err
	}
	stopProf, err := startProfile(f.cpuprof)
	if err != nil {
		ln.Close()
		closeSrv()
		cleanup()
		return nil, "", err
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- serve(sctx, log, ln, srv) }() // exits when stop cancels sctx
	stop := func() {
		cancel()
		<-done
		stopProf()
		closeSrv()
		cleanup()
	}
	return stop, "http://" + ln.Addr().String(), nil
}

func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	out, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); out.Close() }, nil
}

// serverLine is one line the --serve-only server prints: its URL first,
// then its runtime's memory every half second.
type serverLine struct {
	URL        string  `json:"url,omitempty"`
	HeapMB     float64 `json:"heap_mb"`
	SysMB      float64 `json:"sys_mb"`
	Goroutines int     `json:"goroutines"`
}

// loadtestServe is --serve-only: the server side of a load test, until
// standard input ends or ctx does.
func loadtestServe(ctx context.Context, env *Env, f loadtestFlags) error {
	dbPath, cleanup, err := tempDB(f.db)
	if err != nil {
		return err
	}
	defer cleanup()
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, closeSrv, err := loadServer(ctx, log, dbPath, f.tables)
	if err != nil {
		return err
	}
	defer closeSrv()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	stopProf, err := startProfile(f.cpuprof)
	if err != nil {
		ln.Close()
		return err
	}
	defer stopProf()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Standard input ending (the parent closing it, or dying) stops the
	// server; this goroutine exits then.
	go func() {
		_, _ = io.Copy(io.Discard, env.Stdin)
		cancel()
	}()
	enc := json.NewEncoder(env.Stdout)
	if err := enc.Encode(serverLine{URL: "http://" + ln.Addr().String()}); err != nil {
		ln.Close()
		return err
	}
	done := make(chan error, 1)
	go func() { done <- serve(sctx, log, ln, srv) }() // exits when sctx ends
	report := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		_ = enc.Encode(serverLine{HeapMB: mb(ms.HeapInuse), SysMB: mb(ms.Sys), Goroutines: runtime.NumGoroutine()})
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			report() // the last figures, for a run shorter than a tick
			return err
		case <-tick.C:
			report()
		}
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// loadChild is the server in a child process.
type loadChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
	mem   *memWatch
	read  chan struct{} // closed when its standard output is read to the end
	once  sync.Once
}

// startLoadServer starts this program with --serve-only and waits for the
// URL it prints.
func startLoadServer(ctx context.Context, env *Env, f loadtestFlags) (*loadChild, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"arlington", "loadtest", "--serve-only", "--tables", strconv.Itoa(f.tables)}
	if f.db != "" {
		args = append(args, "--db", f.db)
	}
	if f.cpuprof != "" {
		args = append(args, "--cpuprofile", f.cpuprof)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stderr = env.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &loadChild{cmd: cmd, stdin: stdin, read: make(chan struct{})}
	c.mem = newMemWatch("child", cmd.Process.Pid)
	first := make(chan string, 1)
	// Reads the child's lines until its standard output closes (it exits).
	go func() {
		defer close(c.read)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var l serverLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			if l.URL != "" {
				first <- l.URL
				continue
			}
			c.mem.runtime(l)
		}
	}()
	select {
	case c.url = <-first:
		return c, nil
	case <-c.read:
		c.stop()
		return nil, errors.New("arlington loadtest: the server process ended before serving")
	case <-time.After(time.Minute):
	case <-ctx.Done():
	}
	c.stop()
	return nil, errors.New("arlington loadtest: the server process did not start")
}

// stop ends the child (its standard input closes) and waits for it; it
// may be called again.
func (c *loadChild) stop() {
	c.once.Do(func() {
		c.stdin.Close()
		t := time.AfterFunc(30*time.Second, func() { _ = c.cmd.Process.Kill() })
		defer t.Stop()
		<-c.read
		_ = c.cmd.Wait()
	})
}

// memWatch samples a process's memory while the run plays.
type memWatch struct {
	pid  int
	self bool // the process is this one: read its runtime directly
	mu   sync.Mutex
	m    memory
}

func newMemWatch(process string, pid int) *memWatch {
	return &memWatch{pid: pid, m: memory{Process: process}}
}

// runtime takes a line of the child's runtime figures.
func (w *memWatch) runtime(l serverLine) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.m.PeakHeapMB = max(w.m.PeakHeapMB, l.HeapMB)
	w.m.PeakSysMB = max(w.m.PeakSysMB, l.SysMB)
	w.m.PeakRoutines = max(w.m.PeakRoutines, l.Goroutines)
}

// watch samples every half second until ctx ends, and once more then.
func (w *memWatch) watch(ctx context.Context) {
	if w.pid == 0 {
		return
	}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		w.sample()
		select {
		case <-ctx.Done():
			w.sample()
			return
		case <-tick.C:
		}
	}
}

func (w *memWatch) sample() {
	rss, hwm := procMemory(w.pid)
	if w.self {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.runtime(serverLine{HeapMB: mb(ms.HeapInuse), SysMB: mb(ms.Sys), Goroutines: runtime.NumGoroutine()})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if rss > 0 {
		w.m.EndRSSMB = rss
	}
	w.m.PeakRSSMB = max(w.m.PeakRSSMB, hwm, rss)
}

func (w *memWatch) result() memory {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m
}

// procCPU is a process's CPU time so far (user and system), in seconds;
// 0 where unknown.
func procCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count from after it.
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return (utime + stime) / clockTicks
}

// clockTicks is the kernel's USER_HZ, 100 on every Linux port.
const clockTicks = 100

// procMemory is a process's resident memory now and at its peak
// (VmRSS and VmHWM of /proc/PID/status), in MB; 0 where unknown.
func procMemory(pid int) (rss, hwm float64) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			continue
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			rss = kb / 1024
		case "VmHWM":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}
