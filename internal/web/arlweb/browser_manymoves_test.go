package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonLateWordAfterManyMoves (long: 40 moves of a
// seat played through the page's connection, 5-7 s under -race): Ann's seat has made more
// moves than the page keeps (standin.js's MOVES_MAX, 32) when another
// window of hers plays, and its word comes after the view with the move:
// the log tells the move as hers, not "A bot played for you". The page
// noted the moves it loaded with (noteHistory) again at every view, so
// past 32 of the seat's moves the last ones were marked loaded each time;
// the late word then only cleared that mark and left the move the
// stand-in's. The other window's actions are sent on the page's own
// connection without the page's knowing (as the server sees another
// window's), and its word is posted on the windows' channel by hand once
// the view has come.
func TestLongBrowserArlingtonLateWordAfterManyMoves(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	got, _, a := openTable(t, e, "Ann", longGame, "", "random")
	a.join("Ann")
	a.until(`window.__ws.seat === 0 && window.__ws.viewSock >= 0`)
	const moves = 40
	type sent struct {
		At     int
		Action string
	}
	// The other window plays Ann's first legal action at each of her
	// turns until the seat has made moves moves; the last it sent is
	// the one whose word comes late.
	last := eval[sent](a, fmt.Sprintf(`new Promise((done, fail) => {
	  const s = window.__ws.socks[window.__ws.viewSock];
	  const mine = () => window.__ws.evs.filter((e) => e.kind === "move" && e.seat === 0).length;
	  let at = -1, action = "";
	  const look = (m) => {
	    if (m.type !== "view" || !m.view) return;
	    if (m.view.toMove < 0) { fail("the game ended"); return; }
	    if (mine() >= %d) { s.removeEventListener("message", on); done({ at, action }); return; }
	    if (m.view.toMove !== 0 || !(m.legal || []).length || m.view.eventCount <= at) return;
	    at = m.view.eventCount; action = m.legal[0];
	    s.send(JSON.stringify({ type: "action", action }));
	  };
	  const on = (ev) => look(JSON.parse(ev.data));
	  s.addEventListener("message", on);
	  s.send(JSON.stringify({ type: "hello", since: window.__ws.count }));
	})`, moves), chromedp.EvalAwaitPromise)
	n := eval[int](a, fmt.Sprintf(`window.__ws.evs.filter((e) => e.kind === "move" && e.seat === 0 && e.n >= %d)[0].n`, last.At))
	a.until(shownAll)
	if !eval[bool](a, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, n)) {
		t.Fatalf("move %d (%s), its word not yet come, is not told as the stand-in's", n, last.Action)
	}
	if lateWordTold(a, got.ID, n, last.At, last.Action) {
		t.Errorf("after %d of Ann's moves, her move %d (%s) made in another window is told as \"A bot played for you\" after its late word", moves, n, last.Action)
	}
}

// lateWordTold posts the word of another window of seat 0 at table id
// (action, sent at count at) on the windows' channel, and says whether
// the page's log then tells move n as the stand-in's.
func lateWordTold(a *seatTab, id string, n, at int, action string) bool {
	a.tb.Helper()
	return eval[bool](a, fmt.Sprintf(`new Promise((done) => {
	  const c = new BroadcastChannel("arlington-sent-%s"), heard = new BroadcastChannel("arlington-sent-%s");
	  heard.onmessage = (ev) => { if (ev.data.ping) done(document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")); };
	  c.postMessage({ seat: 0, at: %d, action: %q });
	  c.postMessage({ ping: true });
	})`, id, id, n, at, action), chromedp.EvalAwaitPromise)
}

// TestBrowserArlingtonLateWordAfterManyMovesLoaded, the quick version of
// TestLongBrowserArlingtonLateWordAfterManyMoves: Ann's 40 moves are
// played by a connection of hers (another window) before her page opens
// and loads them; that window then plays once more, and its word comes
// after the view with the move: the log tells it as hers.
func TestBrowserArlingtonLateWordAfterManyMovesLoaded(t *testing.T) {
	t.Parallel()
	lateWordLoaded(t, false)
}

