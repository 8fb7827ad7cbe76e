package cli

// serve bench --servers N / --target URLS: live Arlington tables played
// through several servers on one database, as through a load balancer
// without stickiness, optionally killing servers in turn for the time a
// table takes to move on (docs/scaling.md, "The benchmark").

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"cardtable/internal/loadgen"
	"cardtable/internal/pgstore"
)

// clusterFlags are serve bench's flags of the live-table mode.
type clusterFlags struct {
	servers, tables, people, bots int
	kills, serverProcs            int
	target, db                    string
	killEvery, think, duration    time.Duration
	killEveryFlag                 *durationValue // --kill-every as typed
	asJSON                        bool
}

// clusterOnlyFlags are the flags addClusterFlags adds that mean nothing
// without --servers or --target.
var clusterOnlyFlags = []string{"tables", "people", "bots", "kills", "kill-every", "server-procs", "json"}

// addClusterFlags adds the live-table mode's flags to serve bench.
func addClusterFlags(fs *pflag.FlagSet, f *clusterFlags) {
	fs.IntVar(&f.servers, "servers", 0, "start this many cardtable serve processes on --db (a SQLite file for one, a postgres:// URL\n"+
		"for any number) and play live Arlington tables through them in turn, as a load balancer would")
	fs.StringVar(&f.target, "target", "", "play live Arlington tables through these running servers' `urls`, comma-separated\n"+
		"(started with --trusted-proxy 127.0.0.1 and --max-tables; --db, if given, is only read for PostgreSQL's counts)")
	fs.IntVar(&f.tables, "tables", 300, "live tables in play (with --servers or --target)")
	fs.IntVar(&f.people, "people", 3, "seats per table held by simulated people, each with its own WebSocket")
	fs.IntVar(&f.bots, "bots", 0, "seats per table held by the servers' bots (their actions are not timed)")
	fs.IntVar(&f.kills, "kills", 0, "kill -9 a server this many times during the play, each in turn, and time how long its\n"+
		"tables take to move on (the play lasts as long as the kills need; needs --servers 2 or more)")
	f.killEveryFlag = durationVar(fs, &f.killEvery, "kill-every", 15*time.Second, "time between kills; the killed server is started again four fifths of the way to the next")
	fs.IntVar(&f.serverProcs, "server-procs", 0, "GOMAXPROCS of each started server (0: the Go default)")
	fs.BoolVar(&f.asJSON, "json", false, "print the live-table result as one JSON object")
}

// clusterReport is the live-table mode's result (--json).
type clusterReport struct {
	Servers     int     `json:"servers"`
	Store       string  `json:"store"` // "sqlite" or "postgres", or "unknown" (--target without --db)
	Tables      int     `json:"tables"`
	People      int     `json:"people"`
	Bots        int     `json:"bots"`
	ThinkMS     float64 `json:"thinkMs"`
	ElapsedS    float64 `json:"elapsedSeconds"`
	Actions     int64   `json:"actions"`
	Acked       int     `json:"acknowledged"`
	ActionsPerS float64 `json:"actionsPerSecond"`
	Errors      int64   `json:"errors"`
	FirstError  string  `json:"firstError,omitempty"`
	// ClientCPUSeconds is this process's CPU time during the play: the
	// simulated people, their connections and the measuring.
	ClientCPUSeconds float64      `json:"clientCpuSeconds"`
	Reconnects       int64        `json:"reconnects"`
	Lost             int64        `json:"lost"`
	All              latMS        `json:"actionToView"`
	Others           latMS        `json:"actionToBroadcast"`
	Kills            int          `json:"kills"`
	KillError        string       `json:"killError,omitempty"` // why the kills stopped early
	Failover         latMS        `json:"failover"`            // kill to a view again, by the table's new server
	Stuck            int          `json:"tablesNotServedAgain"`
	MovedOn          latMS        `json:"movedOn"` // kill to the table's next event (a person's pause included)
	NotMovedOn       int          `json:"tablesNotMovingOn"`
	RSS              []nodeMemory `json:"serverMemory,omitempty"`
	PG               *pgPerAction `json:"postgresPerAction,omitempty"`
	LoadBefore       string       `json:"loadavgBefore"`
	LoadAfter        string       `json:"loadavgAfter"`
	CPUs             int          `json:"cpus"`
	// where is the servers and their database in words, for the printed
	// report: the path of a SQLite file given, a temporary one, or
	// PostgreSQL (its URL not shown: it may hold a password).
	where string
}

