package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// The table page as the browser tests drive it: every selector and every
// piece of page script the tests rely on is here, so a change to the page
// is answered in this one place. The page keeps these element ids (the
// page's contract with the tests): join, join-form, name, status, players,
// hand, actions, error, log, sheet, conn.
const (
	selJoin      = `#join`
	selName      = `#name`
	selJoinSend  = `#join-form button`
	selHandCards = `#hand [data-card]`            // one element per card, its code in data-card
	selLegal     = `#actions button[data-action]` // one button per legal action
	selActions   = `#actions button`
	selLog       = `#log li`
	selScores    = `#sheet td` // a cell of a scored hand's row
)

// hooks runs in every document of a driven page before the page's own
// scripts. It wraps the WebSocket so that a test can
//   - read what the page received: __ws.seat (the receiver's seat in the
//     last view), __ws.seats (the seats, as the protocol has them),
//     __ws.toMove, __ws.results (hands scored), __ws.count (the last
//     view's event count), __ws.views (each view's [eventsFrom,
//     eventCount]), __ws.evs (each event received: {n, kind, seat, action}), __ws.chat (chat lines received, repeats counted), __ws.viewSock (the
//     index in __ws.socks of the connection the last view came on) and
//     __ws.sent (each action the page sent, in notation) and __ws.hellos
//     (the hellos it sent, on any connection);
//   - drop the connection (__ws.drop()) and hold it down (__ws.offline:
//     a new connection goes to an address that refuses it, so the page's
//     own reconnect loop keeps failing until offline is false again);
//   - read the most connections the page had open (or opening) at once,
//     counting each new one as it starts (__ws.most);
//
// and it plays for the person while sessionStorage "auto" is "1" (kept
// across a reload): whenever a legal action is offered, it clicks the
// first, then waits until that button has left the page, or the page has
// drawn a view newer than the click, before clicking again. The page
// keeps a button whose action is offered again (the same card to lead
// in the next trick), so waiting for it to leave alone stood still.
// shownAll is true once the page has drawn every event it received (the
// hooks' __ws counts them on arrival): a paced page draws a view's plays
// some time after it came, and until then still offers the actions of the
// turn before, which a test would read or click as the turn's.
const shownAll = `(window.__ws.count <= 0 || !!document.querySelector('#log li[data-n="' + (window.__ws.count - 1) + '"]'))`

const hooks = `(() => {
  const W = window.WebSocket;
  const ws = window.__ws = { socks: [], offline: false, seat: -1, seats: [], toMove: -1, results: 0, count: -1, views: [], evs: [], chat: 0, sent: [], hellos: 0, viewSock: -1, most: 0 };
  ws.drop = () => { for (const s of ws.socks) s.close(); };
  function Wrapped(url, protocols) {
    const s = new W(ws.offline ? url.replace(/\/ws$/, "/ws-offline") : url, protocols);
    ws.socks.push(s);
    ws.most = Math.max(ws.most, ws.socks.filter((x) => x.readyState === W.CONNECTING || x.readyState === W.OPEN).length);
    const send = s.send.bind(s);
    s.send = (d) => {
      try {
        const m = JSON.parse(d);
        if (m.type === "action") ws.sent.push(m.action);
        if (m.type === "hello") ws.hellos++;
      } catch { /* not ours to judge */ }
      return send(d);
    };
    s.addEventListener("message", (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === "view") { ws.seat = m.seat; ws.seats = m.seats; ws.chat += (m.chat || []).length; ws.viewSock = ws.socks.indexOf(s); }
      if (m.type === "view" && m.view) {
        ws.toMove = m.view.toMove; ws.results = (m.view.results || []).length; ws.views.push([m.view.eventsFrom, m.view.eventCount]); ws.count = m.view.eventCount;
        for (const e of m.view.events) ws.evs.push({ n: e.n, kind: e.kind, seat: e.seat, action: e.action }); }
    });
    return s;
  }
  Wrapped.prototype = W.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Wrapped[k] = W[k];
  window.WebSocket = Wrapped;
  let pending = null, pendingAt = -1;
  const shown = () => ws.count <= 0 || !!document.querySelector('#log li[data-n="' + (ws.count - 1) + '"]');
  setInterval(() => {
    if (sessionStorage.getItem("auto") !== "1") return;
    if (pending && pending.isConnected && !(ws.count > pendingAt && shown())) return;
    const b = document.querySelector(%q);
    if (b && !b.disabled) { pending = b; pendingAt = ws.count; b.click(); }
  }, 100);
})();`

