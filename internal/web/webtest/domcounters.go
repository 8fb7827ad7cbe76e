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
// measured, so five never agreeing means the page keeps making nodes.
const settleRounds = 5

// DOMCounters is an action reading the tab's DOM nodes and JavaScript
// event listeners once only what the page keeps is left: it collects
// garbage and reads the counts until two readings in a row agree. One
// collection is not enough: Blink frees the nodes it finds dead a while
// after the collection, so a single reading after a redraw also counted
// what the redraw replaced about one time in two (at the Arlington table
// page after a reconnect: about 140 nodes, 9 listeners), and a test
// comparing two such readings saw growth where the page drew the same.
// A node or listener the page keeps survives every collection, so a leak
// still counts.
func DOMCounters(got *memory.GetDOMCountersResult) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var prev memory.GetDOMCountersResult
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
			prev = r
		}
		return fmt.Errorf("the DOM counters did not settle in %d garbage collections (last: %d nodes, %d listeners)",
			settleRounds, prev.Nodes, prev.JsEventListeners)
	})
}
