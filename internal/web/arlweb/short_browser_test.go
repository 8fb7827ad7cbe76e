package arlweb

import (
	"fmt"
	"strings"
	"testing"

	"cardtable/internal/table"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Play in a short window: a phone held sideways (844×390), where the
// sticky bar takes an eighth of the height and the hand with its actions
// fills the rest.

// span is where an element lies against the window: its top and bottom,
// the bar's bottom and the window's height.
type span struct{ Top, Bottom, Bar, Foot float64 }

// spanOf reads sel's place in the window.
func (p *seatTab) spanOf(sel string) span {
	p.tb.Helper()
	return eval[span](p, `(() => { const r = document.querySelector(`+q(sel)+`).getBoundingClientRect();
	  return { top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom, foot: innerHeight }; })()`)
}

// shown reports whether s is wholly between the bar and the window's foot.
func (s span) shown() bool { return s.Top >= s.Bar-0.5 && s.Bottom <= s.Foot+0.5 }

// seatedAt opens a table of seats to target (openTable) in a window of
// w×h and takes the person's seat there as name.
func seatedAt(t *testing.T, w, h int64, name string, target int, seats ...string) *seatTab {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, name, target, seats...)
	p.do(chromedp.EmulateViewport(w, h))
	p.join(name)
	return p
}

// longGame is the target of a game that must not end before the turn a
// test looks for: random bots reached the usual 32 points within a hand
// or two in about one game in 30.
const longGame = table.MaxTarget

// shortTable opens a four-seat table (Ann and three random bots) at
// 844×390 and plays Ann's first action each turn until her turn comes
// with a trick in play; it checks that the trick's cards and Ann's own
// are on the screen together then. The page lined the actions' foot up
// with the window's, which put the trick to answer under the bar.
func shortTable(t *testing.T) *seatTab {
	t.Helper()
	p := seatedAt(t, 844, 390, "Ann", longGame, "", "random", "random", "random")
	p.untilPlayed(`(() => {
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (!first) return false;
	  if (document.querySelector("#play figure")) return true;
	  first.click();
	  return false;
	})()`)
	for _, sel := range []string{"#play", "#hand"} {
		if s := p.spanOf(sel); !s.shown() {
			t.Errorf("at 844×390, on Ann's turn in a trick, %s spans %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)", sel, s.Top, s.Bottom, s.Bar, s.Foot)
		}
	}
	p.shot("trick-turn-844x390")
	return p
}

// TestBrowserArlingtonShortWindow: at 844×390 with four seats, on a turn
// in a trick the trick and the hand are on the screen together.
func TestBrowserArlingtonShortWindow(t *testing.T) {
	t.Parallel()
	shortTable(t)
}

