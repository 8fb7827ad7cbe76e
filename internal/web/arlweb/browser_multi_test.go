package arlweb

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// caughtUp says whether a page that had events up to had, and dropped its
// connection then, got what it missed on its return: a view carrying the
// events from had on (not a fresh start from 0).
func caughtUp(views [][2]int, had int) bool {
	for _, v := range views {
		if v[0] == had && v[1] > had {
			return true
		}
	}
	return false
}

// TestBrowserArlingtonPeopleAndSpectator: two people, each in a browser
// context of their own (their own identity), take the seats of a table
// through the page, and a third context watches. Each person sees a hand
// of their own and the spectator none, nor any action; only the person to
// move is offered actions; a reload keeps the seat and the hand; a move
// made through the page reaches everyone; a dropped connection catches up
// with what it missed. (A whole hand with bots: TestLongBrowserArlington.)
func TestBrowserArlingtonPeopleAndSpectator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	// Ann's is the tab startBrowser opened (a browser context of its
	// own): only Bob and the watcher need new ones.
	bctx := startBrowser(t)
	ann, bob, watcher := seatTabIn(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob"), newSeatTab(t, bctx, "watcher")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	bob.open(e.srv.URL, id)
	bob.join("Bob")
	watcher.open(e.srv.URL, id)
	people := []*seatTab{ann, bob}
	for _, p := range people {
		p.until(`document.querySelectorAll(` + q(selHandCards) + `).length > 0`)
	}
	ha, hb := ann.hand(), bob.hand()
	for _, c := range ha {
		if c != "JK" && slices.Contains(hb, c) { // two jokers in the deck; every other card once
			t.Fatalf("%s in both hands: Ann %v, Bob %v", c, ha, hb)
		}
	}
	watcher.until(`window.__ws.count >= 0`)
	if n, a := watcher.count(selHandCards), watcher.count(selActions); n != 0 || a != 0 {
		t.Errorf("the spectator is shown %d cards in hand and %d actions", n, a)
	}
	if !eval[bool](watcher, `document.querySelector(`+q(selJoin)+`).hidden`) {
		t.Error("the spectator is offered a seat at a full table")
	}
	mover := func() (*seatTab, *seatTab) {
		t.Helper()
		to := eval[int](ann, `window.__ws.toMove`)
		m, o := ann, bob
		if eval[int](bob, `window.__ws.seat`) == to {
			m, o = bob, ann
		}
		m.until(`document.querySelector(` + q(selLegal) + `)`)
		if n := o.count(selLegal); n != 0 {
			t.Fatalf("%s, not to move, is offered %d actions", o.name, n)
		}
		return m, o
	}
	m, o := mover()
	// The one not to move reloads: same seat, same hand.
	seat, hand := eval[int](o, `window.__ws.seat`), o.hand()
	o.do(chromedp.Reload())
	o.until(`window.__ws && window.__ws.count >= 0 && document.querySelectorAll(` + q(selHandCards) + `).length > 0`)
	if s, h := eval[int](o, `window.__ws.seat`), o.hand(); s != seat || !slices.Equal(h, hand) {
		t.Fatalf("%s after a reload: seat %d hand %v, before seat %d hand %v", o.name, s, h, seat, hand)
	}
	// A move through the page reaches everyone.
	n := m.events()
	m.play()
	for _, p := range []*seatTab{o, watcher} {
		p.until(fmt.Sprintf(`window.__ws.count > %d`, n))
	}
	if watcher.count(selLog) == 0 {
		t.Error("the spectator's log of plays is empty")
	}
	// The one not to move now loses the connection; the mover plays; the
	// dropped page comes back with what it missed.
	m, o = mover()
	o.offline(true)
	o.until(`window.__ws.socks.filter((s) => !s.url.endsWith("/ws-offline")).every((s) => s.readyState === WebSocket.CLOSED)`)
	had := o.events()
	m.play()
	if got := o.events(); got != had {
		t.Fatalf("%s offline received events up to %d", o.name, got)
	}
	now := m.events()
	o.offline(false)
	o.until(fmt.Sprintf(`window.__ws.count >= %d`, now))
	if v := o.views(); !caughtUp(v, had) {
		t.Errorf("%s back from event %d: views %v, none from %d on", o.name, had, v, had)
	}
	ann.shot("arlington-people-ann-390")
	watcher.shot("arlington-people-spectator-390")
}