// tab is one person's (or a spectator's) page in a browser context of its
// own: its own cookies, so its own identity.
type seatTab struct {
	tb    testing.TB
	name  string
	ctx   context.Context
	shots int // screenshots taken
}

// newSeatTab opens a fresh browser context in the browser bctx, with the
// hooks installed for every page it loads.
func newSeatTab(tb testing.TB, bctx context.Context, name string) *seatTab {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	tb.Cleanup(cancel)
	// The first Run on a context must not carry a timeout (it would end
	// the tab), so the wait is bounded here: cancelling the context ends
	// the Run.
	done := make(chan error, 1)
	go func() {
		done <- chromedp.Do(ctx, installHooks(), chromedp.EmulateViewport(390, 844), reducedMotion(), focusEmulated())
	}()
	select {
	case err := <-done:
		if err != nil {
			tb.Fatalf("%s: opening a browser context: %v", name, err)
		}
	case <-time.After(browserWait):
		cancel()
		<-done
		tb.Fatalf("%s: the browser opened no context within %v", name, browserWait)
	}
	return asSeatTab(tb, ctx, name)
}

// seatTabIn makes the tab of bctx, a browser context of its own already
// open (startBrowser's), a seatTab, with the hooks installed for every
// page it loads: the first seat of a test needs no second browser context
// (about half a second under -race on the shared 2-core machine).
// Further tabs opened from bctx (newSeatTab) are in contexts of their
// own, as before.
func seatTabIn(tb testing.TB, bctx context.Context, name string) *seatTab {
	tb.Helper()
	ctx, cancel := context.WithTimeout(bctx, browserWait)
	defer cancel()
	err := chromedp.Do(ctx, installHooks(), chromedp.EmulateViewport(390, 844), reducedMotion(), focusEmulated())
	if err != nil {
		tb.Fatalf("%s: preparing the tab: %v", name, err)
	}
	return asSeatTab(tb, bctx, name)
}

// installHooks installs the hooks for every page the tab loads next.
func installHooks() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(hooks, selLegal)})
		return err
	})
}

// secondWindow opens a second tab in a's browser context (the same
// browser: the same person, so the same seat), with the hooks, on the
// table id of server url.
func secondWindow(tb testing.TB, a *seatTab, name, url, id string) *seatTab {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(a.ctx)
	tb.Cleanup(cancel)
	// The first action opens the tab, which a context with a timeout
	// would close as it ends, so it is bounded here as in newSeatTab.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx, installHooks(), focusEmulated()) }()
	select {
	case err := <-done:
		if err != nil {
			tb.Fatalf("%s: opening a second window: %v", name, err)
		}
	case <-time.After(browserWait):
		cancel()
		<-done
		tb.Fatalf("%s: the browser opened no second window within %v", name, browserWait)
	}
	b := asSeatTab(tb, ctx, name)
	b.open(url, id)
	return b
}

// asSeatTab is the seatTab of the prepared tab ctx.
func asSeatTab(tb testing.TB, ctx context.Context, name string) *seatTab {
	p := &seatTab{tb: tb, name: name, ctx: ctx}
	// A tab that took no screenshot of its own leaves one of where the
	// test ended (before the tab closes: cleanups run last first).
	tb.Cleanup(func() {
		if p.shots == 0 {
			webtest.Screenshot(tb, ctx, name+"-end")
		}
	})
	return p
}

