package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"cardtable/internal/table"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserArlingtonReplayFocus: "Watch the replay" moves the keyboard's
// focus to the replay's Next once, as it is pressed; the steps come after
// (a fetch, held here until the player has moved on), and their coming
// takes neither the focus nor the page from where the player went
// meanwhile. The focus moved only when the steps came, from wherever the
// player was by then. A game to 1 point against a bot, played to its
// end before the page opens.
func TestBrowserArlingtonReplayFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	id := finishedTable(t, e)
	// The finished table's page, watched.
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("btn-replay")`)
	// The replay's steps are held until __open().
	p.do(chromedp.Evaluate[chromedp.Void](`window.__gate = new Promise((ok) => { window.__open = ok; }); window.__replays = 0;
	{ const f = window.fetch; window.fetch = async (...a) => {
	  if (!String(a[0]).includes("/replay")) return f(...a);
	  window.__replays++;
	  await window.__gate;
	  return f(...a);
	}; }`))
	p.do(chromedp.Click(chromedp.CSS("#btn-replay")))
	p.until(`window.__replays > 0`)
	if f := eval[string](p, focusedJS); f != "BUTTON rp-next" {
		t.Errorf("as \"Watch the replay\" was pressed the focus went to %s, not to the replay's Next", f)
	}
	// Ann moves on (to the chat, say) before the steps come.
	y := eval[float64](p, `(() => { const c = document.getElementById("chat-text"); c.closest("details").open = true; c.focus({ preventScroll: true }); return scrollY; })()`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__open()`))
	p.until(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`)
	if f := eval[string](p, focusedJS); f != "INPUT chat-text" {
		t.Errorf("the replay's steps came after Ann moved to the chat: they took the focus to %s", f)
	}
	if now := eval[float64](p, `scrollY`); now != y {
		t.Errorf("the replay's steps came after Ann moved on: they scrolled the page from %.0f to %.0f px", y, now)
	}
}

// focusedJS names the element with the keyboard's focus: its tag and id.
const focusedJS = `(() => { const f = document.activeElement; return f ? f.tagName + " " + (f.id || "") : "none"; })()`

// finishedTable is a table whose game, to 1 point, Ann played to its end
// against a bot (her first legal action each turn).
func finishedTable(t *testing.T, e *env) string {
	t.Helper()
	return finishedTableOf(t, e, e.client())
}

// finishedTableOf is finishedTable played by the client ann (her
// identity, so her games).
func finishedTableOf(t *testing.T, e *env, ann *client) string {
	t.Helper()
	var tb created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann.join(tb.ID, "Ann")
	w := ann.dial(tb.ID, -1)
	for m := w.started(); m.View.ToMove >= 0; {
		if m.View.ToMove == m.Seat && len(m.Legal) > 0 {
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		}
		n := m.View.EventCount
		m = w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	return tb.ID
}

// TestBrowserArlingtonReplayEndsKeepFocus: stepping through the replay
// from the keyboard, a press that reaches the last step (Next, End) or
// the first (Start, Back) disables the button it was made on; the focus
// goes to the way still open (Back at the last step, Next at the first),
// where Enter and the arrow keys go on, and Close gives it back to
// "Watch the replay". Each had dropped the focus to <body>.
func TestBrowserArlingtonReplayEndsKeepFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	id := finishedTable(t, e)
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("btn-replay")`)
	// press focuses the control id and presses Enter on it, then waits
	// for the step the press leads to.
	press := func(id, step string) {
		t.Helper()
		p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById(`+q(id)+`).focus()`), chromedp.KeyEvent(kb.Enter))
		if step != "" {
			p.until(`document.getElementById("rp-pos").textContent.startsWith(` + step + `)`)
		}
	}
	press("btn-replay", `"Step 1 of "`)
	total := eval[int](p, `+document.getElementById("rp-pos").textContent.match(/of (\d+)/)[1]`)
	if total < 3 {
		t.Fatalf("the replay has %d steps, too few to step through", total)
	}
	last := fmt.Sprintf(`"Step %d of "`, total)
	for _, c := range []struct{ press, step, want string }{
		{"rp-last", last, "BUTTON rp-back"},                                  // End
		{"rp-back", fmt.Sprintf(`"Step %d of "`, total-1), "BUTTON rp-back"}, // Back, still enabled
		{"rp-next", last, "BUTTON rp-back"},                                  // Next onto the last step
		{"rp-first", `"Step 1 of "`, "BUTTON rp-next"},                       // Start
		{"rp-next", `"Step 2 of "`, "BUTTON rp-next"},
		{"rp-back", `"Step 1 of "`, "BUTTON rp-next"}, // Back onto the first step
	} {
		press(c.press, c.step)
		if f := eval[string](p, focusedJS); f != c.want {
			t.Errorf("%s pressed (to %s): the focus went to %s, want %s", c.press, c.step, f, c.want)
		}
	}
	// The arrow keys go on from where the focus went.
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.until(`document.getElementById("rp-pos").textContent.startsWith("Step 2 of ")`)
	press("rp-close", "")
	if f := eval[string](p, focusedJS); f != "BUTTON btn-replay" {
		t.Errorf("Close pressed: the focus went to %s, want \"Watch the replay\"", f)
	}
}
