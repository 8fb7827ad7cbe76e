package arlweb

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wakeUp is a page waking (a laptop opened: the page shown again) and
// the network coming back, as the browser tells the page.
const wakeUp = `document.dispatchEvent(new Event("visibilitychange")); window.dispatchEvent(new Event("online"));`

// countPings counts, in window.__pings, the pings the page sends on its
// current connection, in window.__hellos its hellos there, and in
// window.__pongs the pongs that come on it.
const countPings = `(() => {
  window.__pings = 0; window.__hellos = 0; window.__pongs = 0;
  const s = window.__ws.socks[window.__ws.viewSock];
  const send = s.send;
  s.send = (d) => { const t = JSON.parse(d).type; if (t === "ping") window.__pings++; if (t === "hello") window.__hellos++; return send(d); };
  s.addEventListener("message", (ev) => { if (JSON.parse(ev.data).type === "pong") window.__pongs++; });
  return true;
})()`

// fakeNow makes the page's wall clock (Date.now, which its wake check
// reads) the test's: window.__now, moved by the test.
const fakeNow = `(() => { window.__now = Date.now(); Date.now = () => window.__now; return true; })()`

// TestBrowserArlingtonWakeCheck: a page woken (shown again, the network
// back) checks its connection at once with a ping, which the server
// answers with a pong; a live connection answers and is kept, and no
// hello is sent (it would resubscribe: the others would see the person
// leave and come back). Wakes in a row make one check, and so do wakes
// answered but less than 10 s apart by the page's clock; one 10 s after
// the last check checks again: no storm.
func TestBrowserArlingtonWakeCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	eval[bool](p, countPings)
	eval[bool](p, fakeNow)
	p.do(chromedp.Evaluate[chromedp.Void](wakeUp + wakeUp))
	p.until(`window.__pongs === 1`)
	// Answered; the next wakes, each in a task of its own, 9.9 s after
	// the check: none checks.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__now += 9900;` + wakeUp))
	p.do(chromedp.Evaluate[chromedp.Void](wakeUp))
	if n := eval[int](p, `window.__pings`); n != 1 {
		t.Errorf("wakes within 10 s of a check sent %d pings, want 1", n)
	}
	// 10 s after the check: the next wake checks again.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__now += 100;` + wakeUp))
	p.until(`window.__pongs >= 2`)
	type sent struct{ Pings, Hellos, Socks int }
	got := eval[sent](p, `({ pings: window.__pings, hellos: window.__hellos, socks: window.__ws.socks.length })`)
	if got != (sent{Pings: 2, Hellos: 0, Socks: 1}) {
		t.Errorf("after wakes 10 s apart: %+v; want 2 pings, no hello, the one connection kept", got)
	}
}