// TestLongBrowserArlingtonShortWindowKeys (long: a browser and a game at
// four seats until a turn with many actions, about 3 s under -race): at
// 844×390, with the trick on the screen as in
// TestBrowserArlingtonShortWindow, a refusal (two cards that make no set,
// tried with S) shows on the screen: it was written below every action,
// past the window's foot, and the player saw nothing happen. No preview
// of the sent selection stays. An action sent with Enter from the foot of
// the actions leaves the focus where it can be seen: it went to the
// hand's first card, above the window's top.
func TestLongBrowserArlingtonShortWindowKeys(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := shortTable(t)
	// Every preview the page asks for is counted until the page has
	// handled its answer (the task after the answer's text is read: the
	// page writes it in the microtasks before). The answers are held until
	// __open() (after S), so the selection's preview is surely still on its
	// way when the try is sent, however fast the server answers.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__previews = 0; window.__gate = new Promise((ok) => { window.__open = ok; });
	{ const f = window.fetch; window.fetch = async (...a) => {
	  if (!String(a[0]).endsWith("/preview")) return f(...a); // either preview route
	  window.__previews++;
	  const r = await f(...a);
	  await window.__gate;
	  const text = r.text.bind(r);
	  r.text = async () => { const v = await text(); setTimeout(() => window.__previews--, 0); return v; };
	  return r;
	}; }`))
	// A turn with the lead and more actions than the window holds (the
	// Hint button, first of them, and the last action shown do not fit in
	// it together), and two cards no action plays together.
	p.untilPlayed(`(() => {
	  if (document.getElementById("btn-replay")) return true; // the game is over
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (!first) return false;
	  const cards = [...document.querySelectorAll("#hand button.hand-card")];
	  const acts = [...document.querySelectorAll("#actions button[data-action]")].filter((b) => !b.closest("details:not([open])"));
	  const room = innerHeight - document.querySelector(".bar").getBoundingClientRect().bottom;
	  if (document.querySelector('#actions button[data-action^="lead "]') && cards.length >= 2 &&
	      document.getElementById("hand-box").getBoundingClientRect().bottom > innerHeight &&
	      acts[acts.length - 1].getBoundingClientRect().bottom - document.getElementById("btn-hint").getBoundingClientRect().top > room) {
	    for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) {
	      cards[i].click(); cards[j].click();
	      const now = [...document.querySelectorAll("#hand button.hand-card")];
	      if (document.getElementById("btn-try")) return true;
	      now.filter((b) => b.classList.contains("selected")).forEach((b) => b.click());
	    }
	  }
	  first.click();
	  return false;
	})()`)
	if eval[bool](p, `!!document.getElementById("btn-replay")`) {
		t.Fatal("the game ended before Ann had the lead with more actions than the window holds and two cards no action plays together")
	}
	n := p.events()
	p.do(chromedp.KeyEvent("s"))
	p.until(`document.getElementById("error").textContent !== ""`)
	if s := p.spanOf("#error"); !s.shown() {
		t.Errorf("at 844×390 the refusal %q spans %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)",
			eval[string](p, `document.getElementById("error").textContent`), s.Top, s.Bottom, s.Bar, s.Foot)
	}
	// The selection went with the try: no preview of it stays (an answer
	// still on its way when S was pressed wrote one under the refusal).
	if eval[int](p, `window.__previews`) == 0 {
		t.Fatalf("no preview was on its way when S was pressed: the test cannot tell a late one")
	}
	p.do(chromedp.Evaluate[chromedp.Void](`window.__open()`))
	p.until(`window.__previews === 0`)
	if pv := eval[string](p, `document.getElementById("preview").textContent`); pv != "" {
		t.Errorf("after the try the preview still reads %q", pv)
	}
	if got := p.events(); got != n {
		t.Errorf("the refused try changed the game: events %d -> %d", n, got)
	}
	p.shot("refusal-844x390")

	// Still Ann's turn: the focus is put on the last action shown, at the
	// foot of the actions (focus() scrolls it into view, as Tab would), and
	// she sends it with Enter. Where the focus goes is read as each view is
	// drawn (a listener added after the page's own runs after it; at the
	// speed "instant" of reducedMotion the page draws a view as it comes).
	sent := eval[string](p, `(() => {
	  window.__focusNow = (count) => {
	    const f = document.activeElement, r = f.getBoundingClientRect(), bar = document.querySelector(".bar").getBoundingClientRect().bottom;
	    return { count, shown: r.top >= bar - 0.5 && r.bottom <= innerHeight + 0.5,
	      what: (f.getAttribute("aria-label") || f.textContent) + " at " + Math.round(r.top) + "-" + Math.round(r.bottom) + " px" };
	  };
	  window.__focusAt = [];
	  window.__ws.socks[window.__ws.viewSock].addEventListener("message", (ev) => {
	    const m = JSON.parse(ev.data);
	    if (m.type === "view" && m.view) window.__focusAt.push(window.__focusNow(m.view.eventCount));
	  });
	  const acts = [...document.querySelectorAll("#actions button[data-action]")].filter((b) => !b.closest("details:not([open])")); // not in a folded group
	  acts[acts.length - 1].focus();
	  return document.activeElement.dataset.action || "";
	})()`)
	if sent == "" {
		t.Fatalf("the last action shown took no focus")
	}
	n = p.events()
	p.do(chromedp.KeyEvent(kb.Enter))
	type focusAt struct {
		Count int
		Shown bool
		What  string
	}
	if f := eval[focusAt](p, `window.__focusNow(-1)`); !f.Shown {
		t.Errorf("at 844×390, once Ann sent the action at the foot the focus is on %s: off the screen", f.What)
	}
	p.until(fmt.Sprintf(`window.__focusAt.some((x) => x.count > %d)`, n))
	for _, f := range eval[[]focusAt](p, `window.__focusAt`) {
		if f.Count > n && !f.Shown {
			t.Errorf("at 844×390, when the view of event %d was drawn after Ann's action the focus was on %s: off the screen", f.Count, f.What)
			break
		}
	}
}

// TestLongBrowserArlingtonOwnMoveTurnSaid (long: a browser and a game at
// two seats until a set round, about 3 s under -race): when the player's own move leaves
// the turn with them (at two seats, a set answered ends the round and
// gives its owner the lead; a card added to a set keeps it), "Your turn."
// is said after the move. It was said only when the turn came from
// someone else, so a player who heard their move and nothing after it
// waited for a turn they already had.
func TestLongBrowserArlingtonOwnMoveTurnSaid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	// A long game: the usual 32 points could come before the moment
	// looked for.
	p := seatedAt(t, 390, 844, "Ann", longGame, "", "random")
	// Ann answers a set or adds to one as soon as she can (with cards to
	// spare, so the hand goes on); else she plays her first action.
	pick := `(() => {
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (!first) return false;
	  const cards = document.querySelectorAll("#hand button.hand-card").length;
	  const round = document.getElementById("status").textContent.includes("a set round");
	  for (const b of document.querySelectorAll("#actions button[data-action]")) {
	    const [verb, ...rest] = b.dataset.action.split(" ");
	    const used = verb === "set" ? rest.length - 1 : 1;
	    if (((verb === "set" && round) || verb === "add" || verb === "pickup") && cards > used) {
	      window.__kept = b.dataset.action;
	      window.__count = window.__ws.count;
	      b.click();
	      return true;
	    }
	  }
	  first.click();
	  return false;
	})()`
	p.untilPlayed(pick)
	// The move keeps the lead with Ann (she keeps cards), so the next
	// view gives her the turn and nothing happens until she acts.
	p.until(`window.__ws.count > window.__count && document.querySelector("#actions button[data-action]:not(:disabled)")`)
	if !eval[bool](p, `window.__ws.toMove === window.__ws.seat`) {
		t.Fatalf("after Ann's %q the turn is seat %d's", eval[string](p, `window.__kept`), eval[int](p, `window.__ws.toMove`))
	}
	said := eval[[]string](p, `[...document.querySelectorAll("#say p")].map((x) => x.textContent)`)
	kept := eval[string](p, `window.__kept`)
	if len(said) < 2 || said[len(said)-1] != "Your turn." || !strings.HasPrefix(said[len(said)-2], "Ann ") {
		t.Errorf("after Ann's %q left her the turn the page said %q; want her move, then %q", kept, said, "Your turn.")
	}
}

// TestLongBrowserArlingtonShortWindowEnd (long: a browser and a game to
// 1 point at four seats, a few seconds under -race): at 844×390 the
// game's result, with its replay button, is on the screen when the game
// ends. It was at the page's top while the player was further down at
// their hand, so they saw the log and had to look for the result.
func TestLongBrowserArlingtonShortWindowEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := seatedAt(t, 844, 390, "Ann", 1, "", "random", "random", "random")
	p.auto(true)
	p.untilPlayed(`!document.getElementById("winners").hidden`)
	for _, sel := range []string{"#winners .win-text", "#btn-replay"} {
		if s := p.spanOf(sel); !s.shown() {
			t.Errorf("at 844×390, at the game's end, %s spans %.0f to %.0f px: not on the screen (the bar ends at %.0f, the window at %.0f)", sel, s.Top, s.Bottom, s.Bar, s.Foot)
		}
	}
	p.shot("end-844x390")
}
