package arlweb

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonLeaveInPlay: in a game in play Ann's page offers
// "Leave the game"; pressed, the table marks her seat away (its stand-in
// plays it) and the page says so with Come back, which brings her back
// and the button with her. The page offered no way to leave once the
// game had started: closing it left the others waiting out her turns.
func TestBrowserArlingtonLeaveInPlay(t *testing.T) {
	t.Parallel()
	_, c, id, p := leaveGameTable(t, longGame)
	if eval[bool](p, leaveShown) {
		t.Errorf("a visitor is offered Leave the game")
	}
	p.join("Ann")
	p.until(`window.__ws.toMove >= 0 && ` + leaveShown)
	seat := eval[int](p, `window.__ws.seat`)
	p.do(chromedp.Click(chromedp.CSS("#leave-game")))
	p.until(`document.getElementById("conn").textContent.startsWith("you left this table: a bot plays your seat") && !!document.getElementById("come-back")`)
	if eval[bool](p, leaveShown) {
		t.Errorf("Leave the game is still offered once Ann left")
	}
	var sum table.Summary
	if code := c.do("GET", "/api/arlington/tables/"+id, nil, &sum); code != http.StatusOK {
		t.Fatalf("summary: %d", code)
	}
	if !sum.Seats[seat].Away {
		t.Errorf("after Leave the game, Ann's seat is not away: %+v", sum.Seats[seat])
	}
	p.do(chromedp.Click(chromedp.CSS("#come-back")))
	p.until(`document.getElementById("conn").textContent === "connected" && ` + leaveShown)
}

// TestBrowserArlingtonLeaveFails: Ann presses Leave the game and the
// server cannot be reached: the page says so and offers Leave the game
// again (the button stayed hidden, and with it the only way to leave).
func TestBrowserArlingtonLeaveFails(t *testing.T) {
	t.Parallel()
	_, _, _, p := leaveGameTable(t, longGame)
	p.join("Ann")
	p.until(`window.__ws.toMove >= 0 && ` + leaveShown)
	// The Leave request fails as a network failure does.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const f = window.fetch;
	  window.fetch = (url, ...a) => String(url).endsWith("/leave") ? Promise.reject(new TypeError("Failed to fetch")) : f(url, ...a);
	})()`))
	p.do(chromedp.Click(chromedp.CSS("#leave-game")))
	p.until(`document.getElementById("error").textContent.includes("cannot be reached")`)
	p.until(leaveShown)
	if eval[bool](p, `!!document.getElementById("come-back")`) {
		t.Errorf("the page offers Come back though Ann did not leave")
	}
}

// TestBrowserArlingtonLeaveFailsGameOver: Ann presses Leave the game,
// the game ends while the request is on its way, and the request then
// fails: the page says so but offers no Leave the game, since a game
// over has nothing to leave. The page put the button back as it was
// when pressed, beside the game's result.
func TestBrowserArlingtonLeaveFailsGameOver(t *testing.T) {
	t.Parallel()
	e, _, id, p := leaveGameTable(t, 1)
	p.join("Ann")
	p.until(`window.__ws.toMove >= 0 && ` + leaveShown)
	// The Leave request is held until the test fails it.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const f = window.fetch;
	  window.fetch = (url, ...a) => String(url).endsWith("/leave") ? new Promise((_, fail) => { window.__failLeave = () => fail(new TypeError("Failed to fetch")); }) : f(url, ...a);
	})()`))
	p.do(chromedp.Click(chromedp.CSS("#leave-game")))
	p.until(`!!window.__failLeave`)
	playOutHere(t, e, id)
	p.until(`window.__ws.toMove < 0 && ` + shownAll + ` && !!document.getElementById("btn-replay")`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__failLeave()`))
	p.until(`document.getElementById("error").textContent.includes("cannot be reached")`)
	if eval[bool](p, leaveShown) {
		t.Errorf("after a failed Leave, the page offers Leave the game on a game over")
	}
}

// leaveShown: the page offers Leave the game, and it can be seen.
const leaveShown = `(!document.getElementById("leave-game-box").hidden && document.getElementById("leave-game").offsetParent !== null)`

// leaveGameTable opens a table of Ann and a random bot to target, with
// no turn timer, and Ann's page on it as a visitor.
func leaveGameTable(tb testing.TB, target int) (*env, *client, string, *seatTab) {
	tb.Helper()
	e := newEnv(tb, Limits{})
	c := e.client()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: target, TurnSeconds: -1}, &got); code != http.StatusCreated {
		tb.Fatalf("create: %d", code)
	}
	p := seatTabIn(tb, startBrowser(tb), "Ann")
	p.open(e.srv.URL, got.ID)
	return e, c, got.ID, p
}
