package arlweb

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// leaveByAPI has Ann, seated through p at table id and playing, leave
// through the API while p stays connected: p watches her seat away.
func leaveByAPI(t *testing.T, p *seatTab, base, id string) {
	t.Helper()
	p.open(base, id)
	p.join("Ann") // the game starts against the bot
	p.until(`window.__ws.seat === 0 && window.__ws.count >= 0`)
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("Ann leaving: status %d", code)
	}
	p.until(connLine + ` === ` + q(leftWords))
}

// TestBrowserArlingtonAwayPageReplaced: a page watching its person away
// that another window of theirs replaces keeps its Play here when it
// then shows the game over, rather than the away words with a Come back
// that has no connection to act on.
func TestBrowserArlingtonAwayPageReplaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	leaveByAPI(t, p, e.srv.URL, id)
	// Her other windows open the seat, watching it away too: past
	// MaxSeatConns the oldest connection, p's, is replaced.
	p.do(chromedp.Evaluate[chromedp.Void](`window.others = []; for (let i = 0; i < ` + strconv.Itoa(table.MaxSeatConns) + `; i++) {
	  const w = new WebSocket(location.origin.replace("http", "ws") + "/api/arlington/tables/" + ` + q(id) + ` + "/ws");
	  w.onopen = () => w.send(JSON.stringify({type: "hello", since: -1, keepAway: true}));
	  others.push(w);
	}`))
	const replaced = "playing in another window"
	p.until(connLine + `.startsWith(` + q(replaced) + `)`)
	p.do(chromedp.Evaluate[chromedp.Void](`import("/arlington/connection.js").then((m) => { m.gameShown(true); window.__shown = true; })`))
	p.until(`window.__shown === true`)
	if c := eval[string](p, connLine); !strings.HasPrefix(c, replaced) || p.count("#come-back") != 0 || p.count("#play-here") != 1 {
		t.Errorf("a game over shown on a replaced page: the line says %q, Come back %d, Play here %d", c, p.count("#come-back"), p.count("#play-here"))
	}
}

// TestBrowserArlingtonAwayPageResyncs: a page watching its person away
// that finds events missing starts again with a new connection, as any
// page does, still watching (not marking the person back), rather than
// stopping with an empty log.
func TestBrowserArlingtonAwayPageResyncs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	leaveByAPI(t, p, e.srv.URL, id)
	socks := eval[int](p, `window.__ws.socks.length`)
	// The next view seems to leave a gap, as after messages lost.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const s = window.__ws.socks[window.__ws.socks.length - 1];
	  const on = s.onmessage;
	  s.onmessage = (ev) => {
	    const m = JSON.parse(ev.data);
	    if (m.type !== "view") return on(ev);
	    s.onmessage = on;
	    m.view.eventsFrom = 1e6;
	    on({ data: JSON.stringify(m) });
	  };
	})()`))
	p.until(`document.body.dataset.resyncs === "1"`)
	p.until(`window.__ws.socks.length > ` + strconv.Itoa(socks) + ` && window.__ws.socks[window.__ws.socks.length - 1].readyState === WebSocket.OPEN && document.querySelectorAll("#log li").length > 0`)
	p.until(connLine + `.includes("you left this table") && document.querySelector("#come-back")`)
	if away := eval[bool](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop()).then((r) => r.json()).then((s) => s.seats[0].away === true)`,
		chromedp.EvalAwaitPromise); !away {
		t.Error("the new connection brought Ann back to the table she left")
	}
}
