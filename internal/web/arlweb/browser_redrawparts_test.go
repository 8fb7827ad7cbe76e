package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// The table page keeps, across a redraw, what did not change in the
// actions box and in a seat's box: a card selected (or the selection
// cleared) marks and reorders the actions and adds Clear selection, and
// a move changes a seat's count of cards and badges; the action buttons
// and the sets on the table stay the elements they were. Each was made
// anew whole, at every selection and at every move.

// redrawRigAt is Ann's page and Bob's WebSocket at a two-seat table with
// no turn timer, at Ann's turn, her actions enabled.
func redrawRigAt(t *testing.T) *redrawRig {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	var got created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: 2, Target: longGame, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	p.until(`window.__ws.seat >= 0`)
	bob := e.client()
	bob.join(got.ID, "Bob")
	r := &redrawRig{t: t, p: p, w: bob.dial(got.ID, -1), ann: eval[int](p, `window.__ws.seat`),
		enabled: `!!document.querySelector(` + q(selLegal+":not(:disabled)") + `)`}
	count := r.bobPlays(0, false)
	p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s`, count, shownAll, r.enabled))
	return r
}

// markActions marks the actions box's elements and focuses its first
// card to lead or play; keptActions says which of the lead and play
// buttons (groups that never fold) now shown were shown then too but
// made anew, and whether the focus is on the element it was on.
const markActions = `(() => {
  document.querySelectorAll("#actions *").forEach((e) => { e.__kept = true; });
  const b = document.querySelector('#actions [data-group=lead] button, #actions [data-group=play] button');
  b.focus();
  window.__before = new Set([...document.querySelectorAll("#actions button[data-action]")].map((x) => x.dataset.action));
  return b.dataset.action;
})()`

const keptActions = `(() => {
  const again = [...document.querySelectorAll('#actions [data-group=lead] button, #actions [data-group=play] button')].filter((x) => window.__before.has(x.dataset.action));
  return { remade: again.filter((x) => !x.__kept).map((x) => x.dataset.action), same: again.length,
    made: [...document.querySelectorAll("#actions *")].filter((x) => !x.__kept).length, focusKept: document.activeElement.__kept === true };
})()`

type actionsKept struct {
	Remade    []string
	Same      int
	Made      int
	FocusKept bool
}

// TestBrowserArlingtonActionsKept: at a turn of Ann's with two or more
// cards to lead or play, her focus on one, she selects a card of her
// hand, clears the selection, asks for a hint and sends an action (its
// answer held back, so the page waits for it): at each step the lead or
// play buttons shown before and after are the same elements, and the
// focus stays on the one it was on.
func TestBrowserArlingtonActionsKept(t *testing.T) {
	t.Parallel()
	r := redrawRigAt(t)
	p := r.p
	const cards = `document.querySelectorAll('#actions [data-group=lead] button, #actions [data-group=play] button').length`
	for i := 0; eval[int](p, cards) < 2; i++ {
		if i == 80 {
			t.Fatal("no turn of Ann's with two cards to lead or play in 80")
		}
		r.annPlays()
		p.until(shownAll + ` && ` + r.enabled)
	}
	for _, step := range []struct {
		what, do, done string
		least          int // the buttons shown before and after, at least (a selection shows one)
	}{
		{"a card selected", `document.querySelector("#hand button.legal").click()`, `!!document.getElementById("btn-clear")`, 1},
		{"the selection cleared", `document.getElementById("btn-clear").click()`, `!document.getElementById("btn-clear")`, 1},
		{"a hint", `document.getElementById("btn-hint").click()`, `!!document.querySelector("#actions button.hinted")`, 2},
		// The action goes nowhere (a send the page makes is dropped), so
		// the page shows it waiting for its answer.
		{"an action sent", `const w = window.__ws.socks[window.__ws.socks.length - 1], send = w.send.bind(w);
		  w.send = (m) => { if (!String(m).includes('"type":"action"')) send(m); };
		  document.querySelector('#actions [data-group=lead] button:not(:focus), #actions [data-group=play] button:not(:focus)').click()`,
			`!!document.querySelector("#actions [data-group=lead] button:disabled, #actions [data-group=play] button:disabled")`, 2},
	} {
		focused := eval[string](p, markActions)
		p.do(chromedp.Evaluate[chromedp.Void](step.do))
		p.until(step.done)
		got := eval[actionsKept](p, keptActions)
		t.Logf("%s: %d elements of the actions box made, %d lead or play buttons shown before and after", step.what, got.Made, got.Same)
		if got.Same < step.least {
			t.Fatalf("%s: %d lead or play buttons shown before and after, not %d: too few checked", step.what, got.Same, step.least)
		}
		if len(got.Remade) > 0 {
			t.Errorf("%s: the buttons %q were made anew", step.what, got.Remade)
		}
		if eval[bool](p, `!!document.querySelector('#actions button[data-action=`+q(focused)+`]')`) && !got.FocusKept {
			t.Errorf("%s: the focus is on %s, not the button %q it was on", step.what, eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`), focused)
		}
	}
}

