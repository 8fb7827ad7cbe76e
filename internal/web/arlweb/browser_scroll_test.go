package arlweb

import (
	"math"
	"net/http"
	"testing"

	"cardtable/arlington"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonSheetOnScreen: at 844×390 (a phone held sideways)
// the score sheet that opens at the page's top after a hand comes onto
// the screen as it opens, and the keyboard's focus stays with the hand
// and the actions; the player's next turn leaves it there, and closing
// it brings the turn onto the screen. The sheet opened above the
// window's top, where the player had to scroll up to find it. Dealt so
// that Ann leads the first hand (annLeadsSeed): the bot leads the
// second, so her turn there comes after the sheet opened, not with it.
func TestBrowserArlingtonSheetOnScreen(t *testing.T) {
	t.Parallel()
	p := seededAt(t, 844, 390, annLeadsSeed(t), "Ann", longGame, "", "random")
	// Where the sheet and the focus are as it opens (the observer runs
	// once the page has drawn the view that opened it, scrolling included).
	eval[bool](p, `(() => {
	  window.__sheet = null;
	  const box = document.getElementById("hand-over");
	  new MutationObserver(() => {
	    if (box.hidden || window.__sheet) return;
	    const bar = document.querySelector(".bar").getBoundingClientRect().bottom;
	    const span = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, bar, foot: innerHeight }; };
	    const f = document.activeElement;
	    window.__sheet = { title: span("#ho-title"), total: span("#ho-sheet tfoot .total"), scrolled: scrollY,
	      inHand: !!f && document.getElementById("hand-box").contains(f),
	      focus: f ? f.tagName + " " + (f.id || f.dataset.key || f.dataset.action || "") : "none" };
	  }).observe(box, { attributes: true, attributeFilter: ["hidden"] });
	  return true;
	})()`)
	// Ann plays as a keyboard player would (the focus on the action she
	// sends) until the first hand is scored.
	p.untilPlayed(`(() => {
	  if (window.__sheet) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) { first.focus(); first.click(); }
	  return false;
	})()`)
	type opened struct {
		Title, Total span
		Scrolled     float64
		InHand       bool
		Focus        string
	}
	o := eval[opened](p, `window.__sheet`)
	t.Logf("as the sheet opened: %+v", o)
	for what, s := range map[string]span{"its title": o.Title, "its totals": o.Total} {
		if !s.shown() {
			t.Errorf("at 844×390, as the score sheet opened, %s spanned %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)", what, s.Top, s.Bottom, s.Bar, s.Foot)
		}
	}
	if !o.InHand {
		t.Errorf("as the score sheet opened the focus was on %s, not on Ann's hand or actions", o.Focus)
	}
	// Ann's turn in the new hand, after the bot's lead, does not scroll
	// the sheet away; closing the sheet brings her turn onto the screen:
	// the lead she answers, her hand and her actions (where the sheet
	// left the page, her actions ran past the window's foot).
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)")`)
	if s := p.spanOf("#ho-title"); !s.shown() {
		t.Errorf("at 844×390, on Ann's turn after the sheet opened, its title spans %.0f to %.0f px: scrolled off the screen (the bar ends at %.0f, the window at %.0f)", s.Top, s.Bottom, s.Bar, s.Foot)
	}
	p.shot("sheet-opened-844x390")
	eval[bool](p, `(() => { document.getElementById("ho-close").click(); return true; })()`)
	for what, sel := range map[string]string{"the lead in play": "#play", "her hand and actions": "#hand-box"} {
		if s := p.spanOf(sel); !s.shown() {
			t.Errorf("at 844×390, once Ann closed the sheet on her turn, %s span %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)", what, s.Top, s.Bottom, s.Bar, s.Foot)
		}
	}
}