// TestBrowserArlingtonLateWordAfterGap: as
// TestBrowserArlingtonLateWordAfterManyMovesLoaded, with the page's
// connection dropped and restored, its first view then leaving a gap, so
// that the page starts again with a full view, between the move judged the
// stand-in's and the late word. The full view repeats Ann's 41 moves:
// noted again (only those still among the last 32 kept were skipped), the
// older ones pushed the newer out, which came in again as loaded, the
// judged move among them; the late word then only cleared that mark.
func TestBrowserArlingtonLateWordAfterGap(t *testing.T) {
	t.Parallel()
	lateWordLoaded(t, true)
}

// gapOnce drops the page's connection; the next connection's first view
// seems to leave a gap (as after messages lost), so the page starts
// again with a new connection and a full view.
const gapOnce = `(() => {
  const W = window.WebSocket;
  function Gap(url, protocols) {
    window.WebSocket = W;
    const s = new W(url, protocols);
    let done = false;
    // Registered before the page's onmessage, so it stops the view and
    // hands the page the altered one instead.
    s.addEventListener("message", (ev) => {
      if (done) return;
      const m = JSON.parse(ev.data);
      if (m.type !== "view" || !m.view) return;
      done = true;
      ev.stopImmediatePropagation();
      m.view.eventsFrom = 1e6;
      s.onmessage({ data: JSON.stringify(m) });
    });
    return s;
  }
  Gap.prototype = W.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Gap[k] = W[k];
  window.WebSocket = Gap;
  window.__ws.drop();
})()`

// lateWordLoaded runs TestBrowserArlingtonLateWordAfterManyMovesLoaded,
// with a gap before the late word when gap is set.
func lateWordLoaded(t *testing.T, gap bool) {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	ann := e.client()
	var got created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: longGame, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if seat := ann.join(got.ID, "Ann"); seat != 0 {
		t.Fatalf("Ann sits at %d", seat)
	}
	w := ann.dial(got.ID, -1)
	// annPlays plays Ann's first legal action at her next turn: the
	// count it was sent at and the action.
	isAView := func(m srvMsg) bool { return isView(m) && m.View != nil }
	m := w.waitFor(isAView)
	annPlays := func() (int, string) {
		t.Helper()
		for m.View.ToMove != 0 || len(m.Legal) == 0 {
			m = w.waitFor(isAView)
		}
		at, action := m.View.EventCount, m.Legal[0]
		w.send(map[string]any{"type": "action", "action": action})
		for m.View.EventCount <= at {
			m = w.waitFor(isAView)
		}
		return at, action
	}
	const moves = 40
	for range moves {
		annPlays()
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	browserIs(p, e, ann)
	p.open(e.srv.URL, got.ID)
	p.until(`window.__ws.seat === 0 && window.__ws.evs.filter((e) => e.kind === "move" && e.seat === 0).length >= 40`)
	at, action := annPlays()
	p.until(fmt.Sprintf(`window.__ws.count > %d && %s`, at, shownAll))
	n := eval[int](p, fmt.Sprintf(`window.__ws.evs.filter((e) => e.kind === "move" && e.seat === 0 && e.n >= %d)[0].n`, at))
	if !eval[bool](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, n)) {
		t.Fatalf("move %d (%s), its word not yet come, is not told as the stand-in's", n, action)
	}
	if gap {
		views := len(p.views())
		p.do(chromedp.Evaluate[chromedp.Void](gapOnce))
		p.until(fmt.Sprintf(`document.body.dataset.resyncs === "1" && window.__ws.views.length > %d && window.__ws.views.at(-1)[0] === 0 && %s`, views+1, shownAll))
		if !eval[bool](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, n)) {
			t.Fatalf("after the full view, move %d (%s), its word not yet come, is not told as the stand-in's", n, action)
		}
	}
	if lateWordTold(p, got.ID, n, at, action) {
		t.Errorf("with %d of Ann's moves loaded (gap before the word: %v), her move %d (%s) made in another window is told as \"A bot played for you\" after its late word", moves, gap, n, action)
	}
}
