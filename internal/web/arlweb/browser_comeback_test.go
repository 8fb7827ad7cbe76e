package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestBrowserArlingtonComeBackInOtherWindow: Ann has the table open in
// two windows, A and B, and leaves the game in play in A. B, which goes
// on showing the stand-in's play, says she left and offers the same
// "Come back" as A; pressing it there brings her back, and both windows
// show her seat hers again (A, stopped by its Leave, connects again).
// Before, B showed her seat away with no way back but a reload. The
// quick part of TestLongBrowserArlingtonComeBackInOtherWindow.
func TestBrowserArlingtonComeBackInOtherWindow(t *testing.T) {
	t.Parallel()
	comeBackInOtherWindow(t, false)
}

// TestLongBrowserArlingtonComeBackInOtherWindow: as the short test, with
// Cy watching (never offered Come back), then the other way round:
// coming back in A brings B back too, and B stopped by a dropped
// connection while she was away (it does not reconnect by itself)
// connects again.
func TestLongBrowserArlingtonComeBackInOtherWindow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a third window and three rounds; TestBrowserArlingtonComeBackInOtherWindow is its quick part")
	}
	comeBackInOtherWindow(t, true)
}

func comeBackInOtherWindow(t *testing.T, long bool) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	bctx := startBrowser(t)
	a := seatTabIn(t, bctx, "Ann-A")
	b := twoWindows(t, e, a, id)
	var cy *seatTab
	pages := []*seatTab{a, b}
	if long {
		cy = newSeatTab(t, bctx, "Cy")
		cy.open(e.srv.URL, id)
		pages = append(pages, cy)
	}
	for _, p := range pages {
		p.until(`window.__ws.count >= 0`)
	}
	const (
		conn    = `document.getElementById("conn").textContent`
		annAway = `!!(window.__ws.seats.find((s) => s.seat === 0) || {}).away`
		left    = "you left this table: a bot plays your seat Come back"
	)
	seat := func(what string, away, present bool) {
		t.Helper()
		var sum table.Summary
		e.client().do("GET", "/api/arlington/tables/"+id, nil, &sum)
		if s := sum.Seats[0]; s.Away != away || s.Present != present {
			t.Fatalf("Ann's seat %s: %+v; want away %v, present %v", what, s, away, present)
		}
	}
	// Cy watches throughout: never offered Come back, always connected.
	watcherSees := func(away bool) {
		t.Helper()
		if cy == nil {
			return
		}
		cy.until(fmt.Sprintf(`%s === %v`, annAway, away))
		if c, n := eval[string](cy, conn), cy.count("#come-back"); c != "connected" || n != 0 {
			t.Errorf("Cy, watching, Ann's seat away %v: the connection line says %q, with %d Come back buttons", away, c, n)
		}
	}
	// leave presses Leave in A (the click that landed as the game
	// started: the button is hidden once the page draws it started).
	leave := func() {
		t.Helper()
		a.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
		a.until(conn + `.startsWith("you left")`)
		b.until(annAway + ` && !!document.querySelector("#come-back")`)
		if c := eval[string](b, conn); c != left {
			t.Errorf("B, once Ann left in A, says %q; want %q", c, left)
		}
		seat("once she left in A", true, false)
		watcherSees(true)
	}
	backIn := func(p *seatTab) {
		t.Helper()
		for _, w := range []*seatTab{a, b} {
			w.until(conn + ` === "connected" && window.__ws.seat === 0 && !` + annAway)
			if n := w.count("#come-back"); n != 0 {
				t.Errorf("Ann came back in %s: %s still offers Come back", p.name, w.name)
			}
		}
		seat("once she came back in "+p.name, false, true)
		watcherSees(false)
	}

	leave()
	b.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(b)

	if !long {
		return
	}
	leave()
	a.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(a)

	// B's connection dropping while she is away does not bring her back
	// (B stops as A did, still offering Come back); coming back in A
	// has B connect again.
	leave()
	b.do(chromedp.Evaluate[chromedp.Void](`window.__ws.drop()`)) // a network blip, say
	b.until(`window.__ws.socks.every((s) => s.readyState === WebSocket.CLOSED)`)
	if c, retry := eval[string](b, conn), eval[string](b, `document.body.dataset.retryMs ?? "none"`); c != left || retry != "none" {
		t.Errorf("B, its connection dropped while Ann was away, says %q and plans to reconnect in %s ms; want %q, no reconnecting", c, retry, left)
	}
	seat("once B's connection dropped", true, false)
	a.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(a)
}

