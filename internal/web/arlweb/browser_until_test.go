package arlweb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserUntilStops: the tests' wait on the page (untilJS) stops
// looking at its condition however it ends: the condition true, the
// condition throwing (at the first look, or at a later one), the limit
// reached. Its MutationObserver is left connected by none of them (a
// wait that ended and went on looking, throwing, under the next one),
// and a condition that throws ends the wait with its error.
func TestBrowserUntilStops(t *testing.T) {
	t.Parallel()
	p := seatTabIn(t, startBrowser(t), "Page")
	p.do(chromedp.Navigate("about:blank"))
	// Counts the page's connected observers.
	eval[bool](p, `(() => {
	  window.__live = 0;
	  const MO = window.MutationObserver;
	  window.MutationObserver = class extends MO {
	    observe(...a) { if (!this.on) { this.on = true; window.__live++; } return super.observe(...a); }
	    disconnect() { if (this.on) { this.on = false; window.__live--; } return super.disconnect(); }
	  };
	  return true;
	})()`)
	// run waits for cond within limit and says how it ended ("" when it
	// held). The test's bound is 10 s: the limits are shorter.
	run := func(cond string, limit time.Duration) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, untilWithin(cond, limit)); err != nil {
			return err.Error()
		}
		return ""
	}
	// Each condition counts its looks in window.__n (from 0). It leaves
	// the document alone: a look that changes it has the observer look
	// again at once, without end.
	const counted = `++window.__n`
	for _, c := range []struct {
		what, cond string
		limit      time.Duration
		err        string // in the wait's error; "" for none
	}{
		{"true at once", `true`, 5 * time.Second, ""},
		{"true at a later look", `(() => { ` + counted + `; return window.__n >= 3; })()`, 5 * time.Second, ""},
		{"throwing at the first look", `(() => { ` + counted + `; throw new Error("first look"); })()`, 5 * time.Second, "first look"},
		{"throwing at a later look", `(() => { ` + counted + `; if (window.__n >= 3) throw new Error("later look"); return false; })()`, 5 * time.Second, "later look"},
		{"never true", `(() => { ` + counted + `; return false; })()`, 200 * time.Millisecond, "not true within 200 ms"},
	} {
		eval[int](p, `window.__n = 0`)
		if got := run(c.cond, c.limit); c.err == "" && got != "" || c.err != "" && !strings.Contains(got, c.err) {
			t.Errorf("%s: the wait ended with %q, want %q", c.what, got, c.err)
		}
		// An observer is disconnected as the wait ends, in the same turn:
		// nothing to wait for.
		if live := eval[int](p, `window.__live`); live != 0 {
			t.Errorf("%s: the wait ended leaving %d observers connected", c.what, live)
		}
	}
}
