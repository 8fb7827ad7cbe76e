package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// The table page draws the players, the trick, the hand and the actions
// only as far as a view changed them: a view that changes nothing there
// (another player's chat line, a reconnect) keeps every element, and the
// keyboard's focus stays on the very card or action it was on. They were
// all drawn anew at every view (about 130 elements a reconnect), and the
// focus was put back on a copy of the control, which a screen reader
// announced again.

// kept marks every element of the players, the trick, the last trick and
// the hand box (for stillKept), and the focused one.
const kept = `document.querySelectorAll("#players *, #play *, #last *, #hand-box *").forEach((e) => { e.__kept = true; })`

// stillKept counts the elements of the players, the trick, the last
// trick and the hand box made since kept, and says whether the focus is on the element it
// was on then.
const stillKept = `(() => {
  const made = [...document.querySelectorAll("#players *, #play *, #last *, #hand-box *")].filter((e) => !e.__kept).length;
  return { made, focusKept: document.activeElement.__kept === true, focus: document.activeElement.outerHTML.slice(0, 80) };
})()`

type keptState struct {
	Made      int
	FocusKept bool
	Focus     string
}

// TestBrowserArlingtonRedrawKeepsFocus: Ann (the page) and Bob (a
// WebSocket) play; on Ann's turn her focus is on a card, then on an
// action. Bob's chat line and a reconnect of Ann's page change nothing
// she sees there: no element of the players, the trick, the hand or the
// actions is made, and the focus stays on the element it was on. Then
// Bob plays, Ann's hand unchanged by it: her focused card is the same
// element. The elements the page made handling each view are logged
// (walkHooks).
func TestBrowserArlingtonRedrawKeepsFocus(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000})
	c := e.client()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Target: longGame, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.beforeLoad(walkHooks)
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	p.until(`window.__ws.seat >= 0`)
	ann := eval[int](p, `window.__ws.seat`)
	bob := e.client()
	bob.join(got.ID, "Bob")
	w := bob.dial(got.ID, -1)
	// bobPlays plays Bob's first legal action at each of his turns from
	// event count from on, until it is Ann's turn (once: after one
	// action): the count it stops at.
	bobPlays := func(from int, once bool) int {
		t.Helper()
		m := w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil && m.View.EventCount >= from })
		for {
			for m.View.ToMove >= 0 && m.View.ToMove != ann && len(m.Legal) == 0 {
				m = w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil })
			}
			if m.View.ToMove < 0 {
				t.Fatal("the game ended")
			}
			if m.View.ToMove == ann {
				return m.View.EventCount
			}
			at := m.View.EventCount
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
			for m.View.EventCount <= at {
				m = w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil })
			}
			if once {
				return m.View.EventCount
			}
		}
	}
	count := bobPlays(0, false)
	enabled := `!!document.querySelector(` + q(selLegal+":not(:disabled)") + `)`
	p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s`, count, shownAll, enabled))

	// check puts the focus (focus), marks what the page shows, runs run
	// and, once done holds, checks that nothing there was made anew and
	// the focus stayed.
	check := func(what, focus string, run func(), done string) {
		t.Helper()
		p.do(chromedp.Evaluate[chromedp.Void](focus + `; ` + kept + `; window.__walk.made = 0; window.__walk.views = 0`))
		run()
		p.until(done)
		st := eval[keptState](p, stillKept)
		made := eval[walked](p, `window.__walk`)
		t.Logf("%s: %d elements made handling %d messages; %d of the players, trick, last trick and hand box new", what, made.Made, made.Views, st.Made)
		if st.Made != 0 {
			t.Errorf("%s: %d elements of the players, the trick, the last trick, the hand or the actions drawn anew", what, st.Made)
		}
		if !st.FocusKept {
			t.Errorf("%s: the focus is on %s, not the element it was on", what, st.Focus)
		}
	}
	onCard := `document.querySelector("#hand button").focus()`
	onAction := `document.querySelector(` + q(selLegal) + `).focus()`

	chats := eval[int](p, `window.__ws.chat`)
	say := func(text string) func() { return func() { w.send(map[string]any{"type": "chat", "text": text}) } }
	check("Bob's chat line, the focus on a card", onCard, say("good luck"), fmt.Sprintf(`window.__ws.chat > %d && document.querySelectorAll("#chat li").length > 0`, chats))
	chats++
	check("Bob's chat line, the focus on an action", onAction, say("take your time"), fmt.Sprintf(`window.__ws.chat > %d`, chats))
	socks := eval[int](p, `window.__ws.socks.length`)
	check("a reconnect, the focus on an action", onAction, func() { p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.drop()`)) },
		fmt.Sprintf(`window.__ws.socks.length > %d && window.__ws.viewSock === window.__ws.socks.length - 1 && %s`, socks, enabled))

	// The last trick: Ann and Bob play until it is Ann's turn with a
	// trick taken and not yet led to (its cards held in the trick until
	// a click, then shown as the last trick); Bob's chat line then
	// leaves it as it is.
	lastShown := `document.querySelectorAll("#last *").length > 0`
	for i := 0; ; i++ {
		if i == 80 {
			t.Fatal("no trick taken with Ann to lead in 80 of her turns")
		}
		p.until(shownAll + ` && ` + enabled)
		p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("play").click()`))
		if eval[bool](p, lastShown) {
			break
		}
		for eval[int](p, `window.__ws.toMove`) == ann {
			p.until(shownAll + ` && ` + enabled)
			p.play()
		}
		n := bobPlays(eval[int](p, `window.__ws.count`), false)
		p.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, n, shownAll))
	}
	chats = eval[int](p, `window.__ws.chat`)
	check("Bob's chat line, the last trick shown", onCard, say("nice trick"), fmt.Sprintf(`window.__ws.chat > %d`, chats))

	// Ann plays; then, her focus on a card, Bob plays.
	for eval[int](p, `window.__ws.toMove`) == ann {
		p.until(shownAll + ` && ` + enabled)
		p.play()
	}
	p.until(shownAll)
	at := eval[int](p, `window.__ws.count`)
	p.do(chromedp.Evaluate[chromedp.Void](onCard + `; document.activeElement.__mine = true; window.__walk.made = 0; window.__walk.views = 0`))
	card := eval[string](p, `document.activeElement.dataset.key`)
	after := bobPlays(at, true)
	p.until(fmt.Sprintf(`window.__ws.count >= %d && window.__ws.count > %d && %s`, after, at, shownAll))
	made := eval[walked](p, `window.__walk`)
	t.Logf("Bob's move: %d elements made handling %d messages", made.Made, made.Views)
	if still := eval[bool](p, fmt.Sprintf(`!!document.querySelector('#hand button[data-key="%s"]')`, card)); still {
		if !eval[bool](p, `document.activeElement.__mine === true`) {
			t.Errorf("after Bob's move the focus is on %s, not the card %s it was on", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`), card)
		}
	}
}

// TestBrowserArlingtonTurnKeepsFocus: Ann's focus is on a card of her
// hand when her window passes 600 px (a phone turned): the cards are
// drawn anew in their other look, and the focus is on that card's new
// button. The hand was emptied before its redraw noted the focus, which
// fell to the page's <body>.
func TestBrowserArlingtonTurnKeepsFocus(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`document.querySelectorAll("#hand button").length > 1`)
	// The page's own listener was added first, so it has run when this
	// one counts a change.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__turned = 0; window.matchMedia("(max-width: 600px)").addEventListener("change", () => { window.__turned++; })`))
	p.do(chromedp.EmulateViewport(1000, 800))
	p.until(`window.__turned === 1`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#hand button")[1].focus()`))
	key := eval[string](p, `document.activeElement.dataset.key || ""`)
	if key == "" {
		t.Fatalf("no card focused: %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	p.do(chromedp.EmulateViewport(500, 800))
	p.until(`window.__turned === 2`)
	if got := eval[string](p, `document.activeElement.dataset.key || document.activeElement.tagName`); got != key {
		t.Errorf("after the window passed 600 px the focus is on %q, not the card %q it was on", got, key)
	}
}