// TestBrowserArlingtonSetsKept: Ann lays a set when she can; then, at a
// move of Bob's that lays no set, the sets on the table that did not
// change stay the same elements (their card pictures were made anew at
// every move), and so do the seats' boxes.
func TestBrowserArlingtonSetsKept(t *testing.T) {
	t.Parallel()
	r := redrawRigAt(t)
	p := r.p
	r.setDown()
	// Ann plays her turn out; Bob's next move, if it lays no set, is the
	// one looked at.
	for i := 0; ; i++ {
		if i == 80 {
			t.Fatal("Bob laid a set at each of 80 moves")
		}
		r.annPlays()
		p.until(shownAll)
		p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#players *").forEach((e) => { e.__kept = true; });
		  window.__sets = [...document.querySelectorAll("#players .sets")].map((e) => e.outerHTML);`))
		at := eval[int](p, `window.__ws.count`)
		after := r.bobPlays(at, true)
		p.until(fmt.Sprintf(`window.__ws.count >= %d && window.__ws.count > %d && %s`, after, at, shownAll))
		if eval[string](p, `document.querySelector("#log li:last-child").textContent`) == "" {
			t.Fatal("no line logged for Bob's move")
		}
		type setsKept struct{ Same, Remade, Boxes, Made int }
		got := eval[setsKept](p, `(() => {
		  const now = [...document.querySelectorAll("#players .sets")];
		  const same = now.filter((e, i) => e.querySelector(".set") && e.outerHTML === window.__sets[i]);
		  return { same: same.length, remade: same.filter((e) => !e.__kept).length,
		    boxes: [...document.querySelectorAll("#players > .player")].filter((e) => !e.__kept).length,
		    made: [...document.querySelectorAll("#players *")].filter((e) => !e.__kept).length };
		})()`)
		if got.Same == 0 {
			continue // Bob's move changed every set down: the next one
		}
		t.Logf("Bob's move: %d elements of the seats' boxes made; %d seats' sets down unchanged", got.Made, got.Same)
		if got.Remade > 0 {
			t.Errorf("Bob's move: %d of %d seats' unchanged sets drawn anew", got.Remade, got.Same)
		}
		if got.Boxes > 0 {
			t.Errorf("Bob's move: %d seats' boxes made anew", got.Boxes)
		}
		return
	}
}

// setDown plays Ann's turns, laying a set when she can, and Bob's, until
// a set is on the table; it returns at Ann's turn.
func (r *redrawRig) setDown() {
	r.t.Helper()
	p := r.p
	const sets = `document.querySelectorAll("#players .sets .set").length`
	for i := 0; eval[int](p, sets) == 0; i++ {
		if i == 80 {
			r.t.Fatal("no set laid in 80 of Ann's turns")
		}
		for eval[int](p, `window.__ws.toMove`) == r.ann {
			p.until(shownAll + ` && ` + r.enabled)
			n := p.events()
			p.do(chromedp.Evaluate[chromedp.Void](`(document.querySelector("#actions [data-group=set] button:not(:disabled)") || document.querySelector(` + q(selLegal) + `)).click()`))
			p.until(fmt.Sprintf(`window.__ws.count > %d`, n))
		}
		n := r.bobPlays(eval[int](p, `window.__ws.count`), false)
		p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s`, n, shownAll, r.enabled))
	}
}
