package arlweb

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The wake check's two limits (docs/arlington-page.md, "Connection"): a
// hidden page never checks, and a question for the table's address that
// gets no answer is given up after 3 s.

// beforeLoad runs src in every document the tab loads from now on,
// before the page's own scripts (after the driver's hooks).
func (p *seatTab) beforeLoad(src string) {
	p.tb.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// hideable makes the page's visibility the test's (window.__hidden:
// document.hidden and visibilityState follow it), and keeps in
// window.__ticks the page's 5 s clock looks (setInterval callbacks of
// 5000 ms, still run by their timers too), for the test to run one at a
// moment of its choosing rather than wait for it.
const hideable = `(() => {
  window.__hidden = false;
  Object.defineProperty(document, "hidden", { get: () => window.__hidden, configurable: true });
  Object.defineProperty(document, "visibilityState", { get: () => window.__hidden ? "hidden" : "visible", configurable: true });
  window.__ticks = [];
  const si = window.setInterval;
  window.setInterval = (fn, ms, ...a) => { if (ms === 5000) window.__ticks.push(fn); return si(fn, ms, ...a); };
})();`

// TestBrowserArlingtonWakeNotWhileHidden: a hidden page does not check
// its connection, neither when its clock's look comes late (the browser
// holds a hidden tab's timers back, so every look seems late) nor when
// it is hidden (visibilitychange to hidden); shown, the same late look
// checks (a ping, answered by a pong).
func TestBrowserArlingtonWakeNotWhileHidden(t *testing.T) {
	t.Parallel()
	_, p, _ := watcherPage(t)
	eval[bool](p, fakeNow)
	if n := eval[int](p, `window.__ticks.length`); n != 1 {
		t.Fatalf("the page has %d clock looks every 5 s, want 1", n)
	}
	// A ping is sent as the check starts (in the same task): counted at
	// once, nothing to wait for.
	hidden := eval[int](p, `(() => {
	  window.__hidden = true;
	  document.dispatchEvent(new Event("visibilitychange"));
	  window.__now += 20000;
	  window.__ticks[0]();
	  return window.__pings;
	})()`)
	if hidden != 0 {
		t.Errorf("hidden, the page sent %d pings (on being hidden, and on a look 20 s late), want none", hidden)
	}
	// Shown, once any check made while hidden is answered (one under way
	// holds the next back): the same late look checks.
	p.until(`window.__pongs === window.__pings`)
	shown := eval[int](p, `(() => {
	  const before = window.__pings;
	  window.__hidden = false;
	  window.__now += 20000;
	  window.__ticks[0]();
	  return window.__pings - before;
	})()`)
	if shown != 1 {
		t.Fatalf("shown, a look 20 s late sent %d pings, want 1: the test's late look does not check", shown)
	}
	p.until(`window.__pongs === window.__pings`)
}

// giveUpNow has the page's timed aborts (AbortSignal.timeout) wait for
// the test instead of the clock: window.__askMs lists the waits asked
// for, and window.__giveUp() ends the last as its time running out
// would (a TimeoutError).
const giveUpNow = `(() => {
  window.__askMs = [];
  AbortSignal.timeout = (ms) => {
    window.__askMs.push(ms);
    const c = new AbortController();
    window.__giveUp = () => c.abort(new DOMException("signal timed out", "TimeoutError"));
    return c.signal;
  };
  return true;
})()`

// askHeldWatcher is a spectator's page, connected, on a new table
// reached through an askHolder on its address's questions.
func askHeldWatcher(tb testing.TB) (*seatTab, *askHolder) {
	tb.Helper()
	e := newEnv(tb, Limits{})
	id := e.client().create("", "random")
	held := newAskHolder(tb, e.srv.URL, "/api/arlington/tables/"+id)
	p := seatTabIn(tb, startBrowser(tb), "Watcher")
	p.open(held.url(), id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	return p, held
}

// stalledAsk drops p's connection and keeps it down, so that a failed
// attempt asks for the table's address, which held (armed before) never
// answers. It returns the question's context (it ends when the page
// gives up on it), when the question came (a little after the page
// asked it: a wait measured from here is a little short) and the
// connections p had opened by then.
func stalledAsk(t *testing.T, p *seatTab, held *askHolder) (context.Context, time.Time, int) {
	t.Helper()
	held.arm()
	p.offline(true)
	ask := held.asked(t)
	came := time.Now()
	p.until(`document.body.dataset.next === "ask"`)
	return ask, came, eval[int](p, `window.__ws.socks.length`)
}

// TestBrowserArlingtonWakeAskGivesUp: a question for the table's address
// that never gets an answer (a forwarded request held up) does not stop
// the reconnecting: the page gives it a 3 s limit, and when that runs
// out it ends the question and tries to connect again. The limit is
// run out by the test (TestLongBrowserArlingtonWakeAskGivesUp waits the
// 3 s).
func TestBrowserArlingtonWakeAskGivesUp(t *testing.T) {
	t.Parallel()
	p, held := askHeldWatcher(t)
	eval[bool](p, giveUpNow)
	ask, _, n := stalledAsk(t, p, held)
	if ms := eval[[]int](p, `window.__askMs`); len(ms) != 1 || ms[0] != 3000 {
		t.Fatalf("the page asked for the table's address with time limits %v (ms), want one of 3000", ms)
	}
	if ask.Err() != nil {
		t.Fatal("the question ended before its limit ran out")
	}
	p.do(chromedp.Evaluate[chromedp.Void](`window.__giveUp()`))
	p.until(`window.__ws.socks.length > ` + strconv.Itoa(n))
	select {
	case <-ask.Done():
	case <-time.After(browserWait):
		t.Error("the page tried again but never ended its question")
	}
}

// askLimits keeps in window.__askMs the limits the page sets on its
// timed questions (AbortSignal.timeout), which the browser's clock still
// runs out.
const askLimits = `(() => {
  window.__askMs = [];
  const timeout = AbortSignal.timeout;
  AbortSignal.timeout = (ms) => { window.__askMs.push(ms); return timeout.call(AbortSignal, ms); };
  return true;
})()`

// TestLongBrowserArlingtonWakeAskGivesUp (long: it waits the page's 3 s
// limit): a question for the table's address that never gets an answer
// is ended by the page when the 3 s limit it set runs out on the
// browser's own clock, and the page tries to connect again. The limit
// is checked as the page set it, not timed: on a shared machine the
// time taken says how busy it is (a limit of 10 s must fail).
func TestLongBrowserArlingtonWakeAskGivesUp(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p, held := askHeldWatcher(t)
	eval[bool](p, askLimits)
	ask, start, n := stalledAsk(t, p, held)
	if ms := eval[[]int](p, `window.__askMs`); len(ms) != 1 || ms[0] != 3000 {
		t.Fatalf("the page asked for the table's address with time limits %v (ms), want one of 3000", ms)
	}
	select {
	case <-ask.Done():
	case <-time.After(browserWait):
		t.Fatalf("the page had not given up its question after %v", browserWait)
	}
	t.Logf("question ended %v after it was asked", time.Since(start).Round(time.Millisecond))
	p.until(`window.__ws.socks.length > ` + strconv.Itoa(n))
}
