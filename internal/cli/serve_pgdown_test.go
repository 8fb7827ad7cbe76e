package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	neturl "net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgtest"
)

// TestServeDatabaseOutOfReach: a server on PostgreSQL whose database goes
// out of reach (its connections cut, nothing listening any more) answers a
// write of Spider, one of Arlington and a read 503 in words that say to
// try again, and logs each at WARN with the reason "database out of
// reach", never at ERROR. TestLongServeDatabaseOutOfReach is the long
// version: every kind of request, the bound of the lines, the database
// back.
func TestServeDatabaseOutOfReach(t *testing.T) {
	s, p, _ := serveCut(t)
	p.cut()
	requests := [][3]string{
		{"POST", "api/games", `{"deal":"2"}`},
		{"POST", "api/arlington/tables", `{"players":2,"bots":["","random"]}`},
		{"GET", "api/saves", ""},
	}
	askOutOfReach(t, s, requests, 1)
	if warned := outOfReachLines(t, s); warned != len(requests) {
		t.Fatalf("%d lines of requests failed for want of the database, want %d, one each:\n%s", warned, len(requests), s.log)
	}
}

// TestLongServeDatabaseOutOfReach: with the database out of reach, reads
// and writes of each kind (a game, saves, statistics, settings, Arlington's
// tables and ratings) are answered 503 in words that say to try again,
// where they were answered 500 "internal error"; they are logged as
// events of one reason, bounded a minute, not a line each; the server
// saves again once the database is back.
func TestLongServeDatabaseOutOfReach(t *testing.T) {
	if testing.Short() {
		t.Skip("some 24 requests failing and the database back (over 2 s under -race); TestServeDatabaseOutOfReach is the quick version")
	}
	s, p, g := serveCut(t)
	p.cut()
	requests := [][3]string{
		{"POST", "api/games", `{"deal":"2"}`},
		{"PUT", "api/saves/s", `{"game":"` + g + `"}`},
		{"PUT", "api/settings", `{"theme":"dark"}`},
		{"POST", "api/arlington/tables", `{"players":2,"bots":["","random"]}`},
		{"GET", "api/saves", ""},
		{"GET", "api/stats", ""},
		{"GET", "api/settings", ""},
		{"GET", "api/arlington/ratings", ""},
	}
	askOutOfReach(t, s, requests, 3) // on a connection the cut broke, then on ones refused
	failed := 3 * len(requests)
	p.resume(t)
	// The pool may still hold a connection the cut broke: each is given
	// up at its first use, so a few tries reach a new one.
	for i := 0; ; i++ {
		code, body := postAnswer(t, s.url+"api/games", `{"deal":"3"}`)
		if code == 201 {
			break
		}
		if code != 503 || i == 20 {
			t.Fatalf("a write with the database back, try %d: %d %s", i+1, code, body)
		}
		failed++
	}
	s.stop()
	code := <-s.done
	s.done <- code // for the cleanup, which checks it
	// Each failure written or counted, at most 20 a minute written: the
	// rest in the summary the minute's end or the stop writes.
	warned, suppressed := outOfReachLines(t, s), 0
	for _, m := range regexp.MustCompile(`msg="suppressed similar log lines" of="request failed" reason="database out of reach" suppressed=(\d+)`).FindAllStringSubmatch(s.log.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		suppressed += n
	}
	if warned+suppressed != failed || suppressed == 0 {
		t.Fatalf("%d requests failed for want of the database: %d lines and %d counted, want all, and some counted:\n%s",
			failed, warned, suppressed, s.log)
	}
}

// serveCut starts a server on PostgreSQL through a cutProxy, with one
// game dealt (its id returned).
func serveCut(t *testing.T) (*served, *cutProxy, string) {
	t.Helper()
	u, err := neturl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startCutProxy(t, u.Host)
	u.Host = p.addr
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", u.String())
	g, err := post(t, s.url+"api/games", `{"deal":"1"}`, 201)
	if err != nil {
		t.Fatal(err)
	}
	return s, p, g.ID
}

// askOutOfReach sends each request tries times, wanting 503 in words that
// say to try again.
func askOutOfReach(t *testing.T, s *served, requests [][3]string, tries int) {
	t.Helper()
	for try := range tries {
		for _, r := range requests {
			code, body := answer(t, r[0], s.url+r[1], r[2])
			if code != 503 || !strings.Contains(body, "the server cannot reach its database just now; try again in a moment") {
				t.Errorf("%s /%s with the database out of reach (try %d): %d %s", r[0], r[1], try+1, code, body)
			}
		}
	}
}

// outOfReachLines counts the log's lines of requests failed for want of
// the database (web.EventLog's), failing the test on any at ERROR.
func outOfReachLines(t *testing.T, s *served) int {
	t.Helper()
	warned := 0
	for _, l := range strings.Split(s.log.String(), "\n") {
		switch {
		case strings.Contains(l, " level=ERROR "):
			t.Errorf("a request failed for want of the database logged as an error: %s", l)
		case strings.Contains(l, `level=WARN msg="request failed" reason="database out of reach"`):
			warned++
		}
	}
	if t.Failed() {
		t.Fatalf("the server's log:\n%s", s.log)
	}
	return warned
}

