package arlweb

import (
	"net/http"
	"testing"

	"cardtable/internal/table"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonReplayFocus: "Watch the replay" moves the keyboard's
// focus to the replay's Next once, as it is pressed; the steps come after
// (a fetch, held here until the player has moved on), and their coming
// takes neither the focus nor the page from where the player went
// meanwhile. The focus moved only when the steps came, from wherever the
// player was by then. A game to 1 point against a bot, played to its
// end before the page opens.
func TestBrowserArlingtonReplayFocus(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000})
	ann := e.client()
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
	// The finished table's page, watched.
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.open(e.srv.URL, tb.ID)
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
	focus := `(() => { const f = document.activeElement; return f ? f.tagName + " " + (f.id || "") : "none"; })()`
	if f := eval[string](p, focus); f != "BUTTON rp-next" {
		t.Errorf("as \"Watch the replay\" was pressed the focus went to %s, not to the replay's Next", f)
	}
	// Ann moves on (to the chat, say) before the steps come.
	y := eval[float64](p, `(() => { const c = document.getElementById("chat-text"); c.closest("details").open = true; c.focus({ preventScroll: true }); return scrollY; })()`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__open()`))
	p.until(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`)
	if f := eval[string](p, focus); f != "INPUT chat-text" {
		t.Errorf("the replay's steps came after Ann moved to the chat: they took the focus to %s", f)
	}
	if now := eval[float64](p, `scrollY`); now != y {
		t.Errorf("the replay's steps came after Ann moved on: they scrolled the page from %.0f to %.0f px", y, now)
	}
}