// TestBrowserArlingtonStandInNoJump: at 844×390, a player who scrolled up
// to the page's top stays there when a stand-in plays their turn (here
// because they left the table; a turn timer running out is the same
// move): the keyboard's focus, on an action that the move took away,
// goes to the hand without scrolling the page. The page jumped back down
// to the hand for a move the player did not make.
func TestBrowserArlingtonStandInNoJump(t *testing.T) {
	t.Parallel()
	p := seatedAt(t, 844, 390, "Ann", longGame, "", "random", "random", "random")
	// Ann plays her first action each turn until a turn comes where, the
	// page scrolled to its top, her hand reaches below the window's foot (a
	// trick or sets on the table above it). Then a keyboard player's focus
	// is on an action, and the page is at its top.
	p.untilPlayed(`(() => {
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (!first) return false;
	  scrollTo(0, 0);
	  if (document.querySelector("#hand button").getBoundingClientRect().bottom > innerHeight) {
	    first.focus({ preventScroll: true });
	    return true;
	  }
	  first.click();
	  return false;
	})()`)
	if y := eval[float64](p, `scrollY`); y != 0 {
		t.Fatalf("the page is at %.0f px, not at its top, before the stand-in plays", y)
	}
	// The page's scroll as each view is drawn (this listener runs after
	// the page's own, which draws a view as it comes at the instant
	// speed). In the first view drawn once the stand-in has played and
	// the turn has left Ann (her actions gone) with cards in her hand
	// (the stand-in may have played her last card: the focus comes back
	// to the hand at the deal): where the focus is. The reading goes on
	// until the turn has come back to Ann's seat and left it again (the
	// stand-in played a second turn of hers), so that a turn of hers
	// drawn while she is away is looked at too; then the page's
	// connection is dropped and held down: with Ann gone the bots play on
	// as fast as the server goes, and the page drew hundreds of views
	// while a test that looked every 50 ms waited for its turn. Turns,
	// not moves, are counted: the stand-in may make two moves in one turn
	// (sets laid before a lead).
	eval[bool](p, `(() => {
	  window.__scrolls = [];
	  let hers = true, turns = 0; // it is Ann's turn as she leaves
	  window.__ws.socks[window.__ws.viewSock].addEventListener("message", (ev) => {
	    if (window.__after) return;
	    const m = JSON.parse(ev.data);
	    if (m.type !== "view" || !m.view) return;
	    window.__scrolls.push(scrollY);
	    if (m.view.toMove === m.seat) hers = true;
	    else if (hers) { hers = false; turns++; }
	    if (!turns || !document.querySelector(`+q(selStandIn)+`) || hers || !document.querySelector("#hand button")) return;
	    const f = document.activeElement;
	    window.__first = window.__first || { inHand: !!f && document.getElementById("hand").contains(f),
	      focus: f ? f.tagName + " " + (f.dataset.key || f.id || f.textContent.trim().slice(0, 40)) : "none" };
	    if (turns < 2) return;
	    window.__after = { scrolls: window.__scrolls, y: scrollY, turns, ...window.__first };
	    window.__ws.offline = true;
	    window.__ws.drop();
	  });
	  return true;
	})()`)
	// Ann leaves: the stand-in plays her turn at once (and every later
	// one until she is back).
	code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise)
	if code != http.StatusOK {
		t.Fatalf("leaving: status %d", code)
	}
	p.until(`window.__after`)
	type after struct {
		Scrolls []float64
		Y       float64
		Turns   int
		InHand  bool
		Focus   string
	}
	a := eval[after](p, `window.__after`)
	t.Logf("the page's scroll at each view: %v; now %.0f, the stand-in having played %d turns of Ann's; focus on %s after its first", a.Scrolls, a.Y, a.Turns, a.Focus)
	for _, y := range append(a.Scrolls, a.Y) {
		if y != 0 {
			t.Errorf("Ann was at the page's top and the stand-in played for her: the page scrolled to %.0f px (at each view: %v)", y, a.Scrolls)
			break
		}
	}
	if !a.InHand {
		t.Errorf("after the stand-in's move took Ann's actions away the focus is on %s, not on her hand", a.Focus)
	}
}

// seededAt is seatedAt with the table's game dealt from seed.
func seededAt(t *testing.T, w, h int64, seed uint64, name string, target int, seats ...string) *seatTab {
	t.Helper()
	e := newSeededEnv(t, Limits{Burst: 10000}, seed)
	_, _, p := openTable(t, e, name, target, seats...)
	p.do(chromedp.EmulateViewport(w, h))
	p.join(name)
	return p
}

