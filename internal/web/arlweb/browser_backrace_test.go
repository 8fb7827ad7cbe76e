package arlweb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// holdHellos is a script for a tab's page: while window.__hold is set,
// each hello the page sends waits until window.__release (counted in
// window.__held), as a slow network would hold it; window.__views counts
// the views the page receives.
const holdHellos = `(() => {
  const W = window.WebSocket;
  window.__held = 0;
  window.__views = 0;
  function Held(url, protocols) {
    const s = new W(url, protocols);
    const send = s.send;
    s.send = (d) => {
      if (!window.__hold || !String(d).includes('"hello"')) return send(d);
      window.__held++;
      (async () => {
        while (!window.__release) await new Promise((done) => setTimeout(done, 20));
        if (s.readyState === W.OPEN) send(d);
      })();
    };
    s.addEventListener("message", (ev) => { if (String(ev.data).includes('"type":"view"')) window.__views++; });
    return s;
  }
  Held.prototype = W.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Held[k] = W[k];
  window.WebSocket = Held;
})()`

// TestBrowserArlingtonSlowBackWordKeepsLeave: Ann left in window A and
// came back in window B, which tells A; A's connection is slow, and
// before it reaches the table Ann presses Leave again in B. A's late
// connection must not bring her back: it watches her seat away, offering
// Come back, and B stays stopped.
func TestBrowserArlingtonSlowBackWordKeepsLeave(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{HelloWait: time.Minute}) // the held hello is the page's, not the server's default
	id := e.client().create("", "")
	bctx := startBrowser(t)
	a := seatTabIn(t, bctx, "Ann-A")
	a.beforeLoad(holdHellos)
	b := twoWindows(t, e, a, id)
	leaveInA(t, e, a, b, id)
	socks := eval[int](a, `window.__ws.socks.length`)
	a.do(chromedp.Evaluate[chromedp.Void](`window.__hold = true`))
	// Come back in B: A is told, and its connection's hello is held.
	b.do(chromedp.Click(chromedp.CSS("#come-back")))
	b.until(connLine + ` === "connected" && !window.__ws.seats[0].away`)
	a.until(`window.__held > 0`)
	// Ann leaves again in B while A's hello is on its way.
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
	b.until(connLine + ` === ` + q(leftWords))
	annSeat(t, e, id, "once she left again in B", true)
	views := eval[int](a, `window.__views`)
	a.do(chromedp.Evaluate[chromedp.Void](`window.__release = true`))
	// A's connection answered: its first view came.
	a.until(fmt.Sprintf(`window.__views > %d && window.__ws.socks.length > %d && window.__ws.viewSock === window.__ws.socks.length - 1`, views, socks))
	annSeat(t, e, id, "after A's late connection", true)
	if c := eval[string](a, connLine); c != leftWords {
		t.Errorf("A after its late connection: %q; want %q", c, leftWords)
	}
	if w := eval[string](a, `document.body.dataset.backWord`); w != "not back" {
		t.Errorf("A's word: %q; want %q", w, "not back")
	}
	if c := eval[string](b, connLine); c != leftWords {
		t.Errorf("B after A's late connection: %q; want %q", c, leftWords)
	}
	// Come back in A, watching, brings her back.
	a.do(chromedp.Click(chromedp.CSS("#come-back")))
	a.until(connLine + ` === "connected" && !window.__ws.seats[0].away`)
	annSeat(t, e, id, "once she came back in A", false)
}

// holdJoin is a script for a tab's page: each answer to a join waits
// until window.__release (window.__held counts them); window.__answered
// is set as the page is given it.
const holdJoin = `(() => {
  const f = window.fetch;
  window.__held = 0;
  window.fetch = async (...args) => {
    const r = await f(...args);
    if (String(args[0]).endsWith("/join")) {
      window.__held++;
      while (!window.__release) await new Promise((done) => setTimeout(done, 20));
      window.__answered = true;
    }
    return r;
  };
})()`

// TestBrowserArlingtonJoinAnswerKeepsLeave: the page subscribes again
// once its join is answered. A Leave that came first (the seat's view
// came before the answer, and the game started) is not undone: a page
// stopped by its own Leave stays stopped, and one whose person left
// elsewhere (here through the API) watches the seat away.
func TestBrowserArlingtonJoinAnswerKeepsLeave(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		here bool // Leave pressed on the page itself
	}{{"here", true}, {"elsewhere", false}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, Limits{})
			id := e.client().create("", "")
			a := seatTabIn(t, startBrowser(t), "Ann")
			a.beforeLoad(holdJoin)
			a.beforeLoad(holdHellos) // for its view count only
			a.open(e.srv.URL, id)
			a.do(chromedp.SendKeys(chromedp.CSS(selName), "Ann"), chromedp.Click(chromedp.CSS(selJoinSend)))
			a.until(`window.__held > 0 && window.__ws.seat === 0`)
			e.client().join(id, "Bob") // the game starts
			a.until(`window.__ws.count >= 0`)
			if c.here {
				a.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
			} else if code := eval[int](a, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
				chromedp.EvalAwaitPromise); code != 200 {
				t.Fatalf("Ann leaving: status %d", code)
			}
			a.until(connLine + ` === ` + q(leftWords))
			annSeat(t, e, id, "once she left", true)
			socks, views := eval[int](a, `window.__ws.socks.length`), eval[int](a, `window.__views`)
			a.do(chromedp.Evaluate[chromedp.Void](`window.__release = true`))
			a.until(`window.__answered === true`)
			if c.here {
				// A stopped page opens no connection (one would bring her back).
				if n := eval[int](a, `window.__ws.socks.length`); n != socks {
					t.Errorf("after the join's answer the stopped page opened %d connections; want none", n-socks)
				}
			} else {
				a.until(fmt.Sprintf(`window.__views > %d`, views)) // the new subscription's first view
			}
			annSeat(t, e, id, "after the join's answer", true)
			if w := eval[string](a, connLine); w != leftWords {
				t.Errorf("after the join's answer: %q; want %q", w, leftWords)
			}
		})
	}
}

