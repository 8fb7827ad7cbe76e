package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// pacedTable opens a table of Ann and three random bots with a turn timer
// of turnSeconds (-1: none), sets Ann's page to the slow speed (the
// page's own control, as a person picks it) and takes her seat. With
// watched, someone else watches the table (a connection of its own), so
// that the turn timer runs: with Ann alone with bots at a casual table
// it does not.
func pacedTable(t *testing.T, turnSeconds int, watched bool) *seatTab {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	var got created
	cfg := table.Config{Players: 4, Bots: []string{"", "random", "random", "random"}, Target: longGame, TurnSeconds: turnSeconds}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if watched {
		e.client().dial(got.ID, 0)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	p.do(chromedp.SetValue(chromedp.CSS("#speed"), "slow"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("speed").dispatchEvent(new Event("change"))`))
	p.join("Ann")
	return p
}

// shownEvents is the script that counts the events the page has shown:
// the log has one line per event.
const shownEvents = `document.querySelectorAll("#log li").length`

// TestBrowserArlingtonChatNotPaced: a chat line shows as it comes, not
// after the plays the page received before it and still paces. The page
// sent Ann's line while bots' plays waited to be shown at the slow speed,
// and the line, her own included, showed only once they all had (20 s
// late at a table of bots). Here the page is given a backlog of plays
// at once (holdBacklog), then Ann sends a line; the page notes how many
// events it had shown when the line appeared.
func TestBrowserArlingtonChatNotPaced(t *testing.T) {
	t.Parallel()
	p := backlogLag(t, false, 4)
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  window.__want = window.__ws.count;
	  new MutationObserver((_, mo) => {
	    if (!document.querySelector("#chat li")) return;
	    window.__shownAtChat = ` + shownEvents + `;
	    mo.disconnect();
	  }).observe(document.getElementById("chat"), { childList: true });
	  document.getElementById("chat-text").value = "hello";
	  document.querySelector("#chat-form button[type=submit]").click();
	})()`))
	p.until(`window.__shownAtChat !== undefined`)
	want := eval[int](p, `window.__want`)
	shown := eval[int](p, `window.__shownAtChat`)
	if shown >= want {
		t.Errorf("the chat line showed once the page had shown %d events; it was sent with %d received: it waited behind the paced plays", shown, want)
	}
	p.shot("arlington-chat-not-paced-390")
}

// Pauses are measured by what the page plans, not by the clock: a test
// timing the page on a shared machine fails when the machine is busy.
// pacePauses wraps, on the page, the timers its pacer (pace.js, told by
// the stack) sets for its pauses. window.__paced.watch() opens a watch:
// its sum is the pauses that ran out while it was open, each counted in
// full if it was planned after the watch opened, else for what was left
// of it when the watch opened (it only shrinks on a busy machine); its
// planned lists the pauses planned meanwhile, in ms. close() ends it.
const pacePauses = `(() => {
  const W = window.__paced = { seq: 0, watches: [] };
  const set = window.setTimeout;
  window.setTimeout = function (fn, ms, ...a) {
    if (typeof fn !== "function" || !/\/pace\.js\b/.test(new Error().stack)) return set.call(this, fn, ms, ...a);
    const p = { seq: ++W.seq, ms, end: performance.now() + ms };
    for (const w of W.watches) w.planned.push(ms);
    return set.call(this, () => {
      for (const w of W.watches) w.sum += p.seq > w.seq ? p.ms : Math.max(0, Math.round(p.end - w.from));
      fn();
    }, ms);
  };
  W.watch = () => {
    const w = { seq: ++W.seq, from: performance.now(), sum: 0, planned: [] };
    w.close = () => { W.watches = W.watches.filter((x) => x !== w); };
    W.watches.push(w);
    return w;
  };
  return true;
})()`

// Pauses of pace.js, in ms: after a trick at the fast speed (the longest
// a hurried backlog waits before a timed turn), after a play at the slow
// speed (the shortest pause of the speed the tests pick).
const (
	fastTrickPause = 800
	slowMovePause  = 1400
)

// turnWaits installs, on Ann's page, a watch of her turns: when a view
// giving her the turn arrives it opens a watch of the pauses
// (pacePauses) and notes how many events the page received before it
// and had not shown yet (its backlog); when her actions show it notes
// the pauses that ran out meanwhile and plays the first.
// window.__waits holds [pauses ms, backlog] for each turn.
const turnWaits = `(() => {
  const s = window.__ws.socks[window.__ws.socks.length - 1];
  const L = { watch: null, backlog: 0 };
  window.__waits = [];
  // Looked at before the page's own handler: the page shows the plays
  // before a timed turn at once, on the turn's arrival.
  const page = s.onmessage;
  s.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "view" && m.view && !L.watch && m.view.toMove === m.seat && m.legal.length) {
      L.watch = window.__paced.watch();
      L.backlog = m.view.eventsFrom - ` + shownEvents + `;
    }
    page(ev);
  };
  const look = () => {
    const b = document.querySelector("#actions button[data-action]:not(:disabled)");
    if (!b) return;
    // A turn that began before the watch did is played, not measured.
    if (L.watch) { window.__waits.push([L.watch.sum, L.backlog]); L.watch.close(); }
    L.watch = null;
    b.click();
  };
  new MutationObserver(look).observe(document.getElementById("actions"), { subtree: true, childList: true, attributes: true });
  look();
})()`

// turnsNotHeld plays Ann's turns at a table with a turn timer, her page at
// the slow speed, until want of them came behind two plays or more not
// yet shown, and checks that the page's pauses between each such turn's
// arrival and its showing came to no more than one fast trick's: the
// plays but the last show at once, the last pauses as at the fast speed
// at most. At the slow speed two plays alone pause 2.8 s.
func turnsNotHeld(t *testing.T, want int) {
	p := pacedTable(t, 60, true)
	p.until(`window.__ws.socks.length > 0`)
	eval[bool](p, pacePauses)
	p.do(chromedp.Evaluate[chromedp.Void](turnWaits))
	p.until(fmt.Sprintf(`window.__waits.filter(([, b]) => b >= 2).length >= %d`, want))
	waits := eval[[][2]int](p, `window.__waits`)
	for i, w := range waits {
		if w[1] >= 2 && w[0] > fastTrickPause {
			t.Errorf("turn %d came behind %d plays not yet shown and the page paused %d ms before showing it (want at most %d ms): the turn timer, running for someone else watching, ran meanwhile", i+1, w[1], w[0], fastTrickPause)
		}
	}
	t.Logf("turns [pauses ms, backlog]: %v", waits)
}

// holdBacklog is the script that builds, on Ann's page, a backlog of
// views it has not shown: from her turn on, the views her connection
// receives are held from the page, her turns meanwhile played on that
// connection (the first legal action, as the page would send it), until
// at least %d views are held and the last gives her the turn. Then it
// gives them to the page all at once, with a watch of the page's pauses
// open (window.__watch, pacePauses), and notes what the page did at once
// (window.__atRelease: the pauses it planned, whether the turn shows),
// then, when the page has shown them all with her actions offered, the
// pauses that ran out (window.__waited) and the ms taken
// (window.__lag, only told: it depends on the machine).
const holdBacklog = `(() => {
  const s = window.__ws.socks[window.__ws.viewSock];
  const page = s.onmessage;
  const held = [];
  s.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type !== "view" || !m.view) { page(ev); return; }
    held.push(ev);
    const mine = m.view.toMove === m.seat && m.legal.length > 0;
    if (mine && held.length < %d) { s.send(JSON.stringify({ type: "action", action: m.legal[0] })); return; }
    if (!mine) return;
    s.onmessage = page;
    const want = m.view.eventCount;
    const done = () => document.querySelectorAll("#log li").length === want &&
      !!document.querySelector("#actions button[data-action]:not(:disabled)");
    const w = window.__watch = window.__paced.watch();
    new MutationObserver((_, mo) => {
      if (!done()) return;
      window.__waited = w.sum;
      window.__lag = Math.round(performance.now() - w.from);
      w.close();
      mo.disconnect();
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
    window.__held = held.length;
    for (const e of held) page(e);
    window.__atRelease = { planned: [...w.planned], turn: done() };
  };
  document.querySelector("#actions button[data-action]:not(:disabled)").click();
})()`

// backlogLag opens a table (pacedTable), builds a backlog of at least
// views views on Ann's page ending with her turn (holdBacklog) and gives
// it to the page.
func backlogLag(t *testing.T, watched bool, views int) *seatTab {
	p := pacedTable(t, 60, watched)
	p.until(`!!document.querySelector("#actions button[data-action]:not(:disabled)")`)
	eval[bool](p, pacePauses)
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(holdBacklog, views)))
	p.until(`window.__atRelease !== undefined`)
	return p
}

