package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonReloadedWordUsedUp: after a reload, the page loads
// the seat's moves with the log; a late word from another window of the
// seat about one of them (its action, sent at its count) is answered by
// that move, and claims nothing later. Before, the page kept it as a
// claim, and the next move of the seat that was the same action (a pass
// the stand-in made, say) read as the person's, not "A bot played for
// you". The later move is fed to the page's standin.js itself: the
// stand-in plays only after a turn timer of 5 s or more.
func TestBrowserArlingtonReloadedWordUsedUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	got, _, a := openTable(t, e, "Ann", longGame, "", "random")
	a.join("Ann")
	a.until(`document.querySelector(` + q(selLegal+":not(:disabled)") + `)`)
	a.play()
	type move struct {
		N      int
		Action string
	}
	last := `window.__ws.evs.filter((e) => e.kind === "move" && e.seat === 0).pop()`
	m := eval[move](a, last)
	if m.Action == "" {
		t.Fatal("Ann's move is not among the events")
	}
	a.open(e.srv.URL, got.ID) // a reload
	a.until(fmt.Sprintf(`window.__ws.seat === 0 && window.__ws.count > %d`, m.N))
	standIn := eval[bool](a, fmt.Sprintf(`import("/arlington/standin.js").then(async (s) => {
	  const c = new BroadcastChannel("arlington-sent-%s"), heard = new BroadcastChannel("arlington-sent-%s");
	  const said = new Promise((ok) => { heard.onmessage = (ev) => { if (ev.data.ping) ok(); }; });
	  c.postMessage({ seat: 0, at: %d, action: %q });
	  c.postMessage({ ping: true });
	  await said;
	  s.noteStandIn([{ kind: "move", seat: 0, n: %d, action: %q }], 0);
	  return s.standIn.has(%d);
	})`, got.ID, got.ID, m.N, m.Action, m.N+1000, m.Action, m.N+1000), chromedp.EvalAwaitPromise)
	if !standIn {
		t.Errorf("a word about Ann's move %d (%s), loaded with the page, claimed a later stand-in move of the same action", m.N, m.Action)
	}
}

// TestBrowserArlingtonHistoryUsesWord: a word of another window that came
// before the moves it tells of reached the page in a full view (loaded
// with, or after a gap: noteHistory) is used up by its move there, so it
// claims no later move of the same action. The full view's move and the
// later one are fed to the page's standin.js itself, as in
// TestBrowserArlingtonReloadedWordUsedUp.
func TestBrowserArlingtonHistoryUsesWord(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	got, _, a := openTable(t, e, "Ann", longGame, "", "random")
	a.join("Ann")
	a.until(`window.__ws.seat === 0`)
	n := eval[int](a, `window.__ws.count`) + 1000
	standIn := eval[bool](a, fmt.Sprintf(`import("/arlington/standin.js").then(async (s) => {
	  const c = new BroadcastChannel("arlington-sent-%s"), heard = new BroadcastChannel("arlington-sent-%s");
	  const said = new Promise((ok) => { heard.onmessage = (ev) => { if (ev.data.ping) ok(); }; });
	  c.postMessage({ seat: 0, at: %d, action: "pass" });
	  c.postMessage({ ping: true });
	  await said;
	  s.noteHistory([{ kind: "move", seat: 0, n: %d, action: "pass" }], 0);
	  s.noteStandIn([{ kind: "move", seat: 0, n: %d, action: "pass" }], 0);
	  return s.standIn.has(%d);
	})`, got.ID, got.ID, n, n, n+1, n+1), chromedp.EvalAwaitPromise)
	if !standIn {
		t.Errorf("a word about move %d, which came in a full view, claimed the later stand-in move %d of the same action", n, n+1)
	}
}
