package spiderweb

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/memory"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// A long game on a slow phone: the page opened on a game thousands of
// moves long and played back and forth with undo and redo keeps no more
// of the page than a short one (nodes, listeners, the live region), and
// says how long its redraws took (docs/page.md has the figures).

// TestBrowserLongGameBounded is the quick version: 500 moves, 5 undos
// and redos.
func TestBrowserLongGameBounded(t *testing.T) {
	t.Parallel()
	longGameBounded(t, 500, 5)
}

// TestLongBrowserLongGameBounded: 5,000 moves, 50 undos and redos a round, the
// processor slowed fourfold.
func TestLongBrowserLongGameBounded(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	longGameBounded(t, 5000, 50)
}

// domCounters are the tab's DOM nodes and JavaScript event listeners once
// only what the page keeps counts (webtest.DOMCounters).
func (p *browserPage) domCounters() memory.GetDOMCountersResult {
	p.t.Helper()
	var got memory.GetDOMCountersResult
	p.step("counting the page's nodes and listeners", webtest.DOMCounters(&got))
	return got
}

func longGameBounded(t *testing.T, moves, rounds int) {
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 390, 844)
	p.step("slowing the processor fourfold", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4})
		return err
	}))
	var id string
	p.eval(fmt.Sprintf(`fetch("/api/games/load", {method: "POST", body: %q}).then((r) => r.json()).then((r) => r.id)`,
		webtest.ShuttleSave(moves)), &id)
	p.eval(fmt.Sprintf(`sessionStorage.setItem("cardtable.spider.game", %q), 1`, id), nil)
	p.measure() // the redraw times, read below
	p.waitJS(fmt.Sprintf(`document.querySelector("#st-moves").textContent === "%d"`, moves), "the long game on the table")
	step := func(btn string, want int) {
		p.t.Helper()
		p.eval(fmt.Sprintf(`document.querySelector(%q).click(), 1`, btn), nil)
		p.waitJS(fmt.Sprintf(`document.querySelector("#st-moves").textContent === "%d" && document.body.dataset.busy === "0"`, want), btn)
	}
	round := func() {
		p.t.Helper()
		for range rounds {
			step("#btn-undo", moves-1)
			step("#btn-redo", moves)
		}
		// The live region's last words come 30 ms after the answer.
		p.waitJS(`document.querySelector("#live").textContent !== ""`, "the last move said")
	}
	// What the page makes once (a message, its box) may come in any
	// round; what grows with the game comes in every one: the counts must
	// hold still over one of two rounds after the first.
	round()
	c1 := p.domCounters()
	round()
	c2 := p.domCounters()
	round()
	c3 := p.domCounters()
	t.Logf("%d undos and redos on a %d-move game, three times: nodes %d, %d, %d; listeners %d, %d, %d",
		rounds, moves, c1.Nodes, c2.Nodes, c3.Nodes, c1.JsEventListeners, c2.JsEventListeners, c3.JsEventListeners)
	if c2.JsEventListeners > c1.JsEventListeners && c3.JsEventListeners > c2.JsEventListeners {
		t.Errorf("the page's listeners grew in each round of %d undos and redos: %d, %d, %d", rounds, c1.JsEventListeners, c2.JsEventListeners, c3.JsEventListeners)
	}
	if c2.Nodes > c1.Nodes+4 && c3.Nodes > c2.Nodes+4 {
		t.Errorf("the page's nodes grew in each round of %d undos and redos: %d, %d, %d", rounds, c1.Nodes, c2.Nodes, c3.Nodes)
	}
	var live int
	p.eval(`document.querySelector("#live").childNodes.length`, &live)
	if live > 1 {
		t.Errorf("the live region holds %d nodes: its words pile up", live)
	}
	var times struct {
		N             int
		Median, Worst float64
		Heap          float64
	}
	p.eval(`(() => { const a = [...window.cardtableRenderTimes].sort((x, y) => x - y);
	  return {N: a.length, Median: a[a.length >> 1], Worst: a[a.length - 1],
	    Heap: performance.memory ? performance.memory.usedJSHeapSize : 0}; })()`, &times)
	t.Logf("redraws (processor slowed 4x): %d measured, median %.1f ms, worst %.1f ms; JS heap %.1f MB",
		times.N, times.Median, times.Worst, times.Heap/1e6)
}

// BenchmarkBrowserSlowNetworkLoad measures the Spider page's first load
// (the cache emptied) and a return visit at 400 kbit/s and 400 ms, and
// reports for each the requests after the page, the bytes over the wire
// and of the bodies, the first paint and the time to ready (ms), the mean
// over b.N loads; -v logs every request (docs/page.md has the figures).
func BenchmarkBrowserSlowNetworkLoad(b *testing.B) {
	srv := pageServer(b)
	p := openPage(b, startBrowser(b), srv, 390, 844)
	p.do(webtest.SlowNetwork())
	visits := []string{"first", "return"}
	sums := make([]webtest.LoadSum, len(visits))
	for b.Loop() {
		p.do(webtest.ClearCache())
		for i, visit := range visits {
			p.load()
			var got webtest.Load
			p.eval(webtest.LoadScript("+document.body.dataset.readyMs"), &got)
			if got.Ready <= 0 {
				b.Fatalf("%s visit: the page gave no time to ready (%v)", visit, got.Ready)
			}
			sums[i].Add(b, visit, got)
		}
	}
	for i, visit := range visits {
		sums[i].Report(b, visit, "ready")
	}
}
