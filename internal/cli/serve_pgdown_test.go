package cli

import (
	"io"
	"net"
	neturl "net/url"
	"strings"
	"sync"
	"testing"

	"cardtable/internal/pgtest"
)

// TestServeDatabaseOutOfReach: a server on PostgreSQL whose database goes
// out of reach (its connections cut, nothing listening any more) answers
// a write 503 in words that say to try again, where it answered 500
// "internal error", and saves again once the database is back.
func TestServeDatabaseOutOfReach(t *testing.T) {
	u, err := neturl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startCutProxy(t, u.Host)
	u.Host = p.addr
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", u.String())
	if _, err := post(t, s.url+"api/games", `{"deal":"1"}`, 201); err != nil {
		t.Fatal(err)
	}
	p.cut()
	for range 2 { // on a connection the cut broke, then on one refused
		code, body := postAnswer(t, s.url+"api/games", `{"deal":"2"}`)
		if code != 503 || !strings.Contains(body, "the server cannot reach its database just now; try again in a moment") {
			t.Fatalf("a write with the database out of reach: %d %s\n%s", code, body, s.log)
		}
	}
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
	}
}

// postAnswer posts body as JSON and returns the status and the answer.
func postAnswer(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := browser.Post(url, "application/json", strings.NewReader(body))
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