// TestLongBrowserArlington: two people (each in a browser context of their
// own, clicking the first legal action the page offers whenever it is
// their turn) and two bots play a whole hand while a third context
// watches; in the middle of the hand one person reloads and the other
// loses the connection for a while (the turn timer lets a bot play for
// them), and both carry on in their seats to the score sheet.
func TestLongBrowserArlington(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	var got created
	cfg := table.Config{Players: 4, Bots: []string{"", "random", "", "random"}, TurnSeconds: 5}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	id := got.ID
	bctx := startBrowser(t)
	ann, bob, watcher := newSeatTab(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob"), newSeatTab(t, bctx, "watcher")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	bob.open(e.srv.URL, id)
	bob.join("Bob")
	watcher.open(e.srv.URL, id)
	ann.auto(true)
	bob.auto(true)
	watcher.until(`window.__ws.count >= 6`)
	// Mid-hand: the spectator sees the plays, no hand and no actions.
	if n, a, l := watcher.count(selHandCards), watcher.count(selActions), watcher.count(selLog); n != 0 || a != 0 || l == 0 {
		t.Errorf("the spectator: %d cards in hand, %d actions, %d plays in the log", n, a, l)
	}
	// Ann reloads: her seat is kept and she plays on.
	annSeat := eval[int](ann, `window.__ws.seat`)
	ann.do(chromedp.Reload())
	ann.until(`window.__ws && window.__ws.count >= 0`)
	if s := eval[int](ann, `window.__ws.seat`); s != annSeat {
		t.Fatalf("Ann after a reload: seat %d, was %d", s, annSeat)
	}
	// Bob loses his connection for a while; the table goes on without him
	// (the turn timer hands his turns to a bot) and he catches up.
	c := watcher.events()
	// What ended the wait is noted in the same script: the hand may end
	// a moment after the count is reached.
	watcher.until(fmt.Sprintf(`(() => { const w = window.__ws; if (w.count < %d && w.results === 0) return false; w.early = w.results > 0; return true; })()`, c+4))
	if eval[bool](watcher, `window.__ws.early`) {
		t.Fatal("the hand ended before the reconnect could be tried in its middle")
	}
	bobSeat := eval[int](bob, `window.__ws.seat`)
	bob.offline(true)
	bob.until(`window.__ws.socks.filter((s) => !s.url.endsWith("/ws-offline")).every((s) => s.readyState === WebSocket.CLOSED)`)
	had := bob.events()
	watcher.until(fmt.Sprintf(`window.__ws.count >= %d`, had+3))
	now := watcher.events()
	bob.offline(false)
	bob.until(fmt.Sprintf(`window.__ws.count >= %d`, now))
	if v := bob.views(); !caughtUp(v, had) {
		t.Errorf("Bob back from event %d: views %v, none from %d on", had, v, had)
	}
	// Back in his seat: not away, present.
	watcher.until(fmt.Sprintf(`window.__ws.seats[%d].present && !window.__ws.seats[%d].away`, bobSeat, bobSeat))
	// The hand is scored, and every page shows the score sheet.
	watcher.until(`window.__ws.results > 0`)
	ann.auto(false)
	bob.auto(false)
	for _, p := range []*seatTab{ann, bob, watcher} {
		p.until(`window.__ws.results > 0 && document.querySelectorAll(` + q(selScores) + `).length >= 5`)
	}
	if s := eval[int](ann, `window.__ws.seat`); s != annSeat {
		t.Errorf("Ann ends the hand in seat %d, joined in %d", s, annSeat)
	}
	ann.shot("arlington-hand-ann-390")
	bob.shot("arlington-hand-bob-390")
	watcher.shot("arlington-hand-spectator-390")
}
