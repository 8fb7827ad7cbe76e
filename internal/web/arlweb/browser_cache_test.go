package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonLobbyAndBack: a person who goes from the table to
// the lobby is gone from the table at once, and Back brings them back.
// The browser keeps a page left for another in its back-forward cache,
// socket and all, so the table saw the person still connected while
// they were in the lobby (their turn waited out its timer). Now the
// page closes its connection on going into the cache, and connects
// anew when Back shows it again.
func TestBrowserArlingtonLobbyAndBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "", "random")
	p := seatTabIn(t, startBrowser(t), "Ben")
	p.open(e.srv.URL, id)
	p.join("Ben")
	watcher := e.client().dial(id, 0)
	present := func(want bool) func(srvMsg) bool {
		return func(m srvMsg) bool {
			return m.Type == "view" && len(m.Seats) > 0 && m.Seats[0].Present == want
		}
	}
	watcher.waitFor(present(true))
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`location.pathname === "/arlington/"`)
	watcher.waitFor(present(false))
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.until(`location.pathname.startsWith("/arlington/t/") && document.getElementById("conn").textContent === "connected"`)
	// The same document (the hooks' count of its sockets lives on): its
	// first socket closed, a second open.
	if got := eval[[]int](p, `window.__ws.socks.map((s) => s.readyState)`); len(got) != 2 || got[0] != 3 || got[1] != 1 {
		t.Errorf("Back: the page's sockets are %v (readyState), want the cached page's first closed (3) and a second open (1): %s", got, p.diag())
	}
	watcher.waitFor(present(true))
}

// lobbyAndBack takes the page to the lobby and Back, and waits for the
// first view on the connection Back opened (the page's second socket).
func lobbyAndBack(t *testing.T, p *seatTab, base string) {
	t.Helper()
	p.do(chromedp.Navigate(base + "/arlington/"))
	p.until(`location.pathname === "/arlington/"`)
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.until(`location.pathname.startsWith("/arlington/t/") && window.__ws.viewSock === 1`)
}

// backLine is what the table page shows after Back: its connection
// line, whether it offers Come back, and whether the first view on the
// new connection had the person's seat away.
type backLine struct {
	Text     string
	ComeBack bool
	Away     bool
}

const readBackLine = `({ text: document.getElementById("conn").textContent, comeBack: !!document.getElementById("come-back"),
  away: window.__ws.seats.some((s) => s.seat === window.__ws.seat && s.away) })`

// TestBrowserArlingtonBackWatchingAway: a page watching its person away
// (they left in another window: a bot plays their seat, the line offers
// Come back) goes to the lobby and Back: it connects again still
// watching (keepAway), and the line still says they left, with Come
// back. It said "connected" with no Come back while the bot played on:
// the table kept them away, so the first view changed nothing the page
// followed.
func TestBrowserArlingtonBackWatchingAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	// Ann leaves through the API, as from another window.
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`, chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("leave: %d", code)
	}
	p.until(`!!document.getElementById("come-back")`)
	lobbyAndBack(t, p, e.srv.URL)
	got := eval[backLine](p, readBackLine)
	if !got.Away || !got.ComeBack || !strings.Contains(got.Text, "you left this table") {
		t.Errorf("Back to a page watching its person away: %+v; want them still away, the line saying they left, with Come back", got)
	}
}

// TestBrowserArlingtonBackAfterLeave: Leave pressed, and the page goes to
// the lobby before the view answering it came (the table took the
// Leave; this page had not yet seen it): Back connects keeping the
// person away, and the page stops as after any Leave, with Come back.
// It connected with a plain hello, which brought them back to the
// table they had just left.
func TestBrowserArlingtonBackAfterLeave(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`!document.getElementById("leave").hidden && window.__ws.count > 0`)
	// The page stops hearing its connection (the hooks still read it),
	// so the view showing Ann away does not reach it before it leaves.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => { window.__ws.socks[window.__ws.viewSock].onmessage = () => {}; document.getElementById("leave").click(); })()`))
	p.until(`window.__ws.seats.some((s) => s.seat === window.__ws.seat && s.away)`)
	lobbyAndBack(t, p, e.srv.URL)
	got := eval[backLine](p, readBackLine)
	if !got.Away || !got.ComeBack || !strings.Contains(got.Text, "you left this table") {
		t.Errorf("Back after a Leave not yet answered: %+v; want them still away, the page stopped with Come back", got)
	}
}

// TestBrowserArlingtonBackAfterLeaveElsewhere: Ann goes from the table
// to the lobby, leaves the table there (as from another window: the
// table's Leave through the API), and comes Back to the table page: the
// Leave stands. The page shows her away, saying she left, with Come
// back, and the table keeps her seat away. The page back from the cache
// connected with a plain hello, which brought her back to the table she
// had left.
func TestBrowserArlingtonBackAfterLeaveElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`window.__ws.count > 0 && document.getElementById("conn").textContent === "connected"`)
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`location.pathname === "/arlington/"`)
	if code := eval[int](p, `fetch("/api/arlington/tables/`+id+`/leave", { method: "POST" }).then((r) => r.status)`, chromedp.EvalAwaitPromise); code != 200 {
		t.Fatalf("leave: %d", code)
	}
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.until(`location.pathname.startsWith("/arlington/t/") && window.__ws.viewSock === 1`)
	got := eval[backLine](p, readBackLine)
	if !got.Away || !got.ComeBack || !strings.Contains(got.Text, "you left this table") {
		t.Errorf("Back after a Leave made in the lobby: %+v; want her still away, the line saying she left, with Come back", got)
	}
	annSeat(t, e, id, "after Back", true)
}

// TestLongBrowserArlingtonBackAfterTurnTimedOut (long: a turn timer of
// 5 s runs out): Ann goes to the lobby during her turn at a timed table
// while Bob waits, connected; the timer runs out and marks her away (a
// bot plays her seat), and she comes Back. She never pressed Leave, so
// she is back at the table: "connected", her seat not away. Back
// connected keeping every person away, which kept her away, told she
// had left. The quick version is internal/table's
// TestSubscribeKeepAwayTimedOut.
func TestLongBrowserArlingtonBackAfterTurnTimedOut(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	var got created
	cfg := table.Config{Players: 2, Bots: []string{"", ""}, TurnSeconds: table.MinTurnSeconds}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	bob := e.client()
	bob.join(got.ID, "Bob")
	bw := bob.dial(got.ID, -1)
	// Ann's turn (Bob's first, if it is his, is played by his timer).
	p.until(`window.__ws.seat === 0 && window.__ws.toMove === 0 && document.getElementById("conn").textContent === "connected"`)
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`location.pathname === "/arlington/"`)
	bw.waitFor(func(m srvMsg) bool { return m.Type == "view" && len(m.Seats) > 0 && m.Seats[0].Away })
	p.do(chromedp.Evaluate[chromedp.Void](`history.back()`))
	p.until(`location.pathname.startsWith("/arlington/t/") && window.__ws.viewSock === 1`)
	line := eval[backLine](p, readBackLine)
	if line.Away || line.ComeBack || line.Text != "connected" {
		t.Errorf("Back after her turn's timer ran out in the lobby (no Leave): %+v; want her back, the line saying connected", line)
	}
	annSeat(t, e, got.ID, "after Back", false)
}