// sameBrowserTab opens another window of p's browser context at the
// size of the others (390x844): the same cookies, so the same person,
// with the hooks installed.
func sameBrowserTab(t *testing.T, p *seatTab, name string) *seatTab {
	t.Helper()
	return seatTabIn(t, webtest.OpenTab(t, p.ctx, 390, 844), name)
}

// The connection line of a page whose person left, with its button.
const (
	connLine  = `document.getElementById("conn").textContent`
	leftWords = "you left this table: a bot plays your seat Come back"
)

// twoWindows seats Ann through a at table id, opens her seat in a second
// window of the same browser, and starts the game (Bob joins through the
// API); it returns the second window.
func twoWindows(t *testing.T, e *env, a *seatTab, id string) *seatTab {
	t.Helper()
	a.open(e.srv.URL, id)
	a.join("Ann")
	a.until(`!document.getElementById("seated").hidden`)
	b := sameBrowserTab(t, a, "Ann-B")
	b.open(e.srv.URL, id)
	b.until(`window.__ws.seat === 0`)
	e.client().join(id, "Bob") // the game starts
	return b
}

// leaveInA presses Leave in a once the game started: both windows say
// Ann left, and so does the table.
func leaveInA(t *testing.T, e *env, a, b *seatTab, id string) {
	t.Helper()
	a.until(`window.__ws.count >= 0`)
	a.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
	a.until(connLine + ` === ` + q(leftWords))
	b.until(connLine + ` === ` + q(leftWords))
	annSeat(t, e, id, "once she left in A", true)
}

// leftInPlay seats Ann through p at table id, starts the game (Bob
// joins through the API) and presses Leave in p: p stops, her seat away.
func leftInPlay(t *testing.T, e *env, p *seatTab, id string) {
	t.Helper()
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`!document.getElementById("seated").hidden`)
	e.client().join(id, "Bob") // the game starts
	p.until(`window.__ws.count >= 0`)
	// The click that landed as the game started (the button is hidden
	// once the page draws the started game).
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
	p.until(connLine + ` === ` + q(leftWords))
}

// annSeat fails the test unless Ann's seat (0) at table id is away or not.
func annSeat(t *testing.T, e *env, id, what string, away bool) {
	t.Helper()
	var sum table.Summary
	e.client().do("GET", "/api/arlington/tables/"+id, nil, &sum)
	if s := sum.Seats[0]; s.Away != away {
		t.Fatalf("Ann's seat %s: %+v; want away %v", what, s, away)
	}
}