// nodeMemory is one server's resident memory (/proc/PID/status), over
// all its processes (a killed server's restarts included).
type nodeMemory struct {
	Server    int     `json:"server"`
	PeakRSSMB float64 `json:"peakRssMb"`
	EndRSSMB  float64 `json:"endRssMb"`
	// CPUSeconds is the server's CPU time (user and system) during the
	// play; -1 when its process changed (killed and started again).
	CPUSeconds float64 `json:"cpuSeconds"`
	// Warnings and Errors count the server's log lines of those levels
	// over the run; FirstError is the first error line.
	Warnings   int    `json:"warnings"`
	Errors     int    `json:"errors"`
	FirstError string `json:"firstError,omitempty"`
}

// pgPerAction is PostgreSQL's work over the play (pg_stat_database)
// divided by the acknowledged actions.
type pgPerAction struct {
	Commits  float64 `json:"commits"`
	Inserted float64 `json:"rowsInserted"`
	Updated  float64 `json:"rowsUpdated"`
	Deleted  float64 `json:"rowsDeleted"`
}

// benchCluster runs the live-table mode.
func benchCluster(ctx context.Context, env *Env, f clusterFlags) error {
	urls, err := f.check()
	if err != nil {
		return err
	}
	isPG := pgstore.IsURL(f.db)
	before := loadAvg()
	var cl *fleet
	if f.servers > 0 {
		var stop func()
		var err error
		if cl, stop, err = startBenchServers(ctx, f); err != nil {
			return fmt.Errorf("serve bench: %w", err)
		}
		defer stop()
		urls = cl.urls()
	}
	dur := f.duration
	if f.kills > 0 {
		// Room after the last kill for its tables to move on.
		dur = time.Duration(f.kills+2) * f.killEvery
	}
	mem := newNodeMemWatch(cl)
	var self0 float64
	var pg0 pgstore.WriteStats
	var pgErr error
	killer := &killRun{cl: cl, every: f.killEvery, n: f.kills}
	wctx, stopWatch := context.WithCancel(ctx)
	var bg sync.WaitGroup
	// The sampler and the killer exit when stopWatch ends the play.
	bg.Go(func() { mem.watch(wctx) })
	res, err := loadgen.RunArlington(ctx, loadgen.ArlConfig{URLs: urls, Tables: f.tables, People: f.people,
		Bots: f.bots, Duration: dur, Think: f.think, Seed: 1,
		ForwardedFor: true, Reconnect: true,
		OnPlay: func() {
			self0 = procCPU(os.Getpid())
			mem.begin()
			if isPG {
				pg0, pgErr = pgstore.ReadWriteStats(ctx, f.db)
			}
			bg.Go(func() { killer.run(wctx) })
		}})
	self := procCPU(os.Getpid()) - self0
	mem.end()
	stopWatch()
	bg.Wait()
	if err != nil {
		return fmt.Errorf("serve bench: %w", err)
	}
	rep := newClusterReport(f, res, killer, mem)
	rep.Servers, rep.LoadBefore, rep.ClientCPUSeconds = max(f.servers, len(urls)), before, self
	if isPG {
		if pgErr == nil {
			rep.PG, pgErr = pgDelta(ctx, f.db, pg0, res.Actor.N)
		}
		if pgErr != nil {
			notef(env, "PostgreSQL's counts not read: %v", pgErr)
		}
	}
	rep.LoadAfter = loadAvg()
	if f.asJSON {
		return printJSONLine(env.Stdout, rep)
	}
	printClusterReport(env.Stdout, res, rep)
	return nil
}

