package webtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// StepTimeout bounds each browser step: an action, an evaluation or a wait
// for a page condition. A step that cannot finish (a click on a node that
// never shows, a page that never gets ready) fails on its own, naming
// itself, long before the test's timeout. Generous: the machine is shared
// and the server runs under -race, where a page's start takes seconds.
const StepTimeout = 45 * time.Second

// OpenTab opens a new tab in the browser bctx (chromedp.NewContext with
// opts) with a w×h viewport, and returns its context; the tab closes when
// the test ends.
func OpenTab(tb testing.TB, bctx context.Context, w, h int64, opts ...chromedp.ContextOption) context.Context {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(bctx, opts...)
	tb.Cleanup(cancel)
	firstRun(tb, ctx, cancel, "opening a tab", chromedp.EmulateViewport(w, h))
	return ctx
}

// firstRun runs a new tab's first actions, which open it. That run must
// not carry a timeout (it would end the tab with it), so it is bounded
// from outside: cancel (the tab's) ends it after StepTimeout.
func firstRun(tb testing.TB, ctx context.Context, cancel func(), what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	done := make(chan error, 1)
	// Exits when the run ends, which cancel (below or at cleanup) forces.
	go func() { done <- chromedp.Do(ctx, actions...) }()
	select {
	case err := <-done:
		if err != nil {
			tb.Fatalf("%s: %v", what, err)
		}
	case <-time.After(StepTimeout):
		cancel()
		<-done
		tb.Fatalf("%s: not within %v", what, StepTimeout)
	}
}

// Do runs the actions in the tab ctx within StepTimeout; the error names
// the step (what).
func Do(ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) error {
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		return fmt.Errorf("%s (a step bounded at %v): %w", what, StepTimeout, err)
	}
	return nil
}

// Eval evaluates js in the tab ctx (awaiting a promise it returns) within
// StepTimeout and decodes its JSON value into out (if not nil).
func Eval(ctx context.Context, js string, out any) error {
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	raw, err := chromedp.Run(sctx, chromedp.Evaluate[json.RawMessage](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("evaluating %.200s (a step bounded at %v): %w", js, StepTimeout, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("decoding %.200s: %w", raw, err)
		}
	}
	return nil
}

// ErrWait is the error of a condition that did not come to hold in time.
var ErrWait = errors.New("the page condition did not hold")

// Wait waits until the JavaScript condition cond holds in the tab ctx,
// within StepTimeout, asking every 40 ms. An evaluation that fails (the
// tab is between two documents after a click on a link) is asked again,
// so a condition on the page a navigation leads to can be waited for.
func Wait(ctx context.Context, cond, what string) error {
	deadline := time.Now().Add(StepTimeout)
	var last error
	for {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](`!!(`+cond+`)`))
		cancel()
		if err == nil && ok {
			return nil
		}
		last = err
		if ctx.Err() != nil || time.Now().After(deadline) {
			if last != nil {
				return fmt.Errorf("%w within %v: %s (%s); last evaluation: %v", ErrWait, StepTimeout, what, cond, last)
			}
			return fmt.Errorf("%w within %v: %s (%s)", ErrWait, StepTimeout, what, cond)
		}
		time.Sleep(40 * time.Millisecond) // polling the page for the condition
	}
}

// FocusBelowBar checks the page's sticky bar (the element bar) against
// keyboard focus, which scrolls a focused element into view. The page is
// scrolled until the element control's top is at the window's top, under
// the bar: there a browser that does not know of the bar sees control in
// view and does not scroll at all. Focused, control must end below the
// bar. (Scrolled wholly out of the window, a control comes back to the
// window's middle, clear of the bar either way, so that place would prove
// nothing.) Then, scrolled there again, focusing the bar's first link must
// leave the page where it is: the bar does not move when the page
// scrolls, so scrolling to show its links would only lose the reader's
// place. A page that cannot scroll that far fails the check.
func FocusBelowBar(tb testing.TB, ctx context.Context, control, bar string) {
	tb.Helper()
	c, b := jsQuery(control), jsQuery(bar)
	focus := func(sel string) {
		tb.Helper()
		if err := Do(ctx, "focusing "+sel, chromedp.Focus(chromedp.CSS(sel))); err != nil {
			tb.Fatal(err)
		}
	}
	ScrollUnderBar(tb, ctx, control, bar)
	focus(control)
	var gap float64
	if err := Eval(ctx, c+`.getBoundingClientRect().top - `+b+`.getBoundingClientRect().bottom`, &gap); err != nil {
		tb.Fatal(err)
	}
	if gap < 0 {
		tb.Errorf("%s focused from under the page's bar: its top stays %.0f px under the bar", control, -gap)
	} else {
		tb.Logf("%s focused from under the page's bar: its top is %.0f px below the bar", control, gap)
	}
	y := ScrollUnderBar(tb, ctx, control, bar)
	focus(bar + " a")
	var after float64
	if err := Eval(ctx, `scrollY`, &after); err != nil {
		tb.Fatal(err)
	}
	if after != y {
		tb.Errorf("focusing the bar's first link scrolled the page from %.0f to %.0f px", y, after)
	}
}

// ScrollUnderBar scrolls the page until the top of the element control is
// at the window's top, under the page's sticky bar (the element bar), with
// nothing focused, and returns the page's offset. There a browser that
// does not know of the bar counts control in view and does not scroll it
// out from under the bar when it is focused or clicked. A page that
// cannot scroll that far ends the test.
func ScrollUnderBar(tb testing.TB, ctx context.Context, control, bar string) float64 {
	tb.Helper()
	c, b := jsQuery(control), jsQuery(bar)
	var r struct {
		Under bool
		Y     float64
	}
	// Focusing the element that has the focus would not scroll.
	if err := Eval(ctx, `(() => { document.activeElement?.blur(); window.scrollBy(0, Math.round(`+c+`.getBoundingClientRect().top));
	  const top = `+c+`.getBoundingClientRect().top; return {Under: Math.abs(top) < 1 && top < `+b+`.getBoundingClientRect().bottom, Y: scrollY}; })()`, &r); err != nil {
		tb.Fatal(err)
	}
	if !r.Under || r.Y <= 0 {
		tb.Fatalf("the page does not scroll far enough to put %s under its bar", control)
	}
	return r.Y
}

// jsQuery is the JavaScript expression of the first element sel matches.
func jsQuery(sel string) string {
	q, _ := json.Marshal(sel)
	return "document.querySelector(" + string(q) + ")"
}