// postAnswer posts body as JSON and returns the status and the answer.
func postAnswer(t *testing.T, url, body string) (int, string) {
	t.Helper()
	return answer(t, "POST", url, body)
}

// answer sends a request (a JSON body unless "") and returns the status
// and the answer.
func answer(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// cutProxy passes TCP connections to a target until cut: then it closes
// every connection and stops listening, as a database server that died
// would; resume listens again on the same address.
type cutProxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
	wg           sync.WaitGroup
	// refusing: each connection is closed as it comes (a database that
	// cannot take any), and counted in refused.
	refusing bool
	refused  int
}

func startCutProxy(t *testing.T, target string) *cutProxy {
	p := &cutProxy{target: target}
	p.listen(t, "127.0.0.1:0")
	p.addr = p.ln.Addr().String()
	t.Cleanup(func() { p.cut(); p.wg.Wait() })
	return p
}

func (p *cutProxy) listen(t *testing.T, addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() { // exits when cut closes the listener
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			refusing := p.refusing
			if refusing {
				p.refused++
			}
			p.mu.Unlock()
			if refusing {
				c.Close()
				continue
			}
			d, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, d)
			p.mu.Unlock()
			for _, pair := range [][2]net.Conn{{c, d}, {d, c}} {
				p.wg.Add(1)
				go func() { // exits when either end is closed
					defer p.wg.Done()
					io.Copy(pair[0], pair[1])
					pair[0].Close()
					pair[1].Close()
				}()
			}
		}
	}()
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *cutProxy) resume(t *testing.T) { p.listen(t, p.addr) }

// refuse makes the proxy close every connection as it comes, from now on.
func (p *cutProxy) refuse() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refusing = true
}

// refusals is how many connections were closed as they came.
func (p *cutProxy) refusals() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused
}

// TestLongServeDatabaseOutOfReachLogsOnce: while PostgreSQL takes no
// connection, the heartbeat (every second) and the check of the tables
// held (every second) fail each time; each line is written once, not
// every second, and the stop writes how many were left out. It waits
// for some three seconds of failures; TestQuietRepeats is the quick
// version.
func TestLongServeDatabaseOutOfReachLogsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for three seconds of heartbeats; TestQuietRepeats is the quick version")
	}
	u, err := neturl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startCutProxy(t, u.Host)
	u.Host = p.addr
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", u.String())
	p.refuse()
	p.cut() // the pool's connections, then the listener
	p.resume(t)
	const line = `msg="server heartbeat: `
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.log.String(), line) {
		if time.Now().After(deadline) {
			t.Fatalf("no heartbeat failure logged:\n%s", s.log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Heartbeats and checks go on failing: six more connections refused
	// are some three more seconds of them.
	for want := p.refusals() + 6; p.refusals() < want; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections refused, want %d", p.refusals(), want)
		}
	}
	// The first may be the pool's broken connection's, the others a new
	// connection's, refused: each written once.
	seen := map[string]int{}
	for _, l := range strings.Split(s.log.String(), "\n") {
		if i := strings.Index(l, line); i >= 0 {
			seen[l[i:]]++
		}
	}
	for l, n := range seen {
		if n != 1 {
			t.Errorf("written %d times, want once: %s\n%s", n, l, s.log)
		}
	}
	if len(seen) == 0 || len(seen) > 2 {
		t.Fatalf("%d different heartbeat failures written, want 1 or 2:\n%s", len(seen), s.log)
	}
	s.stop()
	code := <-s.done
	s.done <- code // for the cleanup, which checks it
	if !strings.Contains(s.log.String(), "repeated=") {
		t.Errorf("the stop did not write how many lines were left out:\n%s", s.log)
	}
}

// TestQuietRepeats: a line the same as one written less than a minute ago
// is counted, not written; when the minute ends the count is written, and
// counting goes on; other lines are all written; Flush writes the counts
// still pending. The clock is synctest's: its minutes pass at once.
func TestQuietRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		q := newQuietRepeats(slog.New(slog.NewTextHandler(&buf, nil)), nil)
		defer q.Flush()
		for range 100 {
			q.Logf("server heartbeat: %s", "refused")
		}
		q.Logf("table %s: dropped", "A")
		q.Logf("table %s: dropped", "B")
		if got := strings.Count(buf.String(), "server heartbeat: refused"); got != 1 {
			t.Fatalf("written %d times in the minute, want once:\n%s", got, &buf)
		}
		if !strings.Contains(buf.String(), "table A: dropped") || !strings.Contains(buf.String(), "table B: dropped") {
			t.Fatalf("lines that differ not all written:\n%s", &buf)
		}
		time.Sleep(repeatWindow)
		synctest.Wait()
		if !strings.Contains(buf.String(), `msg="server heartbeat: refused" repeated=99`) {
			t.Fatalf("at the minute's end, not written with its count:\n%s", &buf)
		}
		q.Logf("server heartbeat: %s", "refused")
		q.Flush()
		if !strings.Contains(buf.String(), `msg="server heartbeat: refused" repeated=1`) {
			t.Fatalf("Flush did not write the count pending:\n%s", &buf)
		}
		if got := strings.Count(buf.String(), "server heartbeat: refused"); got != 3 {
			t.Fatalf("written %d times, want 3 (the line, its two counts):\n%s", got, &buf)
		}
	})
}

