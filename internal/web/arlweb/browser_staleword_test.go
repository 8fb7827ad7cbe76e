package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonStaleWordEnds: a word from another window of the
// seat (an action it sent) that the seat's next two moves were not, its
// action never applied nor refused (that window closed before the
// answer), claims no later move: the server applies an action at the
// seat's turn it arrives in or the next. It stood until the game's end,
// so a pass the stand-in made many turns later read as the person's.
// The page's own action sent before a dropped connection ends the same
// way; an action applied at the seat's next turn is still the person's.
// The page's standin.js runs alone here, on the lobby page, fed moves.
func TestBrowserArlingtonStaleWordEnds(t *testing.T) {
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "watcher")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	type judged struct{ Late, Own, Next bool }
	got := eval[judged](p, `import("/arlington/standin.js").then(async (m) => {
	  m.installPeers("T", () => 0, () => {});
	  const c = new BroadcastChannel("arlington-sent-T"), heard = new BroadcastChannel("arlington-sent-T");
	  const said = new Promise((ok) => { heard.onmessage = (ev) => { if (ev.data.ping) ok(); }; });
	  c.postMessage({ seat: 0, at: 10, action: "pass" });
	  c.postMessage({ seat: 0, at: 70, action: "play 9S" });
	  c.postMessage({ ping: true });
	  await said;
	  const move = (n, action) => ({ kind: "move", seat: 0, n, action });
	  // The word of a pass at 10: the moves at 12 and 14 were other actions.
	  m.noteStandIn([move(12, "play 7H"), move(14, "play 8H"), move(60, "pass")], 0);
	  const late = m.standIn.has(60);
	  // The page's own pass at 61, its connection then dropped.
	  m.sending(61, 0, "pass");
	  m.noteStandIn([move(62, "play 2C"), move(64, "play 3C"), move(66, "pass")], 0);
	  const own = m.standIn.has(66);
	  // The word of a play of the 9S at 70, applied at the seat's next turn.
	  m.noteStandIn([move(70, "play 4C"), move(72, "play 9S")], 0);
	  return { late, own, next: !m.standIn.has(72) };
	})`, chromedp.EvalAwaitPromise)
	if !got.Late {
		t.Error("a word the seat's next two moves were not still made a stand-in's pass fifty counts on the person's")
	}
	if !got.Own {
		t.Error("the page's own action, never applied nor refused, made a stand-in's pass after two other moves the person's")
	}
	if !got.Next {
		t.Error("an action another window sent, applied at the seat's next turn, is told as the stand-in's")
	}
}
