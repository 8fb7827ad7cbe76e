package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonStaleWordEnds: a word from another window of the
// seat (an action it sent), its action never applied nor refused (that
// window closed before the answer), claims no move after two of the
// seat's moves were judged the stand-in's: while the person is
// connected the stand-in moves only when a turn's timer runs out. It
// stood until the game's end, so a pass the stand-in made many turns
// later read as the person's. The page's own action sent before a
// dropped connection ends the same way. An action applied at the seat's
// next turn is still the person's, and so is the page's own action
// applied after another window moved the seat twice (a pickup, then an
// add): moves other windows claimed do not count.
// The page's standin.js runs alone here, on the lobby page, fed moves.
func TestBrowserArlingtonStaleWordEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "watcher")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	type judged struct{ Late, Own, Next, Behind bool }
	got := eval[judged](p, `import("/arlington/standin.js").then(async (m) => {
	  m.installPeers("T", () => 0, () => {});
	  const c = new BroadcastChannel("arlington-sent-T"), heard = new BroadcastChannel("arlington-sent-T");
	  const said = new Promise((ok) => { heard.onmessage = (ev) => { if (ev.data.ping) ok(); }; });
	  c.postMessage({ seat: 0, at: 10, action: "pass" });
	  c.postMessage({ seat: 0, at: 70, action: "play 9S" });
	  c.postMessage({ seat: 0, at: 80, action: "pickup 9S 1/0" });
	  c.postMessage({ seat: 0, at: 81, action: "add 8S 1/0" });
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
	  const next = !m.standIn.has(72);
	  // The page's lead sent at 80, applied after the other window's two.
	  m.sending(80, 0, "lead 7H");
	  m.noteStandIn([move(80, "pickup 9S 1/0"), move(81, "add 8S 1/0"), move(82, "lead 7H")], 0);
	  return { late, own, next, behind: ![80, 81, 82].some((n) => m.standIn.has(n)) };
	})`, chromedp.EvalAwaitPromise)
	if !got.Late {
		t.Error("a word unanswered after two stand-in moves still made a stand-in's pass fifty counts on the person's")
	}
	if !got.Own {
		t.Error("the page's own action, never applied nor refused, made a stand-in's pass after two stand-in moves the person's")
	}
	if !got.Next {
		t.Error("an action another window sent, applied at the seat's next turn, is told as the stand-in's")
	}
	if !got.Behind {
		t.Error("the page's own action, applied after another window moved the seat twice, or those two moves, told as the stand-in's")
	}
}