// annLeadsSeed finds a deal of a two-seat game in which seat 0 leads the
// first hand: the deal passes to the left each hand, so seat 1 leads the
// second.
func annLeadsSeed(tb testing.TB) uint64 {
	tb.Helper()
	for seed := uint64(1); seed < 1000; seed++ {
		s, err := arlington.New(arlington.Config{Players: 2, Target: longGame}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		if s.ToMove() == 0 {
			return seed
		}
	}
	tb.Fatal("no seed below 1000 has seat 0 lead the first hand")
	return 0
}

// TestBrowserArlingtonSheetEachHand: at 844×390, the score sheet comes
// onto the screen each time a hand is scored, not only the first time:
// playing on does not close it, and from the second hand on its new
// scores stood above the window's top.
func TestBrowserArlingtonSheetEachHand(t *testing.T) {
	t.Parallel()
	p := seatedAt(t, 844, 390, "Ann", longGame, "", "random")
	// The sheet's title each time it is written (once the page has drawn
	// the view that scored the hand, scrolling included).
	eval[bool](p, `(() => {
	  window.__titles = [];
	  const title = document.getElementById("ho-title");
	  new MutationObserver(() => {
	    const r = title.getBoundingClientRect();
	    const last = window.__titles[window.__titles.length - 1];
	    if (last && last.text === title.textContent) return;
	    window.__titles.push({ text: title.textContent, top: r.top, bottom: r.bottom,
	      bar: document.querySelector(".bar").getBoundingClientRect().bottom, foot: innerHeight });
	  }).observe(title, { childList: true, characterData: true, subtree: true });
	  return true;
	})()`)
	// Ann plays as a keyboard player would (which scrolls the page to the
	// action she sends, away from the sheet) until two hands are scored;
	// she never closes the sheet.
	p.untilPlayed(`(() => {
	  if (window.__titles.length >= 2) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) { first.focus(); first.click(); }
	  return false;
	})()`)
	type title struct {
		Text string
		span
	}
	ts := eval[[]title](p, `window.__titles`)
	t.Logf("the sheet's titles as written: %+v", ts)
	for _, h := range ts[:2] {
		if !h.shown() {
			t.Errorf("at 844×390, as %q was written, the sheet's title spanned %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)", h.Text, h.Top, h.Bottom, h.Bar, h.Foot)
		}
	}
}

// TestBrowserArlingtonNoJump: at 844×390, Ann against a bot, the page
// does not scroll by itself while she types, nor while she is away. The
// two parts play on one game, one after the other: typing (Typing) through
// a hand scored and her turn after it, then away (Away) until the next
// hand is scored.
func TestBrowserArlingtonNoJump(t *testing.T) {
	t.Parallel()
	p := seatedAt(t, 844, 390, "Ann", longGame, "", "random")
	if !t.Run("Typing", func(t *testing.T) { p.tb = t; typingNoJump(t, p) }) {
		return
	}
	t.Run("Away", func(t *testing.T) { p.tb = t; awayNoJump(t, p) })
}

// typingNoJump: a player typing in the chat keeps the chat's field where
// it is while the game goes on: their turn coming and the score sheet
// opening do not scroll the page (the turn took the page from 590 px to
// 125, the field off the screen), and what is drawn above the field (the
// log's new lines, the score sheet's rows and the sheet opening at the
// page's top) does not push it down under the caret (it moved by the
// height of each new row). It ends on Ann's turn, after a hand scored,
// the focus in the chat's field.
func typingNoJump(t *testing.T, p *seatTab) {
	// The chat's field, on the screen, with the focus; where it lies as
	// each view is drawn (this listener runs after the page's own).
	eval[bool](p, `(() => {
	  const f = document.getElementById("chat-text");
	  f.closest("details").open = true;
	  f.scrollIntoView({ block: "center" });
	  f.focus();
	  window.__top = f.getBoundingClientRect().top;
	  window.__at = [];
	  window.__ws.socks[window.__ws.viewSock].addEventListener("message", () => {
	    const r = f.getBoundingClientRect();
	    window.__at.push({ top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom,
	      foot: innerHeight, y: scrollY, focused: document.activeElement === f });
	  });
	  return true;
	})()`)
	// Ann's moves are sent without touching the focus (as if she tapped
	// them and went back to typing) until a hand is scored and her turn
	// has come again after it.
	p.untilPlayed(`(() => {
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (window.__ws.results > 0 && first) return true;
	  if (first) first.click();
	  return false;
	})()`)
	type at struct {
		span
		Y       float64
		Focused bool
	}
	as := eval[[]at](p, `window.__at`)
	top := eval[float64](p, `window.__top`)
	t.Logf("%d views drawn; the field's top at the start %.0f px", len(as), top)
	moved := 0
	for i, a := range as {
		if math.Abs(a.Top-top) > 1 && moved < 3 {
			moved++
			t.Errorf("at 844×390, typing in the chat, at view %d (of %d) the chat's field's top was at %.0f px, not at %.0f where Ann was typing (the page at %.0f px)", i, len(as), a.Top, top, a.Y)
		}
	}
	for i, a := range as {
		if !a.Focused {
			t.Fatalf("at view %d the focus left the chat's field", i)
		}
		if !a.shown() {
			t.Errorf("at 844×390, typing in the chat, at view %d (of %d) the page was at %.0f px and the chat's field spanned %.0f to %.0f px: off the screen (the bar ends at %.0f, the window at %.0f)", i, len(as), a.Y, a.Top, a.Bottom, a.Bar, a.Foot)
			break
		}
	}
}

// awayNoJump: a person who left the table (the stand-in plays every turn
// for them at once) and is down the page at the log is not taken to the
// score sheet when a hand is scored: its new scores are written at the
// top, out of their sight, the page left where it was. The page jumped to
// the sheet for a person who was not at the table. Ann's focus leaves the
// chat's field first (typing alone holds the page still), the sheet of
// the hand before still open.
func awayNoJump(t *testing.T, p *seatTab) {
	eval[bool](p, `(() => { document.activeElement.blur(); return true; })()`)
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)")`)
	code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise)
	if code != http.StatusOK {
		t.Fatalf("leaving: status %d", code)
	}
	// Once she is away, Ann goes down to the log; where the sheet's title
	// is as the next hand's scores are written (the observer runs once the
	// page has drawn the view that scored it, scrolling included).
	p.until(`window.__ws.seats.some((s) => s.seat === 0 && s.away)`)
	eval[bool](p, `(() => {
	  document.getElementById("log-filter").scrollIntoView({ block: "center" });
	  window.__sheet = null;
	  const title = document.getElementById("ho-title");
	  const before = title.textContent;
	  new MutationObserver(() => {
	    if (window.__sheet || title.textContent === before) return;
	    const r = title.getBoundingClientRect();
	    window.__sheet = { top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom, foot: innerHeight, text: title.textContent };
	  }).observe(title, { childList: true, characterData: true, subtree: true });
	  return true;
	})()`)
	p.until(`window.__sheet`)
	type sheet struct {
		span
		Text string
	}
	s := eval[sheet](p, `window.__sheet`)
	if s.Bottom > s.Bar {
		t.Errorf("at 844×390, Ann away and down at the log, the sheet's title (%q) came to %.0f to %.0f px as it was written: the page scrolled to it (the bar ends at %.0f)", s.Text, s.Top, s.Bottom, s.Bar)
	}
}

