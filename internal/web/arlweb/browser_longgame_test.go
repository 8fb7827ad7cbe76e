package arlweb

import (
	"fmt"
	"testing"

	"cardtable/internal/web/webtest"
	"github.com/chromedp/cdproto/memory"
	"github.com/chromedp/chromedp"
)

// domCounters are the tab's DOM nodes and JavaScript event listeners
// once only what the page keeps counts (webtest.DOMCounters).
func (p *seatTab) domCounters() memory.GetDOMCountersResult {
	p.tb.Helper()
	// The test's hooks keep every socket the page opened (__ws.socks):
	// closed ones become stand-ins, so that only what the page keeps counts.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.socks = window.__ws.socks.map((s) =>
	  s.readyState === WebSocket.CLOSED ? { url: s.url, readyState: WebSocket.CLOSED, close() {} } : s)`))
	var got memory.GetDOMCountersResult
	p.do(webtest.DOMCounters(&got))
	return got
}

// TestLongBrowserArlingtonLongGameBounded (long: hands played by the page
// under -race): over hands of play and chat the chat's list holds the
// table's last lines only, and reconnecting again and again
// adds no listener and no node, and asks the server only for the events
// after those the page has.
func TestLongBrowserArlingtonLongGameBounded(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	tbl, _, p := openTable(t, e, "Ann", longGame, "", "random", "random")
	p.join("Ann")
	p.auto(true)
	// An address may say 10 lines at once at a table, then one a second:
	// the lines come in one burst from two spectators' connections.
	const lines = 10
	for i := 0; i < lines; i += 5 {
		w := e.client().dial(tbl.ID, -1)
		w.next()
		for j := range 5 {
			w.send(map[string]any{"type": "chat", "text": fmt.Sprintf("line %d of the long game", i+j)})
		}
		p.until(fmt.Sprintf(`window.__ws.chat >= %d`, i+5))
		w.c.CloseNow()
	}
	p.until(`window.__ws.results >= 3`)
	p.until(shownAll)
	chat, logLines := p.count(selChat), p.count(selLog)
	t.Logf("after %d chat lines and %d hands: %d chat lines and %d log lines in the page", lines, eval[int](p, `window.__ws.results`), chat, logLines)
	if chat > 50 {
		t.Errorf("the chat's list holds %d lines, want the table's last 50 at most", chat)
	}
	p.auto(false)
	p.until(shownAll)
	reconnect := func() {
		p.tb.Helper()
		n := eval[int](p, `window.__ws.socks.length`)
		p.offline(true)
		p.until(`window.__ws.socks.filter((s) => !s.url.endsWith("/ws-offline")).every((s) => s.readyState === WebSocket.CLOSED)`)
		p.offline(false)
		p.until(fmt.Sprintf(`window.__ws.viewSock >= %d && window.__ws.socks[window.__ws.viewSock].readyState === WebSocket.OPEN`, n))
		p.until(shownAll)
	}
	reconnect()
	before := p.domCounters()
	had := p.events()
	const times = 10
	for range times {
		reconnect()
	}
	after := p.domCounters()
	views := p.views()
	last := views[len(views)-1]
	t.Logf("%d reconnects: nodes %d -> %d, listeners %d -> %d; the last view sent events %d to %d", times,
		before.Nodes, after.Nodes, before.JsEventListeners, after.JsEventListeners, last[0], last[1])
	if after.JsEventListeners > before.JsEventListeners {
		t.Errorf("listeners grew from %d to %d over %d reconnects", before.JsEventListeners, after.JsEventListeners, times)
	}
	if after.Nodes > before.Nodes+4 {
		t.Errorf("nodes grew from %d to %d over %d reconnects", before.Nodes, after.Nodes, times)
	}
	if last[0] < had {
		t.Errorf("a reconnect was sent the game from event %d, the page had %d", last[0], had)
	}
}

// BenchmarkBrowserArlingtonSlowNetworkLoad measures the table page's
// first load (the cache emptied) and a return visit at 400 kbit/s and
// 400 ms, and reports for each the requests after the page, the bytes over
// the wire and of the bodies, the first paint and when the page had its
// first view (ms: the first look that found it, within 50 ms), the mean
// over b.N loads; -v logs every request (docs/page.md has the figures).
func BenchmarkBrowserArlingtonSlowNetworkLoad(b *testing.B) {
	e := newEnv(b, Limits{})
	tbl, _, p := openTable(b, e, "Ann", 0, "", "random")
	p.do(webtest.SlowNetwork())
	visits := []string{"first", "return"}
	sums := make([]webtest.LoadSum, len(visits))
	for b.Loop() {
		p.do(webtest.ClearCache())
		for i, visit := range visits {
			p.open(e.srv.URL, tbl.ID)
			sums[i].Add(b, visit, eval[webtest.Load](p, webtest.LoadScript("performance.now()")))
		}
	}
	for i, visit := range visits {
		sums[i].Report(b, visit, "view")
	}
}