// check refuses flags of a cluster run that cannot go together, and
// returns the servers of --target.
func (f clusterFlags) check() ([]string, error) {
	isPG := pgstore.IsURL(f.db)
	seats := seatsRule("serve bench", f.people, f.bots)
	switch {
	case f.servers > 0 && f.target != "":
		return nil, flagErr("serve bench: --servers or --target, not both")
	case f.servers > 1 && !isPG:
		return nil, flagErr("serve bench: %s needs --db postgres://...: a SQLite file has one server", flagValue("servers", f.servers))
	case f.tables < 1:
		return nil, firstBroken("serve bench", flagRule{"tables", f.tables, true, "at least 1"})
	case seats != nil:
		return nil, seats
	case f.kills < 0:
		return nil, firstBroken("serve bench", flagRule{"kills", f.kills, true, "at least 0"})
	case f.kills > 0 && f.servers < 2:
		return nil, flagErr("serve bench: %s needs --servers 2 or more, not %s", flagValue("kills", f.kills), flagValue("servers", f.servers))
	case f.kills > 0 && f.killEvery < time.Second:
		return nil, flagErr("serve bench: %s: want at least 1s", flagValue("kill-every", f.killEveryFlag))
	}
	urls := strings.Split(f.target, ",")
	for _, u := range urls {
		if f.target != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return nil, flagErr("serve bench: --target %q: want http://HOST:PORT", u)
		}
	}
	return urls, nil
}

// startBenchServers starts f.servers servers of this program on f.db (a
// temporary SQLite file if none), each on a loopback port, trusting this
// client to name its people's addresses, with room for every table;
// stop stops them and removes a temporary database.
func startBenchServers(ctx context.Context, f clusterFlags) (cl *fleet, stop func(), err error) {
	db, cleanup := f.db, func() {}
	if db == "" {
		dir, err := os.MkdirTemp("", "cardtable-bench-")
		if err != nil {
			return nil, nil, err
		}
		db, cleanup = filepath.Join(dir, "bench.db"), func() { os.RemoveAll(dir) }
	}
	exe, err := os.Executable()
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	var env []string
	if f.serverProcs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(f.serverProcs))
	}
	extra := []string{"--trusted-proxy", "127.0.0.1", "--max-tables", strconv.Itoa(2*f.tables + 20)}
	if cl, err = startFleet(ctx, exe, db, f.servers, env, extra...); err != nil {
		cleanup()
		return nil, nil, err
	}
	return cl, func() { cl.close(); cleanup() }, nil
}

// newClusterReport is the report of a run but its server count, load
// before and PostgreSQL's counts.
func newClusterReport(f clusterFlags, res loadgen.ArlResult, killer *killRun, mem *nodeMemWatch) clusterReport {
	rep := clusterReport{Store: "unknown", Tables: res.Tables, People: res.People, Bots: res.Bots,
		ThinkMS: float64(f.think.Milliseconds()), ElapsedS: res.Elapsed.Seconds(), Actions: res.Actions, Acked: res.Actor.N,
		ActionsPerS: res.ActionsPerSecond(), Errors: res.Errors, FirstError: res.FirstError, Reconnects: res.Reconnects,
		Lost: res.Lost, All: latOf(res.All), Others: latOf(res.Others), Kills: len(killer.at),
		RSS: mem.result(), CPUs: runtime.NumCPU()}
	rep.Store, rep.where = benchStore(f)
	if killer.err != nil {
		rep.KillError = killer.err.Error()
	}
	rep.Failover, rep.Stuck = failoverTimes(killer.at, res.Outages, servedAgain)
	rep.MovedOn, rep.NotMovedOn = failoverTimes(killer.at, res.Outages, movedOn)
	return rep
}

// pgDelta reads PostgreSQL's counts again once they have settled (each
// server connection publishes its counts when idle, at most once a
// second: two readings a second apart that agree) and divides the work
// since before by acked actions.
func pgDelta(ctx context.Context, url string, before pgstore.WriteStats, acked int) (*pgPerAction, error) {
	var last pgstore.WriteStats
	for i := range 10 {
		s, err := pgstore.ReadWriteStats(ctx, url)
		if err != nil {
			return nil, err
		}
		// Our own reading is one commit: the same counts but for it are
		// settled.
		if i > 0 && s.Inserted == last.Inserted && s.Updated == last.Updated && s.Commits <= last.Commits+1 {
			break
		}
		last = s
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(1100 * time.Millisecond): // PostgreSQL's publishing interval, and a little
		}
	}
	d := last.Minus(before)
	n := float64(max(1, acked))
	return &pgPerAction{Commits: float64(d.Commits) / n, Inserted: float64(d.Inserted) / n,
		Updated: float64(d.Updated) / n, Deleted: float64(d.Deleted) / n}, nil
}

