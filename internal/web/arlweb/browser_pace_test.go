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
// page's own control, as a person picks it) and takes her seat.
func pacedTable(t *testing.T, turnSeconds int) *seatTab {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	var got created
	cfg := table.Config{Players: 4, Bots: []string{"", "random", "random", "random"}, Target: longGame, TurnSeconds: turnSeconds}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
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
// late at a table of bots).
func TestBrowserArlingtonChatNotPaced(t *testing.T) {
	p := pacedTable(t, -1)
	// Ann plays her first action each turn until the page holds plays it
	// has not shown yet; then she sends a line, noting how many events
	// the page had received, and the page notes how many it had shown
	// when the line appeared.
	p.until(fmt.Sprintf(`(() => {
	  if (window.__chatFrom !== undefined) return true;
	  if (window.__ws.count > %[1]s + 1 && %[1]s > 0) {
	    window.__chatFrom = window.__ws.count;
	    new MutationObserver((_, mo) => {
	      if (!document.querySelector("#chat li")) return;
	      window.__shownAtChat = %[1]s;
	      mo.disconnect();
	    }).observe(document.getElementById("chat"), { childList: true });
	    document.getElementById("chat-text").value = "hello";
	    document.querySelector("#chat-form button[type=submit]").click();
	    return true;
	  }
	  const b = document.querySelector(%[2]q);
	  if (b && !b.disabled) b.click();
	  return false;
	})()`, shownEvents, selLegal))
	p.until(`window.__shownAtChat !== undefined`)
	from := eval[int](p, `window.__chatFrom`)
	shown := eval[int](p, `window.__shownAtChat`)
	if shown >= from {
		t.Errorf("the chat line showed once the page had shown %d events; it was sent with %d received: it waited behind the paced plays", shown, from)
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
  s.addEventListener("message", (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type !== "view" || !m.view || L.arrived >= 0) return;
    if (m.view.toMove === m.seat && m.legal.length) {
      L.arrived = performance.now();
      L.backlog = m.view.eventsFrom - ` + shownEvents + `;
    }
  });
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
// yet shown: each pauses at most as at the fast speed (0.35 s after a
// play, 0.8 s after a trick). At the slow speed two plays alone pause
// 2.8 s.
const maxTurnLag = 2600

// turnsNotHeld plays Ann's turns at a table with a turn timer, her page at
// the slow speed, until want of them came behind two plays or more not
// yet shown, and checks that each such turn showed within maxTurnLag.
func turnsNotHeld(t *testing.T, want int) {
	p := pacedTable(t, 60)
	p.until(`window.__ws.socks.length > 0`)
	p.do(chromedp.Evaluate[chromedp.Void](turnLags))
	p.until(fmt.Sprintf(`window.__lags.filter(([, b]) => b >= 2).length >= %d`, want))
	lags := eval[[][2]int](p, `window.__lags`)
	for i, l := range lags {
		if l[1] >= 2 && l[0] > maxTurnLag {
			t.Errorf("turn %d came behind %d plays not yet shown and showed %d ms after it began (want at most %d ms): the turn timer ran meanwhile", i+1, l[1], l[0], maxTurnLag)
		}
	}
	t.Logf("turns [lag ms, backlog]: %v", lags)
}

// TestBrowserArlingtonTurnNotHeldByPace: at a table with a turn timer,
// a turn that comes while the page still paces the plays before it shows
// within a few seconds, whatever the speed: the timer runs at the server
// from the turn's start. At the slow speed five bots' plays took up to
// 14 s of a 30 s turn before the page showed it.
func TestBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	turnsNotHeld(t, 1)
}

// TestLongBrowserArlingtonTurnNotHeldByPace (long: several turns at the
// slow speed): the same over four such turns.
func TestLongBrowserArlingtonTurnNotHeldByPace(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	turnsNotHeld(t, 4)
}
