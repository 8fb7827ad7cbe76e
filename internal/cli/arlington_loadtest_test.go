package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cardtable/internal/pgtest"
	"cardtable/internal/web/arlweb"
)

// asMain makes this test binary act as cardtable when the environment
// says so: arlington loadtest starts its server as a child process of
// its own program (os.Executable), which in a test is this binary.
const asMain = "CARDTABLE_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		// As cmd/cardtable: SIGTERM stops a server cleanly.
		ctx, _ := SignalContext(context.Background())
		os.Exit(Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if args := os.Getenv(signalArgs); args != "" {
		// Before isolated: os.Exit would skip its cleanup, leaving a
		// directory a run. The parent's environment isolates it.
		os.Exit(signalChild(args))
	}
	os.Exit(isolated(m))
}

// isolated runs the tests with data and config directories of their
// own, so no test reads or writes the user's own database (a command run
// without --db uses it) or identity file (connect without --identity).
// HOME stays: a test that builds the program uses the Go build cache
// under it.
func isolated(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cardtable-cli-test")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_DATA_HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	return pgtest.Main(m)
}

func TestLoadtestUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no tables", []string{"--tables", "0"}, "--tables \"0\": want at least 1"},
		{"one seat", []string{"--people", "1"}, "--people \"1\" and --bots \"0\" make 1 seats: want 2 to 6"},
		{"seven seats", []string{"--people", "4", "--bots", "3"}, "--people \"4\" and --bots \"3\" make 7 seats: want 2 to 6"},
		{"negative bots", []string{"--bots", "-1"}, "--bots \"-1\": want at least 0"},
		{"no duration", []string{"--duration", "0s"}, "--duration \"0s\": want more than 0"},
		{"negative think", []string{"--think", "-1s"}, "--think \"-1s\": want at least 0"},
		{"negative actions", []string{"--max-actions", "-1"}, "--max-actions \"-1\": want at least 0"},
		{"server and in-process", []string{"--server", "http://127.0.0.1:1", "--in-process"}, "--server excludes"},
		{"pid alone", []string{"--pid", "1"}, "--pid goes with --server"},
		{"stray argument", []string{"now"}, `unexpected argument "now"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := arlRun(t, "", append([]string{"arlington", "loadtest"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, exitUsage, tc.want)
			}
		})
	}
}

// loadJSON runs a small load test with --json and decodes its report.
func loadJSON(t *testing.T, args ...string) loadReport {
	t.Helper()
	args = append([]string{"arlington", "loadtest", "--tables", "3", "--duration", "1m", "--max-actions", "20",
		"--think", "20ms", "--json"}, args...)
	out, errOut, code := arlRun(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Errors != 0 || rep.Actor.N < 20 || rep.Others.N == 0 || rep.All.P99 <= 0 {
		t.Fatalf("report %+v", rep)
	}
	return rep
}

// The default: the server runs in a child process, whose memory is read
// apart from the load generator's.
func TestLongLoadtestChild(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Setenv(asMain, "1")
	rep := loadJSON(t)
	m := rep.Memory
	if m.Process != "child" || m.PeakRSSMB <= 0 || m.PeakHeapMB <= 0 || m.PeakRoutines == 0 {
		t.Fatalf("server memory %+v", m)
	}
}

func TestLoadtestInProcess(t *testing.T) {
	rep := loadJSON(t, "--in-process")
	if m := rep.Memory; !strings.HasPrefix(m.Process, "in-process") || m.PeakRSSMB <= 0 {
		t.Fatalf("memory %+v", m)
	}
}

// Every simulated person connects from 127.0.0.1: the load test's server
// lifts the bound on WebSockets from one address (128 by default), so 22
// tables of 6 people (132 connections) play without a refusal. (Several
// seconds under -race; TestLoadArlOptionsUnbounded is its quick part.)
func TestLongLoadtestPastAddressBound(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	rep := loadJSON(t, "--in-process", "--tables", "22", "--people", "6")
	if rep.Tables != 22 || rep.People != 6 {
		t.Fatalf("%d tables", rep.Tables)
	}
}

// --serve-only prints its URL, serves a load test from another process
// (--server) and stops when its standard input ends.
func TestLoadtestServeOnly(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var errb strings.Builder
		done <- Run(context.Background(), []string{"arlington", "loadtest", "--serve-only", "--tables", "2"}, inR, outW, &errb)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	if !lines.Scan() {
		t.Fatal("no first line")
	}
	var first serverLine
	if err := json.Unmarshal(lines.Bytes(), &first); err != nil || !strings.HasPrefix(first.URL, "http://127.0.0.1:") {
		t.Fatalf("first line %q: %v", lines.Text(), err)
	}
	go io.Copy(io.Discard, outR) // the memory lines
	rep := loadJSON(t, "--server", first.URL, "--tables", "2")
	if rep.Memory.Process != "" {
		t.Fatalf("memory of an unknown process: %+v", rep.Memory)
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("serve-only exit %d", code)
	}
}

// serve --max-tables bounds the live tables of every address together;
// it must be positive.
func TestServeMaxTablesUsage(t *testing.T) {
	_, errOut, code := arlRun(t, "", "serve", "--max-tables", "0", "--db", t.TempDir()+"/x.db")
	if code != exitUsage || !strings.Contains(errOut, `--max-tables "0": want at least 1`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// serve --bot-workers sizes the bots' shared pool; a negative size is a
// usage error.
func TestServeBotWorkersUsage(t *testing.T) {
	_, errOut, code := arlRun(t, "", "serve", "--bot-workers", "-1", "--db", t.TempDir()+"/x.db")
	if code != exitUsage || !strings.Contains(errOut, `--bot-workers "-1": want at least 0`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// Against a server of its own (--server), a load test that reaches the
// server's bound on WebSockets from one address ends with that said in
// a sentence, with how many it had open, not with a failed dial.
func TestLoadtestServerAddressBound(t *testing.T) {
	arlWSLimits = arlweb.Limits{PerAddress: 4}
	t.Cleanup(func() { arlWSLimits = arlweb.Limits{} })
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	_, errOut, code := arlRun(t, "", "arlington", "loadtest", "--server", url, "--tables", "3",
		"--duration", "1m", "--max-actions", "20", "--think", "20ms")
	want := regexp.MustCompile(`^cardtable: arlington loadtest: the server's limit of WebSocket connections from one address was reached: ` +
		`it refused one \(429 Too Many Requests\) while this load test had [1-4] open \(the server said "[^"]*4 connections open from your address"\); ` +
		`the test needs 9 \(--tables × --people\): run fewer, or without --server \(its own server has no such limit\)\n$`)
	t.Logf("stderr: %s", errOut)
	if code != 1 || !want.MatchString(errOut) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// The load test's own server takes any number of WebSockets from one
