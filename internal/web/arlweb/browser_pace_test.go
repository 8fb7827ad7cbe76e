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

// turnLags installs, on Ann's page, a watch of her turns: when a view
// giving her the turn arrives it notes the time and how many events the
// page received before it and had not shown yet (its backlog); when her
// actions show it notes the lag and plays the first. window.__lags holds
// [lag ms, backlog] for each turn.
const turnLags = `(() => {
  const s = window.__ws.socks[window.__ws.socks.length - 1];
  const L = { arrived: -1, backlog: 0 };
  window.__lags = [];
  // Looked at before the page's own handler: the page shows the plays
  // before a timed turn at once, on the turn's arrival.
  const page = s.onmessage;
  s.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "view" && m.view && L.arrived < 0 && m.view.toMove === m.seat && m.legal.length) {
      L.arrived = performance.now();
      L.backlog = m.view.eventsFrom - ` + shownEvents + `;
    }
    page(ev);
  };
  const look = () => {
    const b = document.querySelector("#actions button[data-action]:not(:disabled)");
    if (!b) return;
    // A turn that began before the watch did is played, not measured.
    if (L.arrived >= 0) window.__lags.push([Math.round(performance.now() - L.arrived), L.backlog]);
    L.arrived = -1;
    b.click();
  };
  new MutationObserver(look).observe(document.getElementById("actions"), { subtree: true, childList: true, attributes: true });
  look();
})()`

// maxTurnLag bounds the time from a turn's start (its view received) to
// the page showing it, for a turn that came behind two plays or more not
// yet shown: all but the last show at once, the last pauses at most as
// at the fast speed (0.8 s after a trick); the bound leaves room for a
// busy machine. At the slow speed two plays alone pause 2.8 s.
const maxTurnLag = 2600

// turnsNotHeld plays Ann's turns at a table with a turn timer, her page at
// the slow speed, until want of them came behind two plays or more not
// yet shown, and checks that each such turn showed within maxTurnLag.
func turnsNotHeld(t *testing.T, want int) {
	p := pacedTable(t, 60, true)
	p.until(`window.__ws.socks.length > 0`)
	p.do(chromedp.Evaluate[chromedp.Void](turnLags))
	p.until(fmt.Sprintf(`window.__lags.filter(([, b]) => b >= 2).length >= %d`, want))
	lags := eval[[][2]int](p, `window.__lags`)
	for i, l := range lags {
		if l[1] >= 2 && l[0] > maxTurnLag {
			t.Errorf("turn %d came behind %d plays not yet shown and showed %d ms after it began (want at most %d ms): the turn timer, running for someone else watching, ran meanwhile", i+1, l[1], l[0], maxTurnLag)
		}
	}
	t.Logf("turns [lag ms, backlog]: %v", lags)
}

// holdBacklog is the script that builds, on Ann's page, a backlog of
// views it has not shown: from her turn on, the views her connection
// receives are held from the page, her turns meanwhile played on that
// connection (the first legal action, as the page would send it), until
// at least %d views are held and the last gives her the turn. Then it
// gives them to the page all at once and notes in window.__lag the ms
// until the page showed them all with her actions offered.
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
    const t0 = performance.now();
    const done = () => document.querySelectorAll("#log li").length === want &&
      !!document.querySelector("#actions button[data-action]:not(:disabled)");
    new MutationObserver((_, mo) => {
      if (!done()) return;
      window.__lag = Math.round(performance.now() - t0);
      mo.disconnect();
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
    window.__released = t0;
    window.__held = held.length;
    for (const e of held) page(e);
  };
  document.querySelector("#actions button[data-action]:not(:disabled)").click();
})()`

// backlogLag opens a table (pacedTable), builds a backlog of at least
// views views on Ann's page ending with her turn (holdBacklog) and gives
// it to the page.
func backlogLag(t *testing.T, watched bool, views int) *seatTab {
	p := pacedTable(t, 60, watched)
	p.until(`!!document.querySelector("#actions button[data-action]:not(:disabled)")`)
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(holdBacklog, views)))
	p.until(`window.__released !== undefined`)
	return p
}

// maxBacklogLag bounds the time from a long backlog given to the page to
// its timed turn shown: the plays but the last show at once, the last
// pauses at most as at the fast speed (0.8 s after a trick).
const maxBacklogLag = 1500

// TestBrowserArlingtonTurnNotHeldByPace: at a table whose turn timer
// runs, a turn that comes behind a long backlog of plays the page has not
// shown yet (here at least 12) shows within a second or so, whatever the
// speed: the timer runs at the server from the turn's start. Each play
// paused as at the fast speed still held a 5 s turn back 17.7 s behind
// twenty lone tricks.
func TestBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	p := backlogLag(t, true, 12)
	p.until(`window.__lag !== undefined`)
	lag, held := eval[int](p, `window.__lag`), eval[int](p, `window.__held`)
	if lag > maxBacklogLag {
		t.Errorf("the turn came behind %d views not yet shown and showed %d ms after them (want at most %d ms): the turn timer ran meanwhile", held, lag, maxBacklogLag)
	}
	t.Logf("%d views held; the turn showed after %d ms", held, lag)
}

// TestBrowserArlingtonUntimedTurnPaced: with Ann alone with bots at a
// casual table the turn timer does not run, so her turn does not hurry
// the plays before it: at the slow speed she chose, the first pause
// alone (1.4 s after a play) outlasts the hurried backlog's whole wait.
func TestBrowserArlingtonUntimedTurnPaced(t *testing.T) {
	p := backlogLag(t, false, 4)
	p.until(`window.__lag !== undefined || performance.now() - window.__released > 1200`)
	if lag := eval[int](p, `window.__lag ?? -1`); lag >= 0 {
		t.Errorf("the turn showed %d ms after the %d views before it came, at the slow speed: the page hurried though no turn timer ran", lag, eval[int](p, `window.__held`))
	}
}

// TestLongBrowserArlingtonTurnNotHeldByPace (long: several turns at the
// slow speed): the same over four such turns.
func TestLongBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	turnsNotHeld(t, 4)
}
