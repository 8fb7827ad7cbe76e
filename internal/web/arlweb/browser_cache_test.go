package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonLobbyAndBack: a person who goes from the table to
// the lobby is gone from the table at once, and Back brings them back.
// The browser keeps a page left for another in its back-forward cache,
// socket and all, so the table saw the person still connected while
// they were in the lobby (their turn waited out its timer). Now the
// page closes its connection on going into the cache, and connects
// anew when Back shows it again.
func TestBrowserArlingtonLobbyAndBack(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "", "random")
	p := seatTabIn(t, startBrowser(t), "Ben")
	p.open(e.srv.URL, id)
	p.join("Ben")
	watcher := e.client().dial(id, 0)
	present := func(want bool) func(srvMsg) bool {
		return func(m srvMsg) bool {
			return m.Type == "view" && len(m.Seats) > 0 && m.Seats[0].Present == want
		}
	}
	watcher.waitFor(present(true))
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`location.pathname === "/arlington/"`)
	watcher.waitFor(present(false))
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.until(`location.pathname.startsWith("/arlington/t/") && document.getElementById("conn").textContent === "connected"`)
	// The same document (the hooks' count of its sockets lives on): its
	// first socket closed, a second open.
	if got := eval[[]int](p, `window.__ws.socks.map((s) => s.readyState)`); len(got) != 2 || got[0] != 3 || got[1] != 1 {
		t.Errorf("Back: the page's sockets are %v (readyState), want the cached page's first closed (3) and a second open (1): %s", got, p.diag())
	}
	watcher.waitFor(present(true))
}
