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
	e := newEnv(t, Limits{})
	c := e.client()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: longGame, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	shown := `(!document.getElementById("leave-game-box").hidden && document.getElementById("leave-game").offsetParent !== null)`
	if eval[bool](p, shown) {
		t.Errorf("a visitor is offered Leave the game")
	}
	p.join("Ann")
	p.until(`window.__ws.toMove >= 0 && ` + shown)
	seat := eval[int](p, `window.__ws.seat`)
	p.do(chromedp.Click(chromedp.CSS("#leave-game")))
	p.until(`document.getElementById("conn").textContent.startsWith("you left this table: a bot plays your seat") && !!document.getElementById("come-back")`)
	if eval[bool](p, shown) {
		t.Errorf("Leave the game is still offered once Ann left")
	}
	var sum table.Summary
	if code := c.do("GET", "/api/arlington/tables/"+got.ID, nil, &sum); code != http.StatusOK {
		t.Fatalf("summary: %d", code)
	}
	if !sum.Seats[seat].Away {
		t.Errorf("after Leave the game, Ann's seat is not away: %+v", sum.Seats[seat])
	}
	p.do(chromedp.Click(chromedp.CSS("#come-back")))
	p.until(`document.getElementById("conn").textContent === "connected" && ` + shown)
}

// TestBrowserArlingtonLeaveFails: Ann presses Leave the game and the
// server cannot be reached: the page says so and offers Leave the game
// again (the button stayed hidden, and with it the only way to leave).
func TestBrowserArlingtonLeaveFails(t *testing.T) {
	e := newEnv(t, Limits{})
	c := e.client()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: longGame, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	shown := `(!document.getElementById("leave-game-box").hidden && document.getElementById("leave-game").offsetParent !== null)`
	p.join("Ann")
	p.until(`window.__ws.toMove >= 0 && ` + shown)
	// The Leave request fails as a network failure does.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const f = window.fetch;
	  window.fetch = (url, ...a) => String(url).endsWith("/leave") ? Promise.reject(new TypeError("Failed to fetch")) : f(url, ...a);
	})()`))
	p.do(chromedp.Click(chromedp.CSS("#leave-game")))
	p.until(`document.getElementById("error").textContent.includes("cannot be reached")`)
	p.until(shown)
	if eval[bool](p, `!!document.getElementById("come-back")`) {
		t.Errorf("the page offers Come back though Ann did not leave")
	}
}
