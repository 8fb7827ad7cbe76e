package arlweb

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// silentSockets is a server in front of e's whose table WebSockets,
// while silent is set, are taken and never answered, as by a proxy or an
// overloaded server that accepts the connection and says nothing; the
// other requests pass. taken counts the sockets held.
type silentSockets struct {
	srv    *httptest.Server
	silent atomic.Bool
	taken  atomic.Int32
	mu     sync.Mutex
	held   []net.Conn
}

func newSilentSockets(tb testing.TB, e *env) *silentSockets {
	tb.Helper()
	s := &silentSockets{}
	s.silent.Store(true)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.silent.Load() || !strings.HasSuffix(r.URL.Path, "/ws") {
			e.site.ServeHTTP(w, r)
			return
		}
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.mu.Lock()
		s.held = append(s.held, c)
		s.mu.Unlock()
		s.taken.Add(1)
	}))
	tb.Cleanup(func() {
		s.mu.Lock()
		for _, c := range s.held {
			c.Close()
		}
		s.mu.Unlock()
		s.srv.Close()
	})
	return s
}

// quickTimers makes the page's 10 s bound on opening a socket run out
// 50 times sooner, so a short test sees what the page does then. Only
// that one: the test's own waits (setTimeout in the page, 44 s) keep
// their length, or they give up within a second on a loaded machine.
const quickTimers = `(() => {
  const st = window.setTimeout;
  window.setTimeout = (f, ms, ...a) => st(f, ms === 10000 ? ms / 50 : ms, ...a);
})()`

// checkSilentOpen opens a table's page behind a server whose WebSockets
// are taken and never answered. The page gives the opening up, says so
// in its connection line (and to a screen reader) and tries again; once
// the sockets are answered, it connects and shows the table. The page
// said "connecting…" for good, the browser setting no bound of its own.
func checkSilentOpen(t *testing.T, quick bool) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	s := newSilentSockets(t, e)
	p := seatTabIn(t, startBrowser(t), "Ann")
	if quick {
		p.beforeLoad(quickTimers)
	}
	p.beforeLoad(`document.addEventListener("DOMContentLoaded", () => {
	  window.__said = [];
	  new MutationObserver(() => window.__said.push(document.getElementById("say").textContent)).observe(document.getElementById("say"), { subtree: true, childList: true, characterData: true });
	});`)
	p.do(chromedp.Navigate(s.srv.URL + "/arlington/t/" + id))
	p.until(`document.getElementById("conn").textContent.includes("no answer from the server")`)
	if n := s.taken.Load(); n < 1 {
		t.Fatalf("the page says the server does not answer with %d sockets taken", n)
	}
	if !eval[bool](p, `window.__ws.socks[0].readyState === WebSocket.CLOSING || window.__ws.socks[0].readyState === WebSocket.CLOSED`) {
		t.Errorf("the page said the server does not answer but kept its first socket opening")
	}
	if !eval[bool](p, `window.__said.some((x) => x.includes("no answer from the server"))`) {
		t.Errorf("the screen reader was not told: %v", eval[[]string](p, `window.__said`))
	}
	// The page tries again by itself; answered, it connects.
	p.until(`window.__ws.socks.length >= 2`)
	s.silent.Store(false)
	p.until(`document.getElementById("conn").textContent === "connected" && window.__ws.seats.length > 0`)
}

// TestBrowserArlingtonSilentOpen is checkSilentOpen with the page's long
// timers sped up (quickTimers).
func TestBrowserArlingtonSilentOpen(t *testing.T) {
	t.Parallel()
	checkSilentOpen(t, true)
}

// TestLongBrowserArlingtonSilentOpen (long: the page waits out its 10 s
// bound on opening a socket, and maybe another): checkSilentOpen on the
// page's own clock.
func TestLongBrowserArlingtonSilentOpen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: the page's 10 s bound on opening a socket")
	}
	checkSilentOpen(t, false)
}