// TestBrowserArlingtonComeBackOneTable: Ann left two tables, T1 and T2,
// in one browser, a window stopped at each. Coming back at T1 brings her
// back there only: T2's window stays stopped, offering Come back, and
// her seat at T2 stays away. The word that she is back is the table's.
// The pages had a channel per table before the word was sent at every
// return too, so this passes without it: it guards that a word sent more
// often still reaches only its table's windows.
func TestBrowserArlingtonComeBackOneTable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	t1, t2 := e.client().create("", ""), e.client().create("", "")
	bctx := startBrowser(t)
	at2 := seatTabIn(t, bctx, "Ann-T2")
	leftInPlay(t, e, at2, t2)
	at1 := sameBrowserTab(t, at2, "Ann-T1")
	// The channels T1's page opens, for the test to post a mark on its
	// return channel after the page's own word: both go out from one
	// channel object, in that order.
	at1.beforeLoad(`(() => {
	  const BC = window.BroadcastChannel;
	  window.__bc = [];
	  window.BroadcastChannel = class extends BC { constructor(n) { super(n); window.__bc.push(this); } };
	})()`)
	leftInPlay(t, e, at1, t1)
	// A listener in T2's window on the channel T1's page tells on: once
	// it heard the mark posted after Ann came back at T1, T2's page
	// would have heard her return, were it told on that channel.
	name := eval[string](at1, `window.__bc.find((c) => c.name.startsWith("arlington-back-")).name`)
	at2.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
	  window.__mark = false;
	  new BroadcastChannel(%s).onmessage = (ev) => { if (ev.data && ev.data.mark) window.__mark = true; };
	})()`, q(name))))
	socks := eval[int](at2, `window.__ws.socks.length`)
	at1.do(chromedp.Click(chromedp.CSS("#come-back")))
	at1.until(connLine + ` === "connected" && window.__ws.seat === 0 && !window.__ws.seats[0].away`)
	annSeat(t, e, t1, "at T1 once she came back there", false)
	at1.do(chromedp.Evaluate[chromedp.Void](`window.__bc.find((c) => c.name.startsWith("arlington-back-")).postMessage({ mark: true })`))
	at2.until(`window.__mark`)
	if c, n := eval[string](at2, connLine), eval[int](at2, `window.__ws.socks.length`); c != leftWords || n != socks {
		t.Errorf("Ann came back at T1: T2's window says %q and opened %d connections; want %q, none", c, n-socks, leftWords)
	}
	// Nor was it told (it would ask its table whether she is back).
	if w := eval[string](at2, `document.body.dataset.backWord ?? "none"`); w != "none" {
		t.Errorf("Ann came back at T1: T2's window was told so (its word: %q)", w)
	}
	annSeat(t, e, t2, "at T2 once she came back at T1", true)
}

// TestBrowserArlingtonBackByReloadTellsStopped: Ann left in window A;
// window B, still connected, watches her seat away. Reloading B brings
// her back, and A, stopped by the Leave, connects again: the return is
// told to A whichever way it came, not only by a Come back press. A word
// of her return that the table does not bear out (one from a view older
// than her Leave) leaves her away: A connects asking to keep her so, and
// watches her seat, offering Come back.
func TestBrowserArlingtonBackByReloadTellsStopped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	bctx := startBrowser(t)
	a := seatTabIn(t, bctx, "Ann-A")
	b := twoWindows(t, e, a, id)
	leaveInA(t, e, a, b, id)

	// A stale word: A connects keeping her away, and the table does.
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`new BroadcastChannel(%s).postMessage({ back: 0 })`, q("arlington-back-"+id))))
	a.until(`document.body.dataset.backWord === "not back"`)
	if c := eval[string](a, connLine); c != leftWords {
		t.Errorf("a word of her return while she is away: A says %q; want %q", c, leftWords)
	}
	annSeat(t, e, id, "after the stale word", true)

	// Reloading B brings her back; A follows.
	b.do(chromedp.Reload())
	b.until(`window.__ws && window.__ws.seat === 0 && !window.__ws.seats[0].away && ` + connLine + ` === "connected"`)
	a.until(connLine + ` === "connected" && window.__ws.seat === 0 && !window.__ws.seats[0].away`)
	if n := a.count("#come-back"); n != 0 {
		t.Errorf("Ann came back by reloading B: A still offers Come back")
	}
	annSeat(t, e, id, "once B reloaded", false)
}

// TestBrowserArlingtonAwayAtEnd: Ann, alone with a bot at a game to 1
// point, leaves it through the API while her page stays connected. The
// page says she left, a bot playing her seat; once the page shows the
// game over it no longer speaks of a bot playing (none does) but of the
// rematch, which holds no seat for a person who left, and still offers
// Come back, which clears the leave.
func TestBrowserArlingtonAwayAtEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	got, _, ann := openTable(t, e, "Ann", 1, "", "random")
	ann.join("Ann") // the game starts
	// The page's subscription after joining may land after the Leave: it
	// keeps her away (keepAway), so no reload is needed first.
	ann.until(`window.__ws.seat === 0 && !!document.querySelector("#hand button")`)
	if code := eval[int](ann, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("Ann leaving: status %d", code)
	}
	ann.until(`!document.getElementById("winners").hidden`)
	const over = "game over; you left this table, so a rematch holds no seat for you Come back"
	if c := eval[string](ann, connLine); c != over {
		t.Errorf("the game over, Ann away: the connection line says %q; want %q", c, over)
	}
	annSeat(t, e, got.ID, "at the end, away", true)
	ann.do(chromedp.Click(chromedp.CSS("#come-back")))
	ann.until(connLine + ` === "connected" && !window.__ws.seats[0].away`)
	annSeat(t, e, got.ID, "once she came back after the end", false)
}