// TestQuietRepeatsCountInItsMinute: the count of an outage is written when
// its minute ends, not with the next failure days later; the next failure
// is written alone, as a new line.
func TestQuietRepeatsCountInItsMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		q := newQuietRepeats(slog.New(slog.NewTextHandler(&buf, nil)), nil)
		defer q.Flush()
		for range 30 {
			q.Logf("server heartbeat: refused")
		}
		time.Sleep(48 * time.Hour) // two quiet days
		synctest.Wait()
		if !strings.Contains(buf.String(), `msg="server heartbeat: refused" repeated=29`) {
			t.Fatalf("two days on, the outage's count not written:\n%s", &buf)
		}
		q.Logf("server heartbeat: refused")
		last := strings.TrimSpace(buf.String())
		last = last[strings.LastIndex(last, "\n")+1:]
		if !strings.HasSuffix(last, `msg="server heartbeat: refused"`) {
			t.Fatalf("the next failure, two days on, written as %q, want without a count:\n%s", last, &buf)
		}
		if got := strings.Count(buf.String(), "repeated="); got != 1 {
			t.Fatalf("%d counts written, want the outage's one:\n%s", got, &buf)
		}
	})
}

// TestQuietRepeatsBound: past the lines remembered, new lines are counted
// in one line at the minute's end, and the lines remembered keep their
// counts (the heartbeat's is not written again in its minute).
func TestQuietRepeatsBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		q := newQuietRepeats(slog.New(slog.NewTextHandler(&buf, nil)), nil)
		defer q.Flush()
		const tables = maxRepeats + 100
		for round := range 3 {
			q.Logf("server heartbeat: refused")
			for i := range tables {
				q.Logf("table %d: dropped", i)
			}
			if got := strings.Count(buf.String(), "server heartbeat: refused"); got != 1 {
				t.Fatalf("round %d: the heartbeat's line written %d times in its minute, want once", round+1, got)
			}
		}
		if got, want := strings.Count(buf.String(), "\n"), maxRepeats; got != want {
			t.Fatalf("%d lines written in the minute, want %d (those remembered)", got, want)
		}
		time.Sleep(repeatWindow)
		synctest.Wait()
		want := fmt.Sprintf(`msg="log lines left out: more than %d different lines in a minute" repeated=%d`, maxRepeats, 3*(tables-maxRepeats+1))
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("the lines past the bound not counted as one: want %s", want)
		}
		if !strings.Contains(buf.String(), `msg="server heartbeat: refused" repeated=2`) {
			t.Fatal("the heartbeat's count not written at its minute's end")
		}
	})
}

// TestLongServeDatabaseRestart: a request on a connection PostgreSQL
// ended (SQLSTATE 57P01, "terminating connection due to administrator
// command", which a fast restart, `pg_ctl restart -m fast`, sends every
// connection it ends) is answered 503, to be tried again, never 500,
// and the server saves again once past the connections ended. Its quick
// version is pgstore's TestTerminatedIsOutOfReach.
func TestLongServeDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a server on PostgreSQL (over 2 s under -race); pgstore's TestTerminatedIsOutOfReach is the quick version")
	}
	const app = "cardtable_restart_test"
	url := pgtest.DB(t)
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", url+"&application_name="+app)
	if code, body := answer(t, "POST", s.url+"api/games", `{"deal":"1"}`); code != 201 {
		t.Fatalf("a write: %d %s", code, body)
	}
	// End the server's connections, idle in its pool, from another one,
	// waiting until they are gone; the next request is handed one of them
	// (the pool checks only those idle over a second).
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var ended int
	if err := conn.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&ended); err != nil {
		t.Fatal(err)
	}
	if ended == 0 {
		t.Fatal("no connection of the server's to end")
	}
	// A new visitor's write (no cookie): a returning one's request would
	// first record the visit, on the ended connection, and the write would
	// then go on a fresh one.
	fresh := func(body string) (int, string) {
		t.Helper()
		resp, err := http.Post(s.url+"api/games", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := fresh(`{"deal":"2"}`)
	if code != 503 || !strings.Contains(body, "the server cannot reach its database just now; try again in a moment") {
		t.Fatalf("a write on a connection PostgreSQL ended (%d ended): %d %s, want 503 in words", ended, code, body)
	}
	for i := 0; ; i++ {
		code, body := fresh(`{"deal":"3"}`)
		if code == 201 {
			break
		}
		if code != 503 || i == ended {
			t.Fatalf("a write after the connections ended, try %d: %d %s", i+1, code, body)
		}
	}
}
