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
// all drawn anew at every view (some 60 to 75 elements at two seats:
// document.createElement calls, the cards' SVG pictures not counted), and
// the focus was put back on a copy of the control, which a screen reader
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

// redrawRig is Ann's table page and Bob's WebSocket at one table, for
// the redraw tests.
type redrawRig struct {
	t       *testing.T
	p       *seatTab
	w       *wsClient
	ann     int
	enabled string // a JS test: an action of Ann's can be pressed
	// trick is the cards in the trick in play when bobPlays stopped.
	trick int
}

// bobPlays plays Bob's first legal action at each of his turns from
// event count from on, until it is Ann's turn (once: after one action):
// the count it stops at.
func (r *redrawRig) bobPlays(from int, once bool) int {
	r.t.Helper()
	m := r.w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil && m.View.EventCount >= from })
	for {
		for m.View.ToMove >= 0 && m.View.ToMove != r.ann && len(m.Legal) == 0 {
			m = r.w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil })
		}
		if m.View.ToMove < 0 {
			r.t.Fatal("the game ended")
		}
		if m.View.ToMove == r.ann {
			r.trick = len(m.View.Trick)
			return m.View.EventCount
		}
		at := m.View.EventCount
		r.w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		for m.View.EventCount <= at {
			m = r.w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil })
		}
		if once {
			r.trick = len(m.View.Trick)
			return m.View.EventCount
		}
	}
}

// say is Bob's chat line text.
func (r *redrawRig) say(text string) func() {
	return func() { r.w.send(map[string]any{"type": "chat", "text": text}) }
}

// check puts the focus (focus), marks what the page shows, runs run
// and, once done holds, checks that nothing there was made anew and
// the focus stayed.
func (r *redrawRig) check(what, focus string, run func(), done string) {
	r.t.Helper()
	p := r.p
	p.do(chromedp.Evaluate[chromedp.Void](focus + `; ` + kept + `; window.__walk.made = 0; window.__walk.views = 0`))
	run()
	p.until(done)
	st := eval[keptState](p, stillKept)
	made := eval[walked](p, `window.__walk`)
	r.t.Logf("%s: %d elements made handling %d messages; %d of the players, trick, last trick and hand box new", what, made.Made, made.Views, st.Made)
	if st.Made != 0 {
		r.t.Errorf("%s: %d elements of the players, the trick, the last trick, the hand or the actions drawn anew", what, st.Made)
	}
	if !st.FocusKept {
		r.t.Errorf("%s: the focus is on %s, not the element it was on", what, st.Focus)
	}
}

// annPlays plays Ann's turn out on her page.
func (r *redrawRig) annPlays() {
	for eval[int](r.p, `window.__ws.toMove`) == r.ann {
		r.p.until(shownAll + ` && ` + r.enabled)
		r.p.play()
	}
}

// onCard puts the focus on the first card of Ann's hand.
const onCard = `document.querySelector("#hand button").focus()`

