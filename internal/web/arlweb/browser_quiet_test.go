package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonQuietCheck (long: the page hears nothing for
// 20 s of its clock, run twice as fast here, then waits 3 s for its
// check's answer): the page's server stops without closing anything (its
// process paused while another server takes its table over), and the
// page is shown all along: no wake, no clock jump. A line said
// meanwhile does not reach it. Having heard nothing for 20 s, the page
// checks its connection with a ping, goes unanswered, drops that
// connection and connects anew: the line shows. Before, the page kept
// the silent connection until a proxy's read timeout closed it, or for
// good.
func TestLongBrowserArlingtonQuietCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	px := newFreezer(t, e.srv.Listener.Addr().String())
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open("http://"+px.addr(), id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	px.freeze()
	w := e.client().dial(id, -1)
	w.next()
	w.send(map[string]any{"type": "chat", "text": "are you there?"})
	w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 })
	eval[bool](p, countPings)
	// The page's clock twice as fast: its 5 s looks see 10 s pass, less
	// than a sleep's 15 s.
	eval[bool](p, fakeNow)
	p.do(chromedp.Evaluate[chromedp.Void](`setInterval(() => { window.__now += 100; }, 50)`))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	type quiet struct{ Pings, Socks int }
	got := eval[quiet](p, `({ pings: window.__pings, socks: window.__ws.socks.length })`)
	if got.Pings != 1 || got.Socks != 2 {
		t.Errorf("the page sent %d pings on the silent connection and opened %d connections in all; want one check and one new connection", got.Pings, got.Socks)
	}
}