// TestBrowserArlingtonGoneTableNoComeBack: a page watching its person
// away whose table closes says the table is gone, and a game-over shown
// after that (a paced render crossing the end: the page's own gameShown
// called as render calls it) does not put back the away words with a
// Come back that would lead nowhere.
func TestBrowserArlingtonGoneTableNoComeBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann") // the game starts
	p.until(`window.__ws.seat === 0 && window.__ws.count >= 0`)
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("Ann leaving: status %d", code)
	}
	p.until(connLine + ` === ` + q(leftWords))
	e.hub.Close()
	const gone = "this table has ended or is gone"
	p.until(connLine + `.startsWith(` + q(gone) + `)`)
	p.do(chromedp.Evaluate[chromedp.Void](`import("/arlington/connection.js").then((m) => { m.gameShown(true); m.gameShown(false); window.__shown = true; })`))
	p.until(`window.__shown === true`)
	if c := eval[string](p, connLine); !strings.HasPrefix(c, gone) || p.count("#come-back") != 0 {
		t.Errorf("a game over shown once the table was gone: the connection line says %q, Come back buttons %d", c, p.count("#come-back"))
	}
}

// TestBrowserArlingtonLateHelloKeepsAway: a page watching Ann away
// connects again (here its own close after missed events, as takeEvents
// closes it) with a hello that keeps her away, and the hello is late:
// the server's wait for it (HelloWait) ends first and subscribes the
// connection by itself. That subscription must not bring her back, nor
// the late hello after it: the page goes on watching her seat away,
// saying so. The server's own subscription counted as a hello without
// keepAway, and brought her back before the page's hello came.
func TestBrowserArlingtonLateHelloKeepsAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{HelloWait: 300 * time.Millisecond})
	id := e.client().create("", "")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.beforeLoad(holdHellos)
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`window.__ws.seat === 0`)
	// Bob never plays (no turn timer without bots): the game waits for
	// him while the test runs, and the page's words stay those of play.
	e.client().join(id, "Bob")
	p.until(`window.__ws.count >= 0`)
	annLeaves(t, p)
	p.until(connLine + ` === ` + q(leftWords))
	socks, views := eval[int](p, `window.__ws.socks.length`), eval[int](p, `window.__views`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__hold = true;
	  import("/arlington/connection.js").then((m) => { m.conn.resync = true; m.conn.ws.close(); })`))
	// The new connection's hello is held; the server's wait for it ends
	// and its own subscription's first view comes.
	p.until(fmt.Sprintf(`window.__held > 0 && window.__views > %d && window.__ws.socks.length > %d && window.__ws.viewSock === window.__ws.socks.length - 1`, views, socks))
	annSeat(t, e, id, "once the server subscribed the connection without its hello", true)
	views = eval[int](p, `window.__views`)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__release = true`))
	p.until(fmt.Sprintf(`window.__views > %d`, views)) // the late hello's view
	annSeat(t, e, id, "after the late hello", true)
	if c := eval[string](p, connLine); c != leftWords {
		t.Errorf("after the late hello: %q; want %q", c, leftWords)
	}
}

// TestBrowserArlingtonLateHelloReloadComesBack: Ann left, and reloads
// the page to come back; its hello is late, so the server subscribes the
// connection by itself first (keeping her away: it has not asked), and
// the connection drops before the hello comes. The page must not take
// that first view's seat away for her Leave: it connects again, with a
// hello that brings her back, and plays. Taken so, the page stopped as
// after a Leave on the drop, and she stayed away until she found Come
// back.
func TestBrowserArlingtonLateHelloReloadComesBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{HelloWait: 300 * time.Millisecond})
	id := e.client().create("", "")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.beforeLoad(holdHellos)
	p.beforeLoad(`window.__hold = sessionStorage.getItem("hold") === "1"`)
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`window.__ws.seat === 0`)
	e.client().join(id, "Bob")
	p.until(`window.__ws.count >= 0`)
	annLeaves(t, p)
	p.until(connLine + ` === ` + q(leftWords))
	p.do(chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem("hold", "1")`), chromedp.Reload())
	// The reloaded page's hello is held; the server's own subscription's
	// view comes.
	p.until(`window.__held > 0 && window.__views > 0`)
	annSeat(t, e, id, "once the server subscribed the reloaded page's connection by itself", true)
	socks := eval[int](p, `window.__ws.socks.length`)
	p.do(chromedp.Evaluate[chromedp.Void](`sessionStorage.removeItem("hold"); window.__hold = false; window.__ws.drop(); window.__release = true`))
	p.until(fmt.Sprintf(`(window.__ws.socks.length > %d && window.__ws.viewSock === window.__ws.socks.length - 1) || !!document.getElementById("come-back")`, socks))
	if c := eval[string](p, connLine); c != "connected" {
		t.Fatalf("the reloaded page, its first connection dropped before its hello came: %q; want it connected again, playing", c)
	}
	p.until(`!window.__ws.seats[0].away`)
	annSeat(t, e, id, "after the reloaded page connected again", false)
}

// annLeaves has the person of page p leave its table through the API,
// as from another window, while p stays connected.
func annLeaves(t *testing.T, p *seatTab) {
	t.Helper()
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("Ann leaving: status %d", code)
	}
}