// TestBrowserArlingtonTurnNotHeldByPace: at a table whose turn timer
// runs, a turn that comes behind a long backlog of plays the page has not
// shown yet (here at least 12) shows within a second or so, whatever the
// speed: the timer runs at the server from the turn's start. The page's
// pauses from the backlog's arrival to the turn shown come to one fast
// trick's at most (the plays but the last show at once). Each play
// paused as at the fast speed still held a 5 s turn back 17.7 s behind
// twenty lone tricks.
func TestBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	t.Parallel()
	p := backlogLag(t, true, 12)
	// A page that paces the backlog is caught at its first pause too many,
	// not after all of them.
	p.until(fmt.Sprintf(`window.__waited !== undefined || window.__watch.sum > %d`, fastTrickPause))
	held := eval[int](p, `window.__held`)
	if eval[bool](p, `window.__waited === undefined`) {
		t.Fatalf("the turn came behind %d views not yet shown and the page paused %d ms (so far) before showing it (want at most %d ms): the turn timer ran meanwhile",
			held, eval[int](p, `window.__watch.sum`), fastTrickPause)
	}
	if waited := eval[int](p, `window.__waited`); waited > fastTrickPause {
		t.Errorf("the turn came behind %d views not yet shown and the page paused %d ms before showing it (want at most %d ms): the turn timer ran meanwhile", held, waited, fastTrickPause)
	}
	t.Logf("%d views held; the page paused %d ms before the turn, shown after %d ms", held, eval[int](p, `window.__waited`), eval[int](p, `window.__lag`))
}

