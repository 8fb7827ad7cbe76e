package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The long tests of the online client, and the proxy that cuts its
// connections.

// proxy passes TCP connections to a server and can cut them all.
type proxy struct {
	ln       net.Listener
	target   string
	blocked  atomic.Bool  // new connections are closed at once
	accepted atomic.Int32 // connections passed on
	mu       sync.Mutex
	conns    []net.Conn
	cuts     int
}

func startProxy(tb testing.TB, target string) *proxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		ln.Close()
		p.cut()
		wg.Wait()
	})
	// Accepts until the listener closes; each connection's two copies end
	// when either side closes (cut closes both).
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if p.blocked.Load() {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			p.accepted.Add(1)
			wg.Go(func() { io.Copy(s, c); s.Close(); c.Close() })
			wg.Go(func() { io.Copy(c, s); s.Close(); c.Close() })
		}
	})
	return p
}

// cut closes every connection through the proxy.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.cuts++
}

func (p *proxy) url() string { return "http://" + p.ln.Addr().String() + "/" }

// arlWaitEvents waits until a client's log shows at least n events.
func arlWaitEvents(tb testing.TB, log string, n int) {
	tb.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
		var m struct {
			View *struct {
				Count int `json:"eventCount"`
			} `json:"view"`
		}
		if len(lines) > 0 && json.Unmarshal(lines[len(lines)-1], &m) == nil && m.View != nil && m.View.Count >= n {
			return
		}
	}
	tb.Fatalf("the client's log did not reach %d events", n)
}

// arlLines counts a log's lines.
func arlLines(tb testing.TB, log string) int {
	tb.Helper()
	b, _ := os.ReadFile(log)
	return bytes.Count(b, []byte("\n"))
}

// fedClient is an Arlington client whose terminal input lines ("auto")
// the test hands over one at a time.
type fedClient struct {
	log  string         // its --log file
	done chan arlClient // the client once it has exited
	feed chan struct{}  // a send hands over one line
	fed  chan struct{}  // closed when the feeder exits
	end  func()         // closes the client's input and waits for the feeder
}

// startFedClient connects a fedClient to link at seat 0, logging to log.
// The caller defers its end.
func startFedClient(link, log string) *fedClient {
	pr, pw := io.Pipe()
	c := &fedClient{log: log, done: make(chan arlClient, 1), feed: make(chan struct{}), fed: make(chan struct{})}
	go func() {
		out, errb := &syncBuffer{}, &syncBuffer{}
		code := Run(context.Background(), []string{"arlington", "connect", link, "--seat", "1", "--log", log}, pr, out, errb)
		pr.Close()
		c.done <- arlClient{code, out.String(), errb.String(), log}
	}()
	stop := make(chan struct{})
	go func() { // exits when the client's input is closed or the test ends
		defer close(c.fed)
		for {
			select {
			case <-c.feed:
				if _, err := io.WriteString(pw, "auto\n"); err != nil {
					return
				}
			case <-stop:
				return
			}
		}
	}()
	c.end = func() { close(stop); pw.Close(); <-c.fed }
	return c
}

// feedUntil plays the client's turns until its log holds want after the
// first line holding after.
func (c *fedClient) feedUntil(tb testing.TB, after, want string) {
	tb.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		if time.Now().After(deadline) {
			tb.Fatalf("A's log never showed %s after %s", want, after)
		}
		b, _ := os.ReadFile(c.log)
		if i := bytes.Index(b, []byte(after)); i >= 0 && bytes.Contains(b[i:], []byte(want)) {
			return
		}
		select {
		case c.feed <- struct{}{}:
		case <-time.After(50 * time.Millisecond): // A is not reading: look again
		}
	}
}

// feedRest plays the rest of the client's game; its loop ends with the
// client's input.
func (c *fedClient) feedRest() {
	go func() {
		for {
			select {
			case c.feed <- struct{}{}:
			case <-c.fed:
				return
			}
			// (fed closes when the feeder exits, at the latest when the
			// test ends.)
		}
	}()
}

func TestLongArlingtonConnectAwayAndBack(t *testing.T) {
	// A player whose connection is gone past the turn timer: the server's
	// stand-in plays the seat (marked away) while the other player is
	// there; when the connection comes back the player has the seat again
	// and plays on to the end.
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	p := startProxy(t, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	link := arlNewTable(t, url, "--seats", "human,human", "--target", "32", "--turn-timer", "5s")
	// A is a person at the terminal whose lines the test hands over one
	// at a time, so the game moves only as fast as the test lets it.
	a := startFedClient(link, filepath.Join(t.TempDir(), "a.jsonl"))
	defer a.end()
	logB, waitB := arlConnect(t, p.url()+strings.TrimPrefix(link, url), "", "--bot", "greedy", "--seat", "2")
	arlWaitEvents(t, logB, 3)
	p.blocked.Store(true)
	p.cut()
	away := `{"seat":1,"name":"greedy bot","away":true}`
	a.feedUntil(t, "", away)
	// While B is away its stand-in plays at once, so A is not fed until B
	// is back: fed, A and the stand-in would finish the game in the
	// seconds B's reconnect backoff (up to 8 s) waits, and B would come
	// back to a game that is over. A's turns meanwhile go to its turn
	// timer, a move every 5 s.
	cutAt := arlLines(t, logB)
	p.blocked.Store(false)
	for deadline := time.Now().Add(time.Minute); arlLines(t, logB) <= cutAt; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("B did not reconnect within a minute of the proxy letting it through")
		}
	}
	a.feedUntil(t, away, `{"seat":1,"name":"greedy bot","present":true}],"view"`)
	a.feedRest() // A plays the rest
	ca, cb := <-a.done, waitB()
	arlCheckFinished(t, ca)
	arlCheckFinished(t, cb)
	// B sits in seat 2 as a person reads it (1 on the wire, as above).
	standIn := strings.Index(cb.out, "stand-in: seat 2 (you) ")
	if standIn < 0 || !strings.Contains(cb.out[standIn:], "\nseat 2 (you) ") {
		t.Fatalf("no stand-in's move followed by the player's own:\n%s", cb.out)
	}
}

// TestLongArlingtonRestart is the restart test of live tables: the real
// server in a process, remote clients playing a table, the server killed
// (SIGKILL) mid-hand and started again on the same database and port.
// The table resumes with nothing acknowledged lost (every client's log
// goes on from exactly the events it had, and the clients agree), and the
// clients reconnect by themselves and finish the game.
func TestLongArlingtonRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	db := filepath.Join(t.TempDir(), "restart.db")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := startChildAt(t, db, addr)
	link := arlNewTable(t, srv.url, "--seats", "human,greedy,human", "--target", "32")
	logA, waitA := arlConnect(t, link, "", "--bot", "greedy")
	_, waitB := arlConnect(t, link, "", "--bot", "easy")
	// Kill the server well into the first hand, then start it again on
	// the same database and port.
	arlWaitEvents(t, logA, 25)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	_, _, last := arlLogged(t, logA)
	if last == nil || last["status"] == "over" {
		t.Fatalf("the game was over before the kill: %v", last)
	}
	startChildAt(t, db, addr) // its cleanup stops it
	a, b := waitA(), waitB()
	ea, eb := arlCheckFinished(t, a), arlCheckFinished(t, b)
	arlSameEvents(t, ea, eb)
	for _, c := range []arlClient{a, b} {
		if !strings.Contains(c.err, "reconnecting") {
			t.Fatalf("the client did not report a reconnection:\n%s", c.err)
		}
	}
	t.Logf("%d events; the server restarted after event %v", len(ea), last["view"].(map[string]any)["eventCount"])
}