// reducedMotion has the page's media queries see prefers-reduced-motion:
// the table page then shows play at once (speed "instant"), so tests that
// play whole games are not paced for a person's eyes. The pacing test
// picks a speed itself.
func reducedMotion() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
		return err
	})
}

// focusEmulated has the tab behave as the focused window's whatever
// other tabs are open: Chromium gives the focus (focus and blur events,
// :focus, document.hasFocus) to one window at a time, and the package's
// browser tests run side by side in one browser (t.Parallel).
func focusEmulated() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
}

// browserWait bounds each wait for the page: webtest's bound of a step
// (generous: the machine is shared, the server runs under -race).
const browserWait = webtest.StepTimeout

// do runs actions within browserWait; a failure ends the test with what
// the page shows.
func (p *seatTab) do(actions ...chromedp.Action[chromedp.Void]) {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.tb.Fatalf("%s: %v; page: %s", p.name, err, p.diag())
	}
}

// until waits for a condition on the page (a JS expression) to hold.
func (p *seatTab) until(cond string) {
	p.tb.Helper()
	p.do(untilJS(cond))
}

// untilPlayed waits for cond, a JS expression that may play the
// person's turn (click an action) and is true once the moment the test
// looks for has come. How long that takes is how long the game runs
// until then: tens of plays in most deals, hundreds in some, each slower
// on a loaded machine, so no one step's bound fits the whole of it (a
// test that waited for it as one step failed under load when a deal ran
// long). Each wait ends once the page has received playBatch more
// events, and the next goes on from there: a wait fails only when the
// table stands still for a step's bound, or after playCap events, and
// the game's end before cond fails the test saying so.
func (p *seatTab) untilPlayed(cond string) {
	p.tb.Helper()
	start := p.events()
	for {
		from := p.events()
		if from-start > playCap {
			p.tb.Fatalf("%s: not true after %d events: %s; page: %s", p.name, from-start, cond, p.diag())
		}
		p.until(fmt.Sprintf(`(window.__played = (%s) ? "yes" : document.getElementById("btn-replay") ? "over" : "") !== "" || window.__ws.count >= %d`,
			cond, from+playBatch))
		switch eval[string](p, `window.__played`) {
		case "yes":
			return
		case "over":
			p.tb.Fatalf("%s: the game ended before this came: %s", p.name, cond)
		}
	}
}

// playBatch is the events one wait of untilPlayed lets pass (a few
// seconds of play under load); playCap is the most it lets pass in all,
// far past the longest wait seen (under 600 events).
const playBatch, playCap = 60, 6000

// untilJS looks at the condition whenever the page's document changes
// (a MutationObserver's turn, once the script that changed it has run)
// and every 50 ms for what the document does not show (the hooks'
// counts, the scroll). Looked at every 50 ms alone, a test that plays
// through the page waited about 30 ms at each of its moves for the next
// look: over half the time of playing two hands. It gives up a second
// before browserWait, so the page's error reaches the test.
func untilJS(cond string) chromedp.Action[chromedp.Void] {
	return untilWithin(cond, browserWait-time.Second)
}

// untilWithin is untilJS giving up after limit. Every way the wait ends
// (the condition true, the condition throwing, the limit reached) stops
// its looks: the observer is disconnected and the timers cleared, so a
// wait that ended does not go on looking at the page, throwing, under
// the next one. The observer is connected only after the first look, so
// a wait that ends there never connects it.
func untilWithin(cond string, limit time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`new Promise((ok, fail) => {
	  let done = false, timer = 0, giveUp = 0, mo = null;
	  const end = (err) => {
	    done = true;
	    if (mo) mo.disconnect();
	    clearTimeout(timer);
	    clearTimeout(giveUp);
	    if (err) fail(err); else ok();
	  };
	  const look = () => {
	    if (done) return;
	    let met;
	    try { met = (%s); } catch (err) { end(err); return; }
	    if (met) end();
	  };
	  const tick = () => { look(); if (!done) timer = setTimeout(tick, 50); };
	  tick();
	  if (done) return;
	  mo = new MutationObserver(look);
	  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
	  giveUp = setTimeout(() => end(new Error("not true within %d ms: " + %s)), %d);
	})`, cond, limit.Milliseconds(), q(cond), limit.Milliseconds()), chromedp.EvalAwaitPromise)
}