// TestBrowserArlingtonUntimedTurnPaced: with Ann alone with bots at a
// casual table the turn timer does not run, so her turn does not hurry
// the plays before it: given the backlog, the page does not show the
// turn at once, and any pause it plans is one of the slow speed she
// chose (a hurried backlog shows all plays but the last at once and
// pauses at most a fast trick's, 0.8 s).
func TestBrowserArlingtonUntimedTurnPaced(t *testing.T) {
	t.Parallel()
	p := backlogLag(t, false, 4)
	type release struct {
		Planned []int
		Turn    bool
	}
	got := eval[release](p, `window.__atRelease`)
	if got.Turn {
		t.Errorf("the turn showed as the %d views before it came, at the slow speed: the page hurried though no turn timer ran", eval[int](p, `window.__held`))
	}
	for _, ms := range got.Planned {
		if ms < slowMovePause {
			t.Errorf("given %d views, the page planned pauses of %v ms, want none shorter than %d ms (the slow speed): the page hurried though no turn timer ran", eval[int](p, `window.__held`), got.Planned, slowMovePause)
			break
		}
	}
}

// TestLongBrowserArlingtonTurnNotHeldByPace (long: several turns at the
// slow speed): the same over four such turns.
func TestLongBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	turnsNotHeld(t, 4)
}
