package arlweb

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonLastTrickStale (long: a browser, several seconds
// under -race; make test-long runs it): the "last trick" line goes once
// the cards it says went to the taker's hand have left it, and at the
// game's end. It stayed, naming cards since laid in a set, and after the
// end named the last hand's cards long gone to the graveyard.
func TestLongBrowserArlingtonLastTrickStale(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "watcher")

	// The line as renderLast draws it from a view, mid-hand: Bob took a
	// trick (the 7H and 7C to his hand), then, with the lead, laid a set.
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	for _, c := range []struct {
		name, known, set string
		shown            bool
	}{
		{"both cards still held", `[[], ["7C", "7H"]]`, "set multiples 9D 9S", true},
		{"a card laid in a set", `[[], ["7C"]]`, "set multiples 7H 7S", false},
		{"both cards laid in a set", `[[], []]`, "set multiples 7H 7C", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := eval[string](p, `import("/arlington/render.js").then((m) => {
			  const box = document.createElement("div");
			  const v = { handNumber: 2, toMove: 0, phase: "round", trick: [], known: `+c.known+` };
			  const events = [
			    { n: 40, hand: 2, kind: "move", seat: 0, action: "lead KH" },
			    { n: 41, hand: 2, kind: "move", seat: 1, action: "play 7H" },
			    { n: 42, hand: 2, kind: "move", seat: 0, action: "play 7C" },
			    { n: 43, hand: 2, kind: "take", seat: 1, toHand: "7C 7H", toGrave: "KH" },
			    { n: 44, hand: 2, kind: "move", seat: 1, action: `+q(c.set)+` },
			  ];
			  m.renderLast(box, v, events, ["Ann", "Bob"]);
			  return box.textContent;
			})`, chromedp.EvalAwaitPromise)
			if shown := got != ""; shown != c.shown {
				t.Errorf("the last-trick line reads %q; want it shown: %v", got, c.shown)
			}
		})
	}

	// A whole game, watched to its end: no last-trick line after it.
	var made created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"random", "random"}, Target: 1}, &made); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p.open(e.srv.URL, made.ID)
	p.until(`window.__ws.count > 0 && window.__ws.toMove < 0 && document.getElementById("status").textContent.startsWith("Game over")`)
	if got := eval[string](p, `document.getElementById("last").textContent`); got != "" {
		t.Errorf("after the game's end the page still shows the last trick: %q", got)
	}
}