// eval evaluates a JS expression into v's type (with
// chromedp.EvalAwaitPromise, the value a promise resolves to).
func eval[T any](p *seatTab, expr string, opts ...chromedp.EvaluateOption) T {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.tb.Fatalf("%s: %s: %v; page: %s", p.name, expr, err, p.diag())
	}
	return v
}

// diag is what the page shows, for a failure message.
func (p *seatTab) diag() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`["conn", "status", "error"].map((i) => i + ": " + (document.getElementById(i) || {}).textContent).join(" | ")`+
		` + " | hand " + document.querySelectorAll(`+q(selHandCards)+`).length + " | actions " + document.querySelectorAll(`+q(selActions)+`).length`+
		` + " | events " + (window.__ws ? window.__ws.count : "?") + " | at " + location.pathname + " (" + document.readyState + ")"`))
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	return s
}

// q quotes s as a JS string.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// open loads table id's page and waits for its first view.
func (p *seatTab) open(base, id string) {
	p.tb.Helper()
	p.do(chromedp.Navigate(base + "/arlington/t/" + id))
	p.until(`window.__ws && window.__ws.seats.length > 0`)
}

// join takes a seat through the page's form, as name, and waits until the
// page's connection has the seat and the page has answered the join with
// its new hello (the seat's view may come first): a test that opens more
// connections to the seat before that hello would find the page's
// connection the newest, not the oldest.
func (p *seatTab) join(name string) {
	p.tb.Helper()
	p.until(`!document.querySelector(` + q(selJoin) + `).hidden`)
	hellos := eval[int](p, `window.__ws.hellos`)
	p.do(chromedp.SendKeys(chromedp.CSS(selName), name), chromedp.Click(chromedp.CSS(selJoinSend)))
	p.until(`window.__ws.seat >= 0 && window.__ws.hellos > ` + strconv.Itoa(hellos))
}

// hand is the cards the page shows in the person's hand.
func (p *seatTab) hand() []string {
	p.tb.Helper()
	return eval[[]string](p, `[...document.querySelectorAll(`+q(selHandCards)+`)].map((e) => e.dataset.card)`)
}

// count is the number of elements sel matches.
func (p *seatTab) count(sel string) int {
	p.tb.Helper()
	return eval[int](p, `document.querySelectorAll(`+q(sel)+`).length`)
}

// events is the event count of the last view the page received.
func (p *seatTab) events() int {
	p.tb.Helper()
	return eval[int](p, `window.__ws.count`)
}

// play clicks the first legal action and waits until the page has a view
// past the event count it had.
func (p *seatTab) play() {
	p.tb.Helper()
	n := p.events()
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(` + q(selLegal) + `).click()`))
	p.until(fmt.Sprintf(`window.__ws.count > %d`, n))
}

// auto turns the page's player on or off (it survives a reload).
func (p *seatTab) auto(on bool) {
	p.tb.Helper()
	v := "0"
	if on {
		v = "1"
	}
	p.do(chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem("auto", ` + q(v) + `)`))
}

// offline drops the page's WebSocket and holds it down (true), or lets
// the page's reconnect loop through again (false).
func (p *seatTab) offline(on bool) {
	p.tb.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__ws.offline = %v; if (%v) window.__ws.drop()`, on, on)))
}

// views is every [eventsFrom, eventCount] of the views received since
// the page loaded.
func (p *seatTab) views() [][2]int {
	p.tb.Helper()
	return eval[[][2]int](p, `window.__ws.views`)
}

// shot writes a screenshot of a checked state as a test artifact, when
// webtest.ArtifactsEnv names a folder (webtest.Screenshot).
func (p *seatTab) shot(what string) {
	p.tb.Helper()
	p.shots++
	webtest.Screenshot(p.tb, p.ctx, what)
}