// TestBrowserArlingtonFieldNoCreep: at 844×390, a player typing in the
// chat keeps the field where it is over many redraws that each draw
// something of a fraction of a pixel above it (here a line 10.4 px high
// each time, as the page's own redraws measure): the page scrolls by
// whole pixels, and putting the field back from where the last redraw
// left it let the fractions add up (2 px over a hand, near 8 here). Driven
// through the page's own module, so that each redraw's growth is known.
func TestBrowserArlingtonFieldNoCreep(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "random")
	p.do(chromedp.EmulateViewport(844, 390))
	type kept struct {
		Top  float64
		Tops []float64
	}
	k := eval[kept](p, `import("/arlington/onscreen.js").then(({ keepField }) => {
	  const f = document.getElementById("chat-text");
	  const box = f.closest("details");
	  box.open = true;
	  const room = document.createElement("div");
	  room.style.height = "3000px";
	  document.body.append(room);
	  f.scrollIntoView({ block: "center" });
	  f.focus();
	  const top = f.getBoundingClientRect().top;
	  const tops = [];
	  for (let i = 0; i < 20; i++) {
	    const putBack = keepField();
	    const line = document.createElement("div");
	    line.style.height = "10.4px";
	    box.before(line);
	    putBack();
	    tops.push(f.getBoundingClientRect().top);
	  }
	  return { top, tops };
	})`, chromedp.EvalAwaitPromise)
	for i, top := range k.Tops {
		if math.Abs(top-k.Top) > 0.5+1.0/64 {
			t.Fatalf("at 844×390, typing in the chat, after redraw %d of 20 the field's top was at %.3f px, not at %.3f where the player was typing (each: %v)", i+1, top, k.Top, k.Tops)
		}
	}
}