// killRun kills the servers in turn during the play: one every `every`
// with SIGKILL, started again four fifths of the way to the next kill (so
// its tables have been taken over by the survivors first, and every
// server is up when the next is killed).
type killRun struct {
	cl    *fleet
	every time.Duration
	n     int
	at    []time.Time // when each kill was sent
	err   error
}

func (k *killRun) run(ctx context.Context) {
	if k.n == 0 || k.cl == nil {
		return
	}
	wait := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	back := k.every * 4 / 5
	for i := range k.n {
		if !wait(k.every - back) {
			return
		}
		down := k.cl.nodes[i%len(k.cl.nodes)]
		k.at = append(k.at, time.Now())
		down.kill()
		if !wait(back) {
			return
		}
		if err := down.start(ctx); err != nil {
			k.err = err
			return
		}
	}
}

// failoverTimes is, for each kill, how long each table whose people lost
// a connection within a second of it took until when (the earliest of its
// people's: the first view after the kill, or the first new event), and
// how many tables never got there.
func failoverTimes(kills []time.Time, outs []loadgen.Outage, when func(loadgen.Outage) time.Time) (latMS, int) {
	var times []time.Duration
	never := 0
	for _, at := range kills {
		first := map[string]time.Time{}
		hit := map[string]bool{}
		for _, o := range outs {
			if o.Ended.Before(at) || o.Ended.After(at.Add(time.Second)) {
				continue
			}
			hit[o.Table] = true
			if w := when(o); !w.IsZero() && (first[o.Table].IsZero() || w.Before(first[o.Table])) {
				first[o.Table] = w
			}
		}
		for id := range hit {
			m, ok := first[id]
			if !ok {
				never++
				continue
			}
			times = append(times, m.Sub(at))
		}
	}
	slices.Sort(times)
	return latOf(latencyOf(times)), never
}

func servedAgain(o loadgen.Outage) time.Time { return o.Served }
func movedOn(o loadgen.Outage) time.Time     { return o.MovedOn }

// latencyOf is the distribution of d (sorted).
func latencyOf(d []time.Duration) loadgen.Latency {
	if len(d) == 0 {
		return loadgen.Latency{}
	}
	at := func(p int) time.Duration { return d[min(len(d)-1, len(d)*p/100)] }
	return loadgen.Latency{N: len(d), P50: at(50), P90: at(90), P99: at(99), Max: d[len(d)-1]}
}

// nodeMemWatch samples every server's resident memory while the run
// plays, and reads their CPU time at its start (begin) and end (end).
type nodeMemWatch struct {
	cl   *fleet
	mu   sync.Mutex
	mem  []nodeMemory
	pids []int
	cpu0 []float64
}

// begin notes each server's process and CPU time as the play begins.
func (w *nodeMemWatch) begin() {
	if w.cl == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.cl.nodes {
		p := n.pid()
		w.pids, w.cpu0 = append(w.pids, p), append(w.cpu0, procCPU(p))
	}
}

// end reads each server's CPU time used since begin.
func (w *nodeMemWatch) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.pids {
		if p := w.cl.nodes[i].pid(); p != w.pids[i] || p == 0 {
			w.mem[i].CPUSeconds = -1
			continue
		}
		w.mem[i].CPUSeconds = procCPU(w.pids[i]) - w.cpu0[i]
	}
}

func newNodeMemWatch(cl *fleet) *nodeMemWatch {
	w := &nodeMemWatch{cl: cl}
	if cl != nil {
		for i := range cl.nodes {
			w.mem = append(w.mem, nodeMemory{Server: i + 1})
		}
	}
	return w
}

// watch samples every half second until ctx ends.
func (w *nodeMemWatch) watch(ctx context.Context) {
	if w.cl == nil {
		return
	}
	sampleEvery(ctx, 500*time.Millisecond, w.sample)
}

func (w *nodeMemWatch) sample() {
	for i, n := range w.cl.nodes {
		rss, hwm := procMemory(n.pid())
		w.mu.Lock()
		if rss > 0 {
			w.mem[i].EndRSSMB = rss
		}
		w.mem[i].PeakRSSMB = max(w.mem[i].PeakRSSMB, rss, hwm)
		w.mu.Unlock()
	}
}

func (w *nodeMemWatch) result() []nodeMemory {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := slices.Clone(w.mem)
	for i := range m {
		m[i].Warnings, m[i].Errors, m[i].FirstError = w.cl.nodes[i].logCounts()
	}
	return m
}
