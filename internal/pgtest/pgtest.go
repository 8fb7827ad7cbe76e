// Package pgtest starts a throwaway PostgreSQL server for tests, from the
// distribution's binaries (Debian's postgresql: /usr/lib/postgresql/N/bin),
// in a temporary directory, on a free loopback port. One server serves a
// whole test binary (started on first use); each test gets a fresh
// database of its own (DB). Without the binaries the tests that need it
// skip, saying so loudly; with CI=true (or CARDTABLE_REQUIRE_POSTGRES=1)
// they fail instead: a store test skipped in CI is a defect.
//
// For tests only: no program file imports it.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// server is the running PostgreSQL of this test binary.
type server struct {
	dir  string // temporary directory: data, socket, log
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when the postgres process has exited
	err  error         // its exit status, once done is closed
	// stopped: Stop stopped it and no Start ran since (tests that stop
	// it run alone, one at a time).
	stopped bool
}

var (
	once    sync.Once
	shared  *server
	failure error // why the server could not start; missing: errMissing
	dbs     atomic.Int64
)

var errMissing = errors.New("PostgreSQL binaries not found")

// Main runs the tests of a package that uses DB and stops the server at
// the end, whatever the tests did: TestMain(m) { os.Exit(pgtest.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.stop()
	}
	return code
}

// required is whether a missing PostgreSQL fails the tests.
func required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("CARDTABLE_REQUIRE_POSTGRES") == "1"
}

// DB makes a fresh, empty schema on the shared server (starting the
// server on first use) and returns the URL that works in it alone,
// postgres://... on 127.0.0.1 with its search_path: to a store, a
// database of its own.
func DB(tb testing.TB) string {
	tb.Helper()
	once.Do(func() { shared, failure = start() })
	if errors.Is(failure, errMissing) {
		const msg = "POSTGRESQL NOT FOUND: the PostgreSQL store tests did NOT run " +
			"(install Debian's postgresql, or set PG_BIN to the directory of initdb and postgres)"
		if required() {
			tb.Fatal(msg + "; CI=true (or CARDTABLE_REQUIRE_POSTGRES=1) makes that a failure")
		}
		tb.Skip(msg)
	}
	if failure != nil {
		tb.Fatalf("starting PostgreSQL: %v", failure)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, shared.url("postgres"))
	if err != nil {
		tb.Fatalf("PostgreSQL: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		tb.Fatalf("PostgreSQL: %v", err)
	}
	return shared.url("postgres") + "&search_path=" + name
}

func (s *server) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// binDir finds initdb and postgres: $PG_BIN, else the newest
// /usr/lib/postgresql/*/bin, else the PATH.
func binDir() (string, error) {
	if d := os.Getenv("PG_BIN"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err != nil {
			return "", fmt.Errorf("%w in PG_BIN: %w", errMissing, err)
		}
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errMissing
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// owner is the user the server runs as: PostgreSQL refuses to run as
// root, so a root test process hands it to the postgres system user (the
// Debian package makes it). nil: the test process's own user.
func owner() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// start runs initdb and then postgres itself (not pg_ctl, whose server
// outlives its caller): the server is this process's child and gets
// SIGQUIT, PostgreSQL's immediate shutdown, if the test binary dies
// without stopping it.
func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := owner()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cardtable-pg-")
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	s := &server{dir: dir, done: make(chan struct{})}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	// A port just seen free; another process may take it first, so a
	// failed start tries another.
	for try := 0; ; try++ {
		if s.port, err = freePort(); err != nil {
			break
		}
		if err = s.run(bin, data, cred); err == nil || try == 2 {
			break
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// run starts postgres and waits until it accepts connections or exits.
// Settings for tests: loopback only, the socket in the temporary
// directory, and no fsync (a test's database does not outlive a crash).
func (s *server) run(bin, data string, cred *syscall.Credential) error {
	// Appended to: a restart keeps the first run's log.
	logf, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	s.done = make(chan struct{})
	s.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+s.dir,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200")
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return err
	}
	// Exits when postgres does (stop, or a failed start).
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.url("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-s.done:
			text, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
			return fmt.Errorf("postgres exited (%v): %s", s.err, strings.TrimSpace(string(text)))
		case <-time.After(20 * time.Millisecond): // the next connection attempt
		}
		if time.Now().After(deadline) {
			s.stop()
			return fmt.Errorf("postgres not accepting connections after a minute: %v", err)
		}
	}
}

// stop shuts the server down at once (immediate mode: nothing of a test
// database needs keeping) and removes its directory.
func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	os.RemoveAll(s.dir)
}

// Restart stops the shared server in fast mode, as `pg_ctl restart -m
// fast` does (each connection is ended with SQLSTATE 57P01,
// admin_shutdown), and starts it again on the same port. The databases
// made by DB are kept. Other tests using the server at the time see it
// go: call it from a test that does not run in parallel.
func Restart(tb testing.TB) {
	tb.Helper()
	Stop(tb)
	Start(tb)
}

// Stop stops the shared server in fast mode and leaves it stopped, as
// an operator's `pg_ctl stop -m fast` does, until Start: an outage as
// long as the test wants. Call it from a test that does not run in
// parallel, and Start it again before the test ends: if the test ends
// first (it failed between the two), its cleanup starts the server, so
// that the package's other tests still have their database.
func Stop(tb testing.TB) {
	tb.Helper()
	if shared == nil {
		tb.Fatal("pgtest.Stop before pgtest.DB")
	}
	s := shared
	s.stopped = true
	tb.Cleanup(func() {
		if s.stopped {
			if err := s.start(); err != nil {
				tb.Errorf("restarting PostgreSQL after the test: %v", err)
			}
		}
	})
	s.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		tb.Fatal("PostgreSQL did not stop within a minute of a fast shutdown")
	}
}

// Start starts the shared server again after Stop, on the same port,
// with the databases made by DB.
func Start(tb testing.TB) {
	tb.Helper()
	if err := shared.start(); err != nil {
		tb.Fatalf("restarting PostgreSQL: %v", err)
	}
}

// start runs the stopped server again.
func (s *server) start() error {
	bin, err := binDir()
	if err != nil {
		return err
	}
	cred, err := owner()
	if err != nil {
		return err
	}
	if err := s.run(bin, filepath.Join(s.dir, "data"), cred); err != nil {
		return err
	}
	s.stopped = false
	return nil
}
