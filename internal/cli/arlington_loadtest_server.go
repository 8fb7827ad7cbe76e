package cli

// The server side of arlington loadtest: in this process, or in a child
// process of this program (--serve-only) whose memory is its own.

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
	"sync"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
)

// loadServer builds the server a load test runs: the same parts as
// cardtable serve (store, hub, Arlington routes, the web layer with its
// host check and per-connection limits), with room for tables tables and
// no rate limit nor bound by address on creating them nor on the
// WebSockets open (every simulated person comes from 127.0.0.1; playing
// is not limited by address). stop ends the hub and the database.
func loadServer(ctx context.Context, log *slog.Logger, dbPath string, tables int) (*web.Server, func(), error) {
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return nil, nil, openErr(err)
	}
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: tableBot, MaxTables: tables,
		MaxPerAddress: -1, Reserve: -1,
		Logf: func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) }})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	srv := web.New(web.Options{Log: log, CheckHost: true,
		Games: []web.Routes{arlweb.New(hub, loadArlOptions(log))}})
	return srv, func() { hub.Close(); db.Close() }, nil
}

// loadArlOptions are serve's Arlington options without the bound on the
// WebSockets open from one address: a load test's people all share one.
func loadArlOptions(log *slog.Logger) arlweb.Options {
	o := arlOptions(log)
	o.Limits.PerAddress = -1
	return o
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
	HeapMB     float64 `json:"heapMb"`
	SysMB      float64 `json:"sysMb"`
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
