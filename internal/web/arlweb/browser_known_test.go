package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// knownWraps (TestBrowserArlingtonSixOnPhone): on a 390 px phone at six seats, the row
// of a seat's cards that everyone knows (taken from tricks) wraps within
// the seat's box: a long row ran past the window's right edge, and the
// page scrolled sideways. A game reaches such a row in about one deal
// in 40, so the page's own renderPlayers draws the seats again from the
// table's last view with a long known row (twelve cards, the person's
// own repeated) for the seat after theirs; the layout measured is the
// page's.
func knownWraps(t *testing.T, p *seatTab) {
	p.until(`document.querySelectorAll("#players .player").length === 6 && document.querySelector("#hand .hand-card")`)
	type width struct {
		Page, Row, Box, Window float64
		Cards                  int
	}
	w := eval[width](p, `import("/arlington/render.js").then(({ renderPlayers }) => {
	  const ws = window.__ws;
	  const hand = [...document.querySelectorAll("#hand .hand-card")].map((b) => b.dataset.card);
	  const long = Array.from({ length: 12 }, (_, i) => hand[i % hand.length]);
	  const n = ws.seats.length;
	  const view = { toMove: -1, dealer: 0, lead: 0, phase: "lead", target: 100,
	    handSizes: Array(n).fill(long.length), totals: Array(n).fill(0), tables: Array.from({ length: n }, () => []),
	    known: Array.from({ length: n }, (_, i) => i === 1 ? long : []) };
	  const names = [...document.querySelectorAll("#players .p-name")].map((e) => e.textContent);
	  const box = document.getElementById("players");
	  renderPlayers(box, { seat: 0, seats: ws.seats, view }, names, null);
	  const row = box.querySelector(".player[data-seat='1'] .set.known");
	  return { page: document.documentElement.scrollWidth, row: row.getBoundingClientRect().right,
	    box: row.closest(".player").getBoundingClientRect().right, window: innerWidth, cards: long.length };
	})`, chromedp.EvalAwaitPromise)
	t.Logf("%+v", w)
	if w.Row > w.Box+0.5 {
		t.Errorf("at 390 px, six seats, a known row of %d cards ends at %.0f px, past its seat's box (%.0f px)", w.Cards, w.Row, w.Box)
	}
	if w.Page > w.Window {
		t.Errorf("at 390 px, six seats, with a known row of %d cards the page is %.0f px wide: it scrolls sideways", w.Cards, w.Page)
	}
}