// address, where serve's options keep the default bound.
func TestLoadArlOptionsUnbounded(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if got := loadArlOptions(log).Limits.PerAddress; got >= 0 {
		t.Fatalf("load test's PerAddress %d, want negative (no bound)", got)
	}
	if got := arlOptions(log).Limits.PerAddress; got < 0 {
		t.Fatalf("serve's PerAddress %d, want its bound kept", got)
	}
}

// Against serve with its default limits (--server), the first bound a
// load test from one machine meets is the live tables from one address
// (20; 20 tables of at most six people open fewer than 128 WebSockets):
// the run ends with that said in a sentence, not with the raw answer.
func TestLoadtestServerTableBound(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"), "--max-tables", "1000")
	_, errOut, code := arlRun(t, "", "arlington", "loadtest", "--server", url, "--tables", "25",
		"--duration", "1m", "--max-actions", "20", "--think", "20ms")
	want := regexp.MustCompile(`^cardtable: arlington loadtest: the server's limit of live tables from one address was reached: ` +
		`it refused a new table \(429 Too Many Requests\) after this load test had made 20 ` +
		`\(the server said "too many tables: 20 tables open from your address"\); ` +
		`the test needs 25 \(--tables\): run fewer, or without --server \(its own server has no such limit\); ` +
		`the tables made stay open until they end idle, so a run again soon is refused sooner\n$`)
	t.Logf("stderr: %s", errOut)
	if code != 1 || !want.MatchString(errOut) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// Against a server whose own limit of live tables (serve --max-tables)
// is below --tables, the run ends with that said in a sentence, with how
// many tables it had made and what to do, not with the raw answer.
func TestLoadtestServerTableLimit(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"), "--max-tables", "5")
	_, errOut, code := arlRun(t, "", "arlington", "loadtest", "--server", url, "--tables", "8",
		"--duration", "1m", "--max-actions", "20", "--think", "20ms")
	want := regexp.MustCompile(`^cardtable: arlington loadtest: the server's limit of live tables was reached: ` +
		`it refused a new table \(429 Too Many Requests\) after this load test had made 5 ` +
		`\(the server said "too many tables: 5 tables open"\); ` +
		`the test needs 8 \(--tables\): run fewer, or give that server a higher --max-tables; ` +
		`the tables made stay open until they end idle, so a run again soon is refused sooner\n$`)
	t.Logf("stderr: %s", errOut)
	if code != 1 || !want.MatchString(errOut) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// The load test's own server allows --tables tables, so only the tables
// still open in a --db given again can fill it; they never end idle
// between runs, so the sentence says to run on a new file and not that
// a later run is refused sooner (as it says of a server left running).
func TestLoadtestOwnServerTablesInDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	args := []string{"arlington", "loadtest", "--in-process", "--db", db, "--tables", "1", "--people", "2",
		"--duration", "1m", "--max-actions", "2", "--think", "0s", "--json"}
	if _, errOut, code := arlRun(t, "", args...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	// The first run's table, unfinished, is in the file: the second
	// run's server restores it, and it takes the one place.
	_, errOut, code := arlRun(t, "", args...)
	want := regexp.MustCompile(`^cardtable: arlington loadtest: the server's limit of live tables was reached: ` +
		`it refused a new table \(429 Too Many Requests\) after this load test had made 0 ` +
		`\(the server said "too many tables: 1 tables open"\); ` +
		`the test needs 1 \(--tables\): the tables still open in the database \(--db\) take places too, ` +
		`and they never end idle between runs \(each run's server starts their idle wait over\), ` +
		`so every later run on that file is refused: run on a new file\n$`)
	t.Logf("stderr: %s", errOut)
	if code != 1 || !want.MatchString(errOut) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