// TestBrowserArlingtonRedrawKeepsFocus: Ann (the page) and Bob (a
// WebSocket) play; on a turn of Ann's answering Bob's lead (his card in
// the trick) her focus is on a card, then on an action. Bob's chat line and a reconnect of Ann's page change nothing
// she sees there: no element of the players, the trick, the hand or the
// actions is made, and the focus stays on the element it was on. So too
// with the last trick shown (checkLastTrickKept). Then Bob plays, Ann's
// hand unchanged by it: her focused card is the same element. The
// elements the page made handling each view are logged (walkHooks).
func TestBrowserArlingtonRedrawKeepsFocus(t *testing.T) {
	t.Parallel()
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
	bob := e.client()
	bob.join(got.ID, "Bob")
	r := &redrawRig{t: t, p: p, w: bob.dial(got.ID, -1), ann: eval[int](p, `window.__ws.seat`),
		enabled: `!!document.querySelector(` + q(selLegal+":not(:disabled)") + `)`}
	// Ann's turn answering Bob's lead: the trick shows his card, so the
	// checks below see the trick kept (led by Ann, it is empty).
	count := r.bobPlays(0, false)
	for i := 0; r.trick == 0; i++ {
		if i == 80 {
			t.Fatal("Ann answered no lead of Bob's in 80 of her turns")
		}
		p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s`, count, shownAll, r.enabled))
		r.annPlays()
		count = r.bobPlays(eval[int](p, `window.__ws.count`), false)
	}
	p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s`, count, shownAll, r.enabled))
	if n := p.count("#play *"); n == 0 {
		t.Fatalf("Ann answers Bob's lead (%d cards in the trick) and the page's trick shows nothing", r.trick)
	}
	onAction := `document.querySelector(` + q(selLegal) + `).focus()`

	chats := eval[int](p, `window.__ws.chat`)
	r.check("Bob's chat line, the focus on a card", onCard, r.say("good luck"), fmt.Sprintf(`window.__ws.chat > %d && document.querySelectorAll("#chat li").length > 0`, chats))
	chats++
	r.check("Bob's chat line, the focus on an action", onAction, r.say("take your time"), fmt.Sprintf(`window.__ws.chat > %d`, chats))
	socks := eval[int](p, `window.__ws.socks.length`)
	r.check("a reconnect, the focus on an action", onAction, func() { p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.drop()`)) },
		fmt.Sprintf(`window.__ws.socks.length > %d && window.__ws.viewSock === window.__ws.socks.length - 1 && %s`, socks, r.enabled))

	checkLastTrickKept(r)

	// Ann plays; then, her focus on a card, Bob plays.
	r.annPlays()
	p.until(shownAll)
	at := eval[int](p, `window.__ws.count`)
	p.do(chromedp.Evaluate[chromedp.Void](onCard + `; document.activeElement.__mine = true; window.__walk.made = 0; window.__walk.views = 0`))
	card := eval[string](p, `document.activeElement.dataset.key`)
	after := r.bobPlays(at, true)
	p.until(fmt.Sprintf(`window.__ws.count >= %d && window.__ws.count > %d && %s`, after, at, shownAll))
	made := eval[walked](p, `window.__walk`)
	t.Logf("Bob's move: %d elements made handling %d messages", made.Made, made.Views)
	if !eval[bool](p, fmt.Sprintf(`!!document.querySelector('#hand button[data-key="%s"]')`, card)) {
		t.Fatalf("after Bob's move the card %s Ann's focus was on is no longer in her hand: nothing left to check", card)
	}
	if !eval[bool](p, `document.activeElement.__mine === true`) {
		t.Errorf("after Bob's move the focus is on %s, not the card %s it was on", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`), card)
	}
}

// checkLastTrickKept: Ann and Bob play until it is Ann's turn with a
// trick taken and not yet led to (its cards held in the trick until a
// click, then shown as the last trick); Bob's chat line then leaves it,
// and Ann's focused card, as they are.
func checkLastTrickKept(r *redrawRig) {
	r.t.Helper()
	p := r.p
	lastShown := `document.querySelectorAll("#last *").length > 0`
	for i := 0; ; i++ {
		if i == 80 {
			r.t.Fatal("no trick taken with Ann to lead in 80 of her turns")
		}
		p.until(shownAll + ` && ` + r.enabled)
		p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("play").click()`))
		if eval[bool](p, lastShown) {
			break
		}
		r.annPlays()
		n := r.bobPlays(eval[int](p, `window.__ws.count`), false)
		p.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, n, shownAll))
	}
	chats := eval[int](p, `window.__ws.chat`)
	r.check("Bob's chat line, the last trick shown", onCard, r.say("nice trick"), fmt.Sprintf(`window.__ws.chat > %d`, chats))
}

// TestBrowserArlingtonTurnKeepsFocus: Ann's focus is on a card of her
// hand when her window passes 600 px (a phone turned): the cards are
// drawn anew in their other look, and the focus is on that card's new
// button. The hand was emptied before its redraw noted the focus, which
// fell to the page's <body>.
func TestBrowserArlingtonTurnKeepsFocus(t *testing.T) {
	t.Parallel()
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
