package arlweb

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonComeBackInOtherWindow: Ann has the table open in
// two windows, A and B, and leaves the game in play in A. B, which goes
// on showing the stand-in's play, says she left and offers the same
// "Come back" as A; pressing it there brings her back, and both windows
// show her seat hers again (A, stopped by its Leave, connects again).
// Before, B showed her seat away with no way back but a reload. The
// quick part of TestLongBrowserArlingtonComeBackInOtherWindow.
func TestBrowserArlingtonComeBackInOtherWindow(t *testing.T) {
	comeBackInOtherWindow(t, false)
}

// TestLongBrowserArlingtonComeBackInOtherWindow: as the short test, with
// Cy watching (never offered Come back), then the other way round:
// coming back in A brings B back too, and B stopped by a dropped
// connection while she was away (it does not reconnect by itself)
// connects again.
func TestLongBrowserArlingtonComeBackInOtherWindow(t *testing.T) {
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
	a.open(e.srv.URL, id)
	a.join("Ann")
	a.until(`!document.getElementById("seated").hidden`)
	b := sameBrowserTab(t, a, "Ann-B")
	b.open(e.srv.URL, id)
	b.until(`window.__ws.seat === 0`)
	e.client().join(id, "Bob") // the game starts
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
	// leaveInA presses Leave in A (the click that landed as the game
	// started: the button is hidden once the page draws it started).
	leaveInA := func() {
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

	leaveInA()
	b.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(b)

	if !long {
		return
	}
	leaveInA()
	a.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(a)

	// B's connection dropping while she is away does not bring her back
	// (B stops as A did, still offering Come back); coming back in A
	// has B connect again.
	leaveInA()
	b.do(chromedp.Evaluate[chromedp.Void](`window.__ws.drop()`)) // a network blip, say
	b.until(`window.__ws.socks.every((s) => s.readyState === WebSocket.CLOSED)`)
	if c, retry := eval[string](b, conn), eval[string](b, `document.body.dataset.retryMs ?? "none"`); c != left || retry != "none" {
		t.Errorf("B, its connection dropped while Ann was away, says %q and plans to reconnect in %s ms; want %q, no reconnecting", c, retry, left)
	}
	seat("once B's connection dropped", true, false)
	a.do(chromedp.Click(chromedp.CSS("#come-back")))
	backIn(a)
}

// sameBrowserTab opens another window of p's browser context: the same
// cookies, so the same person, with the hooks installed.
func sameBrowserTab(t *testing.T, p *seatTab, name string) *seatTab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(hooks, selLegal)})
		return err
	}), reducedMotion()); err != nil {
		t.Fatalf("%s: opening a window: %v", name, err)
	}
	return asSeatTab(t, ctx, name)
}
