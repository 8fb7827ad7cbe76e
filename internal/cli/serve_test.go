package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cardtable/spider"
	"cardtable/spider/solver"
)

// TestServeChild is the server process of TestKillNine: it runs only when
// the parent test starts this test binary with CARDTABLE_SERVE_DB set.
func TestServeChild(t *testing.T) {
	db := os.Getenv("CARDTABLE_SERVE_DB")
	if db == "" {
		t.Skip("the server half of TestKillNine")
	}
	ctx, stop := SignalContext(context.Background()) // as main
	defer stop()
	addr := cmp.Or(os.Getenv("CARDTABLE_SERVE_ADDR"), "127.0.0.1:0")
	code := Run(ctx, []string{"serve", "--addr", addr, "--db", db}, strings.NewReader(""), os.Stdout, os.Stderr)
	os.Exit(code)
}

// child is a running server process.
type child struct {
	cmd  *exec.Cmd
	url  string
	logs *syncBuffer
	done chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var urlLine = regexp.MustCompile(`url=(https?://\S+/)`)

func startChild(tb testing.TB, db string) *child {
	tb.Helper()
	return startChildAt(tb, db, "")
}

// startChildAt starts the server process on addr ("": a free port).
func startChildAt(tb testing.TB, db, addr string) *child {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), "CARDTABLE_SERVE_DB="+db, "CARDTABLE_SERVE_ADDR="+addr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	c := &child{cmd: cmd, logs: &syncBuffer{}, done: make(chan error, 1)}
	urlc := make(chan string, 1)
	// Copies the child's log until it exits (its stderr closes).
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(c.logs, line)
			if m := urlLine.FindStringSubmatch(line); m != nil {
				select {
				case urlc <- m[1]:
				default:
				}
			}
		}
		c.done <- cmd.Wait()
	}()
	// A minute: a race-built child on a heavily loaded 2-core machine
	// missed a 30 s bound to open its database and listen. A child that
	// exits first ends the wait with its log.
	select {
	case c.url = <-urlc:
	case err := <-c.done:
		tb.Fatalf("server exited before it listened (%v); log:\n%s", err, c.logs)
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		tb.Fatalf("server did not start within a minute; log:\n%s", c.logs)
	}
	tb.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

type gameReply struct {
	ID   string          `json:"id"`
	View json.RawMessage `json:"view"`
	Move string          `json:"move"`
}

// browser is one player: its identity cookie goes with every request (to
// every test server on 127.0.0.1, cookies ignoring ports).
var browser = func() *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		panic(err)
	}
	return &http.Client{Jar: jar}
}()

func post(tb testing.TB, url, body string, want int) (gameReply, error) {
	resp, err := browser.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return gameReply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return gameReply{}, err
	}
	if resp.StatusCode != want {
		return gameReply{}, fmt.Errorf("POST %s %s: %s %s", url, body, resp.Status, b)
	}
	var r gameReply
	return r, json.Unmarshal(b, &r)
}

func getView(tb testing.TB, url string) gameReply {
	tb.Helper()
	resp, err := browser.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var r gameReply
	if resp.StatusCode != 200 {
		tb.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		tb.Fatal(err)
	}
	return r
}

func viewOf(tb testing.TB, g *spider.Game) string {
	b, err := json.Marshal(g.View(false))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func compact(tb testing.TB, raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// nextMove picks a random legal move, dealing only when nothing else is
// left, and undoing now and then.
func nextMove(rng *rand.Rand, g *spider.Game) string {
	var buf [256]spider.Move
	if g.CanUndo() && rng.IntN(8) == 0 {
		return "undo"
	}
	legal := g.Pos().Legal(buf[:0])
	var ms []string
	for _, m := range legal {
		if m.Kind != spider.Deal && !g.Pos().Null(m) {
			ms = append(ms, m.String())
		}
	}
	if len(ms) == 0 {
		if len(legal) > 0 {
			return legal[len(legal)-1].String()
		}
		return "restart"
	}
	return ms[rng.IntN(len(ms))]
}

func play(g *spider.Game, cmd string) error {
	var err error
	switch cmd {
	case "undo":
		err = g.Undo()
	case "restart":
		g.Restart()
	default:
		var m spider.Move
		if m, err = spider.ParseMove(cmd); err == nil {
			err = g.Play(m)
		}
	}
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", cmd, err)
	}
	return nil
}

// TestKillNine runs the real server in a process, kills it with SIGKILL while
// moves are in flight, starts it again on the same database and finds every
// acknowledged move there: once in the short suite, five times over in
// TestLongKillNine.
func TestKillNine(t *testing.T) { killNine(t, 1) }

func TestLongKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	killNine(t, 5)
}

