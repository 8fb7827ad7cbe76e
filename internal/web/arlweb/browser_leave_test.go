package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonLeaveBeforeStart (long: a browser, several seconds under
// -race; make test-long runs it): before the game starts a person
// can give up their seat from the table page; the seat opens for someone
// else and the page offers the join form again. Before, the page had no
// way to leave (only the API did): someone who sat at the wrong table
// held a seat the game could not start without.
func TestLongBrowserArlingtonLeaveBeforeStart(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "", "random")
	bctx := startBrowser(t)
	ann := seatTabIn(t, bctx, "Ann")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	ann.until(`!document.getElementById("seated").hidden`)
	ann.shot("arlington-seated-390")
	ann.do(chromedp.Click(chromedp.CSS(`#leave`)))
	ann.until(`window.__ws.seat === -1 && !document.querySelector(` + q(selJoin) + `).hidden && document.getElementById("seated").hidden`)
	// Both seats for people are open again: two others fill the table.
	for i, name := range []string{"Bob", "Cleo"} {
		if seat := e.client().join(id, name); seat != i {
			t.Errorf("%s joins seat %d, want %d", name, seat, i)
		}
	}
	// The game has started: Ann watches, and may no longer leave or join.
	ann.until(`window.__ws.count >= 0`)
	if eval[bool](ann, `!document.getElementById("seated").hidden || !document.querySelector(`+q(selJoin)+`).hidden`) {
		t.Error("a spectator of a started game is offered to leave or take a seat")
	}
}