// TestLongBrowserArlingtonWakeDeadSocket (long: the page waits 3 s for
// the check's answer): the page's connection dies without a word, as
// when a laptop sleeps (a proxy between the page and the server stops
// passing its bytes, and closes nothing). A line said meanwhile does not
// reach the page. On waking, the page's ping goes unanswered, and about
// 3 s later it drops that connection and connects anew: the line shows.
// The page kept the dead socket until it sent something.
func TestLongBrowserArlingtonWakeDeadSocket(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := frozenWatcher(t)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__woke = performance.now();` + wakeUp))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	type woke struct {
		Pings, Socks int
		Ms           float64
	}
	got := eval[woke](p, `({ pings: window.__pings, socks: window.__ws.socks.length, ms: performance.now() - window.__woke })`)
	t.Logf("after waking: %+v", got)
	if got.Pings != 1 || got.Socks != 2 {
		t.Errorf("the page sent %d pings on the dead connection and opened %d connections in all; want one check and one new connection", got.Pings, got.Socks)
	}
}

// freezer is a TCP proxy to a server that can stop passing the bytes of
// the WebSocket connections open through it, closing nothing (a network
// gone silent under a sleeping laptop). Its goroutines end when the test
// ends (it closes every connection).
type freezer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []*frozenPair
	stop  chan struct{}
}

type frozenPair struct {
	ws     bool // a WebSocket upgrade went through it
	frozen bool
}

// frozenWatcher is a spectator's page on a new table, connected through
// a freezer that then stops passing its bytes; a line said meanwhile by
// another spectator (taken by the server) does not reach it. The page
// counts its pings (countPings).
func frozenWatcher(tb testing.TB) *seatTab {
	tb.Helper()
	e := newEnv(tb, Limits{})
	id := e.client().create("", "random")
	px := newFreezer(tb, e.srv.Listener.Addr().String())
	p := seatTabIn(tb, startBrowser(tb), "Watcher")
	p.open("http://"+px.addr(), id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	px.freeze()
	w := e.client().dial(id, -1)
	w.next()
	w.send(map[string]any{"type": "chat", "text": "are you there?"})
	w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 })
	eval[bool](p, countPings)
	return p
}

func newFreezer(t testing.TB, to string) *freezer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, stop: make(chan struct{})}
	var all []net.Conn
	var mu sync.Mutex
	t.Cleanup(func() {
		close(f.stop)
		ln.Close()
		mu.Lock()
		for _, c := range all {
			c.Close()
		}
		mu.Unlock()
	})
	// Accepts until the listener closes.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			all = append(all, c, u)
			mu.Unlock()
			pr := &frozenPair{}
			f.mu.Lock()
			f.conns = append(f.conns, pr)
			f.mu.Unlock()
			go f.pass(pr, c, u, true)
			go f.pass(pr, u, c, false)
		}
	}()
	return f
}

func (f *freezer) addr() string { return f.ln.Addr().String() }

// freeze stops the WebSocket connections open now: what either side
// sends is dropped from then on.
func (f *freezer) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, pr := range f.conns {
		if pr.ws {
			pr.frozen = true
		}
	}
}

// pass copies from src to dst until either fails (the test's end closes
// both); once the pair is frozen it reads and drops.
func (f *freezer) pass(pr *frozenPair, src, dst net.Conn, fromPage bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			f.mu.Lock()
			if fromPage && !pr.ws && bytes.Contains(bytes.ToLower(buf[:n]), []byte("upgrade: websocket")) {
				pr.ws = true
			}
			frozen := pr.frozen
			f.mu.Unlock()
			if !frozen {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// TestBrowserArlingtonWakeWhileAsking: after a connection lost without a
// word, a failed attempt first asks the server for the table's address
// (a gone table stops the page). The network coming back ("online")
// while that question is unanswered starts one connection at once, and
// the late answer plans no second one: the page never has two
// connections at once. The question is held by a server in front of the
// table's, until the test lets it through.
func TestBrowserArlingtonWakeWhileAsking(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	held := newAskHolder(t, e.srv.URL, "/api/arlington/tables/"+id)
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open(held.url(), id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	// The page's questions, counted as they are answered: done once the
	// page's own handling of the answer has run (a task after it).
	p.do(chromedp.Evaluate[chromedp.Void](`window.__answered = 0; { const f = window.fetch;
	  window.fetch = (...a) => { const r = f(...a); r.finally(() => setTimeout(() => window.__answered++)).catch(() => {}); return r; }; }`))
	held.arm()
	p.offline(true)
	ask := held.asked(t) // the first failed attempt asks; the answer is held
	type woke struct{ Tried, Socks int }
	w := eval[woke](p, `(() => {
	  window.__ws.offline = false;
	  const n = window.__ws.socks.length;
	  window.dispatchEvent(new Event("online"));
	  return { tried: window.__ws.socks.length - n, socks: window.__ws.socks.length };
	})()`)
	if ask.Err() != nil {
		t.Fatal("the page stopped waiting for the table's address before \"online\": the test saw no question in flight")
	}
	if w.Tried != 1 {
		t.Errorf("\"online\" while the table's address was asked started %d connections at once, want 1", w.Tried)
	}
	held.release()
	p.until(`window.__answered === 1 && document.getElementById("conn").textContent === "connected"`)
	type after struct {
		Socks, Most int
		Next        string
	}
	got := eval[after](p, `({ socks: window.__ws.socks.length, most: window.__ws.most, next: document.body.dataset.next ?? "none" })`)
	if got.Socks != w.Socks || got.Most != 1 || got.Next != "" {
		t.Errorf("after the held answer: %d connections started (%d at \"online\"), at most %d at once, next attempt %q; want no more, one at a time, none planned",
			got.Socks, w.Socks, got.Most, got.Next)
	}
}

// askHolder is a server in front of the table's that passes everything
// on (WebSockets too) but, once armed, holds the next GET of one path
// until released. Its handlers end when released, when the request ends
// (the page gives up on it), or when the test ends.
type askHolder struct {
	srv     *httptest.Server
	armed   atomic.Bool
	got     chan context.Context
	freed   chan struct{}
	release func()
}

func newAskHolder(t testing.TB, to, path string) *askHolder {
	u, err := url.Parse(to)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	h := &askHolder{got: make(chan context.Context, 1), freed: make(chan struct{})}
	h.release = sync.OnceFunc(func() { close(h.freed) })
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == path && h.armed.CompareAndSwap(true, false) {
			h.got <- r.Context()
			select {
			case <-h.freed:
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.release()
		h.srv.CloseClientConnections()
		h.srv.Close()
	})
	return h
}

func (h *askHolder) url() string { return h.srv.URL }

// arm holds the next GET of the path.
func (h *askHolder) arm() { h.armed.Store(true) }

// asked waits for the held request; its context ends if the page gives
// up on it.
func (h *askHolder) asked(t *testing.T) context.Context {
	t.Helper()
	select {
	case ctx := <-h.got:
		return ctx
	case <-time.After(browserWait):
		t.Fatal("the page never asked for the table's address")
		return nil
	}
}
