package webtest

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/memory"
	"github.com/chromedp/chromedp"
)

// settleRounds bounds the garbage collections DOMCounters runs waiting for
// the counts to hold still: the second and third agreed every time it was
// measured, but on a loaded machine the Spider page's counts once did not
// agree in five (a page's own timers may make nodes between two
// readings); then the least of each count stands, since garbage only
// adds to them.
const settleRounds = 6

// DOMCounters is an action reading the tab's DOM nodes and JavaScript
// event listeners once only what the page keeps is left: it collects
// garbage and reads the counts until two readings in a row agree, or
// else takes the least of its readings. One collection is not enough:
// Blink frees the nodes it finds dead a while after the collection, so a
// single reading after a redraw also counted what the redraw replaced
// about one time in two (at the Arlington table page after a reconnect:
// about 140 nodes, 9 listeners), and a test comparing two such readings
// saw growth where the page drew the same. A node or listener the page
// keeps survives every collection, so a leak still counts.
func DOMCounters(got *memory.GetDOMCountersResult) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var prev, least memory.GetDOMCountersResult
		for i := range settleRounds {
			if _, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
				return fmt.Errorf("collecting garbage: %w", err)
			}
			r, err := cdp.Call(ctx, tg, memory.GetDOMCounters, cdp.Empty{})
			if err != nil {
				return fmt.Errorf("reading the DOM counters: %w", err)
			}
			if i > 0 && r == prev {
				*got = r
				return nil
			}
			if i == 0 {
				least = r
			}
			least.Documents = min(least.Documents, r.Documents)
			least.Nodes = min(least.Nodes, r.Nodes)
			least.JsEventListeners = min(least.JsEventListeners, r.JsEventListeners)
			prev = r
		}
		*got = least
		return nil
	})
}