func killNine(t *testing.T, rounds int) {
	db := filepath.Join(t.TempDir(), "kill.db")
	c := startChild(t, db)
	rng := rand.New(rand.NewPCG(9, 9))

	// Two games: A is played hard while the server dies, B sits still.
	type game struct {
		id     string
		mirror *spider.Game
		acked  string // the view of the last acknowledged command
	}
	newGame := func(deal uint64, o spider.Options, body string) *game {
		r, err := post(t, c.url+"api/games", body, http.StatusCreated)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := spider.NewGame(deal, o)
		return &game{id: r.ID, mirror: g, acked: compact(t, r.View)}
	}
	a := newGame(617, spider.Options{Suits: 2, Cheat: spider.CheatNewCards}, `{"deal":"617","suits":2,"cheat":"newcards"}`)
	b := newGame(618, spider.Options{Variant: spider.Spider, Suits: 1}, `{"deal":"618","variant":"spider","suits":1}`)
	send := func(url string, g *game, cmd string) error {
		r, err := post(t, url+"api/games/"+g.id+"/commands", `{"cmd":"`+cmd+`"}`, http.StatusOK)
		if err != nil {
			return err
		}
		if err := play(g.mirror, cmd); err != nil {
			t.Error(err)
			return err
		}
		g.acked = compact(t, r.View)
		if g.acked != viewOf(t, g.mirror) {
			t.Errorf("%s: server and mirror disagree", cmd)
			return fmt.Errorf("disagreement")
		}
		return nil
	}
	for range 10 {
		if err := send(c.url, b, nextMove(rng, b.mirror)); err != nil {
			t.Fatal(err)
		}
	}
	for round := range rounds {
		// Moves stream at game A; the server dies after a few of them.
		var wg sync.WaitGroup
		var inflight string
		pause := time.Duration(20+rng.IntN(150)) * time.Millisecond
		acked := make(chan struct{})
		wg.Go(func() {
			defer close(acked) // if the server died first
			for n := 0; ; n++ {
				cmd := nextMove(rng, a.mirror)
				inflight = cmd
				if err := send(c.url, a, cmd); err != nil {
					return // the server is gone
				}
				inflight = ""
				if n == 0 {
					acked <- struct{}{}
				}
			}
		})
		// Kill mid-stream: after the round's first acknowledged move.
		<-acked
		time.Sleep(pause)
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-c.done
		wg.Wait()

		c = startChild(t, db)
		got := compact(t, getView(t, c.url+"api/games/"+a.id).View)
		if got != a.acked {
			// The command in flight at the kill may have been stored
			// without its answer arriving: then the game is one step on.
			if inflight == "" {
				t.Fatalf("round %d: game A differs from its last acknowledged state", round)
			}
			if err := play(a.mirror, inflight); err != nil {
				t.Fatal(err)
			}
			if got != viewOf(t, a.mirror) {
				t.Fatalf("round %d: game A is neither the acknowledged state nor the one after %q", round, inflight)
			}
			a.acked = got
			t.Logf("round %d: the move in flight (%s) was stored before the kill", round, inflight)
		}
		if got := compact(t, getView(t, c.url+"api/games/"+b.id).View); got != b.acked {
			t.Fatalf("round %d: game B changed", round)
		}
		t.Logf("round %d: game A intact after %d moves", round, a.mirror.MovesPlayed())
		// The game goes on.
		if err := send(c.url, a, nextMove(rng, a.mirror)); err != nil {
			t.Fatal(err)
		}
	}

	// A graceful stop (interrupt) exits 0.
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("graceful stop: %v\n%s", err, c.logs)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop on interrupt")
	}
	if !strings.Contains(c.logs.String(), "shutting down") {
		t.Fatalf("no shutdown logged:\n%s", c.logs)
	}
}

func TestServeUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"serve", "--nope"}, exitUsage, "nope"},
		{[]string{"serve", "--addr", "256.0.0.1:99999", "--db", filepath.Join(t.TempDir(), "x.db")}, exitUsage, "a port from 0 to 65535"},
		{[]string{"serve", "--addr", "256.0.0.1:8080", "--db", filepath.Join(t.TempDir(), "x.db")}, exitFail, "serve: listen tcp"},
		{[]string{"serve", "--internal-addr", "junk"}, exitUsage, `--internal-addr "junk": want HOST:PORT`},
		{[]string{"serve", "--internal-addr", ":8080"}, exitUsage, "want HOST:PORT"},
		{[]string{"serve", "--internal-addr", "db1:99999"}, exitUsage, "a port from 1 to 65535"},
		// A rule of several flags names the one at fault, with its value.
		{[]string{"serve", "bench", "--games", "0"}, exitUsage, "serve bench: --games \"0\": want at least 1"},
		{[]string{"serve", "bench", "--duration", "-5s"}, exitUsage, "serve bench: --duration \"-5s\": want more than 0"},
		{[]string{"serve", "bench", "--think", "-1s"}, exitUsage, "serve bench: --think \"-1s\": want at least 0"},
		{[]string{"serve", "--max-save-mb", "0", "--db", filepath.Join(t.TempDir(), "x.db")}, exitUsage, `serve: --max-save-mb "0": want 1 to 1048576`},
		{[]string{"serve", "--daily-mb", "2000000", "--db", filepath.Join(t.TempDir(), "x.db")}, exitUsage, `serve: --daily-mb "2000000": want 1 to 1048576`},
		{[]string{"serve", "-h"}, exitOK, "-addr"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), tc.args, strings.NewReader(""), &out, &errb)
			if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
				t.Fatalf("exit %d, want %d; output %q %q", code, tc.code, out.String(), errb.String())
			}
		})
	}
}

// serveInProcess runs `cardtable serve --addr 127.0.0.1:0 ARGS...` in this
// process until the test ends (then it must exit cleanly), and returns the
// URL it logged and its log.
func serveInProcess(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	return runServer(t, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
}

// runServer runs cardtable with args, which must start the server, until
// the test ends (then it must exit cleanly), and returns the URL it logs.
func runServer(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errb := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, args, nil, io.Discard, errb)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("exit %d: %s", code, errb)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlLine.FindStringSubmatch(errb.String()); m != nil {
			return m[1], errb
		}
	}
	t.Fatalf("no URL logged: %s", errb)
	return "", nil
}

// An empty port is port 0, as net.Listen reads it: any free port.
func TestServeEmptyPort(t *testing.T) {
	url, _ := runServer(t, "serve", "--addr", "127.0.0.1:", "--db", filepath.Join(t.TempDir(), "x.db"))
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasPrefix(url, "http://127.0.0.1:0/") {
		t.Fatalf("serving at %s", url)
	}
	resp, err := http.Get(url + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

func TestServeStartsAndStops(t *testing.T) {
	// The server comes up on a free port, answers, and stops when its
	// context ends. With no database named it uses the default file,
	// making the data folder's directories (the one place they are made).
	data := filepath.Join(t.TempDir(), "nested", "dir")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("CARDTABLE_DB", "")
	db := filepath.Join(data, "cardtable", "cardtable.db")
	ctx, cancel := context.WithCancel(context.Background())
	errb := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, nil, io.Discard, errb)
	}()
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlLine.FindStringSubmatch(errb.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		cancel()
		t.Fatalf("no URL logged: %s", errb)
	}
	if _, err := post(t, url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("database not created: %v", err)
	}
}

func TestServeBench(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"serve", "bench", "--games", "20", "--players", "4", "--duration", "300ms"},
		nil, &out, &errb)
	if code != exitOK || !strings.Contains(out.String(), "moves/s") || !strings.Contains(out.String(), "0 errors") {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
}

func TestDefaultDBPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	if got, want := defaultDBPath(), filepath.Join(dir, "cardtable", "cardtable.db"); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	t.Setenv("XDG_DATA_HOME", "")
	if got := defaultDBPath(); !strings.HasSuffix(got, filepath.Join("cardtable", "cardtable.db")) || !filepath.IsAbs(got) && got[0] != '.' {
		t.Fatalf("default %s", got)
	}
}

func TestOpenURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"0.0.0.0:80", "http://localhost:80/"},
		{"[::]:9000", "http://localhost:9000/"},
		{"[::1]:9000", "http://[::1]:9000/"},
	}
	for _, tc := range tests {
		a, err := net.ResolveTCPAddr("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := openURL(a, false); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.addr, got, tc.want)
		}
	}
}

func TestServeWinnableDeal(t *testing.T) {
	o := spider.Options{Suits: 1}
	n, ok, err := serveWinnableDeal(context.Background(), solver.NewPool(), o)
	if err != nil || !ok || n == 0 {
		t.Fatalf("one suit: %d %v %v", n, ok, err)
	}
	// Bounded by nodes, not time: under -race on a loaded machine a
	// second's search can end unknown.
	if _, won := solver.ProveWinnable(context.Background(), n, o.Variant, 1, solver.Limits{Nodes: 20_000_000}); !won {
		t.Fatalf("deal %d is not shown winnable", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok, err := serveWinnableDeal(ctx, solver.NewPool(), spider.Options{Suits: 4}); ok || err == nil {
		t.Fatalf("cancelled: %v %v", ok, err)
	}
}
