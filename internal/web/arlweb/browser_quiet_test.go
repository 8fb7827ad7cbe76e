package arlweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonQuietCheck (long: the page hears nothing for
// 20 s of its clock, run twice as fast here, then waits 3 s for its
// check's answer): the page's server stops without closing anything (its
// process paused while another server takes its table over), and the
// page is shown all along: no wake, no clock jump. A line said
// meanwhile does not reach it. Having heard nothing for 20 s, the page
// checks its connection with a ping, goes unanswered, drops that
// connection and connects anew: the line shows. Before, the page kept
// the silent connection until a proxy's read timeout closed it, or for
// good.
func TestLongBrowserArlingtonQuietCheck(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := frozenWatcher(t)
	// The page's clock twice as fast: its 5 s looks see 10 s pass, less
	// than a sleep's 15 s.
	eval[bool](p, fakeNow)
	p.do(chromedp.Evaluate[chromedp.Void](`setInterval(() => { window.__now += 100; }, 50)`))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	type quiet struct{ Pings, Socks int }
	got := eval[quiet](p, `({ pings: window.__pings, socks: window.__ws.socks.length })`)
	if got.Pings != 1 || got.Socks != 2 {
		t.Errorf("the page sent %d pings on the silent connection and opened %d connections in all; want one check and one new connection", got.Pings, got.Socks)
	}
}

// quietLooks advances the page's fake clock (fakeNow) by each of ds in
// turn, running one of its 5 s looks (hideable's window.__ticks) after
// each, and returns the pings sent (countPings). Each step is less than
// a sleep's 15 s: only the quiet check may ping.
func quietLooks(ds ...int) string {
	return fmt.Sprintf(`(() => { for (const d of %s) { window.__now += d; window.__ticks[0](); } return window.__pings; })()`,
		strings.ReplaceAll(fmt.Sprint(ds), " ", ","))
}

// heardNow makes the page hear something at its fake clock's now (a
// line said by another spectator), from which its silence counts.
func heardNow(t *testing.T, e *env, p *seatTab, id string) {
	t.Helper()
	n := p.count(selChat)
	w := e.client().dial(id, -1)
	w.next()
	w.send(map[string]any{"type": "chat", "text": "now"})
	p.until(fmt.Sprintf(`document.querySelectorAll(%s).length > %d`, q(selChat), n))
}

// TestBrowserArlingtonQuietCheck, the quick version of the long one, its
// clock driven by the test: a shown page that has heard nothing for 20 s
// checks its connection with one ping, not before; a live connection
// answers with a pong and is kept.
func TestBrowserArlingtonQuietCheck(t *testing.T) {
	t.Parallel()
	e, p, id := watcherPage(t)
	eval[bool](p, fakeNow)
	heardNow(t, e, p, id)
	if n := eval[int](p, quietLooks(10000, 10000)); n != 0 {
		t.Fatalf("the page pinged %d times having heard nothing for 20 s, want none yet", n)
	}
	if n := eval[int](p, quietLooks(1000)); n != 1 {
		t.Fatalf("the page pinged %d times having heard nothing for 21 s, want one check", n)
	}
	p.until(`window.__pongs === 1`)
	if n := eval[int](p, `window.__ws.socks.length`); n != 1 {
		t.Errorf("the page opened %d connections; its live one answered the check and is kept", n)
	}
}

// dropSent makes the page's open sockets drop what it sends of kind
// (an action, a chat line), counting it in window.__dropped: its answer
// never comes, as behind a slow database write.
func dropSent(kind string) string {
	return fmt.Sprintf(`(() => { for (const s of window.__ws.socks) { const send = s.send;
		s.send = (d) => { if (JSON.parse(d).type === %q) window.__dropped = (window.__dropped || 0) + 1; else send(d); }; } return true })()`, kind)
}

// watcherPage is a spectator's page of a new table, connected, with the
// test's hooks on its timers (hideable) and its pings counted.
func watcherPage(t *testing.T) (*env, *seatTab, string) {
	t.Helper()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.beforeLoad(hideable)
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	eval[bool](p, countPings)
	return e, p, id
}

// seatedPage is Ann's page seated against a bot, with the test's hooks
// on its timers (hideable) and its pings counted, a play of hers legal.
func seatedPage(t *testing.T) (*env, *seatTab, string) {
	t.Helper()
	e := newEnv(t, Limits{Burst: 10000})
	tbl, _, p := openTable(t, e, "Ann", longGame, "", "random")
	p.beforeLoad(hideable)
	p.open(e.srv.URL, tbl.ID) // again, with the hook
	p.join("Ann")
	p.until(`document.querySelector(` + q(selLegal) + `) !== null`)
	eval[bool](p, countPings)
	return e, p, tbl.ID
}

// actingPage is a seated page whose actions' answers never come
// (dropSent), its clock the test's, having heard something now.
func actingPage(t *testing.T) (*env, *seatTab, string) {
	t.Helper()
	e, p, id := seatedPage(t)
	eval[bool](p, dropSent("action"))
	eval[bool](p, fakeNow)
	heardNow(t, e, p, id)
	return e, p, id
}

// TestBrowserArlingtonQuietWhileActing: a page whose action awaits its
// answer does not take the silence for a server gone: the server reads
// a connection's messages in order, so a ping sent behind an action
// whose database write is slow is answered late, and the check dropped
// a live connection. The action's answer held back (the page keeps the
// message), 21 s of silence send no ping, nor does 59 s after the
// action; past 60 s after it (what the server may spend on an action
// and one move before it) the check is made.
func TestBrowserArlingtonQuietWhileActing(t *testing.T) {
	t.Parallel()
	_, p, _ := actingPage(t)
	if n := eval[int](p, quietLooks(10000, 5000)); n != 0 {
		t.Fatalf("the page pinged %d times having heard nothing for 15 s, want none", n)
	}
	// The person acts after 15 s of silence; the answer does not come.
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(` + q(selLegal) + `).click()`))
	p.until(`window.__dropped === 1`)
	if n := eval[int](p, quietLooks(5000, 1000)); n != 0 {
		t.Fatalf("the page pinged %d times after 21 s of silence while its action awaited its answer, want none", n)
	}
	if n := eval[int](p, quietLooks(10000, 10000, 10000, 10000, 10000, 3000)); n != 0 {
		t.Fatalf("the page pinged %d times 59 s after its action, still unanswered; want none yet", n)
	}
	if n := eval[int](p, quietLooks(2000)); n != 1 {
		t.Fatalf("the page pinged %d times 61 s after its action, still unanswered; want one check", n)
	}
}

// TestBrowserArlingtonQuietAfterAnswer: an action answered no longer
// holds the quiet check back: the page's note of its action stayed set
// after the answer, so for 60 s after every action a silent server went
// unnoticed (about 63 s where the check takes 23).
func TestBrowserArlingtonQuietAfterAnswer(t *testing.T) {
	t.Parallel()
	e, p, id := seatedPage(t)
	eval[bool](p, fakeNow)
	p.play()
	heardNow(t, e, p, id)
	if n := eval[int](p, quietLooks(10000, 10000, 1000)); n != 1 {
		t.Fatalf("the page pinged %d times after 21 s of silence, its action answered; want one check", n)
	}
}

// TestBrowserArlingtonShownWhileActing: only the quiet check waits for
// an answer awaited; being shown again, and the network's return after
// its loss, check at once even while an action awaits its answer: a
// sleep or a network change is what leaves a socket dead with an action
// unanswered, and held back those checks left such a page waiting a
// minute (saying "offline" with the network back) where it reconnected
// in 3 s.
func TestBrowserArlingtonShownWhileActing(t *testing.T) {
	t.Parallel()
	_, p, _ := actingPage(t)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(` + q(selLegal) + `).click()`))
	p.until(`window.__dropped === 1`)
	shown := `(() => { window.__hidden = true; document.dispatchEvent(new Event("visibilitychange"));
		window.__hidden = false; document.dispatchEvent(new Event("visibilitychange")); return window.__pings; })()`
	if n := eval[int](p, shown); n != 1 {
		t.Fatalf("the page shown again pinged %d times while its action awaited its answer, want one check at once", n)
	}
	p.until(`window.__pongs >= 1`)
	back := `(() => { window.dispatchEvent(new Event("offline")); window.dispatchEvent(new Event("online")); return window.__pings; })()`
	if n := eval[int](p, back); n != 2 {
		t.Fatalf("the network gone and back: %d pings in all while an action awaited its answer, want a second check at once", n)
	}
	p.until(`window.__pongs >= 2 && document.getElementById("conn").textContent === "connected"`)
}

// TestBrowserArlingtonQuietWhileChatting: a chat line awaiting its
// answer holds the quiet check back as an action does: the server
// stores the line before it reads the next message, so a ping behind a
// slow chat write was answered late and the page dropped a live
// connection.
func TestBrowserArlingtonQuietWhileChatting(t *testing.T) {
	t.Parallel()
	e, p, id := watcherPage(t)
	eval[bool](p, dropSent("chat"))
	eval[bool](p, fakeNow)
	heardNow(t, e, p, id)
	if n := eval[int](p, quietLooks(10000, 5000)); n != 0 {
		t.Fatalf("the page pinged %d times having heard nothing for 15 s, want none", n)
	}
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("chat-text").value = "slow one";
		document.getElementById("chat-form").requestSubmit()`))
	p.until(`window.__dropped === 1`)
	if n := eval[int](p, quietLooks(5000, 1000)); n != 0 {
		t.Fatalf("the page pinged %d times after 21 s of silence while its chat line awaited its answer, want none", n)
	}
	if n := eval[int](p, quietLooks(10000, 10000, 10000, 10000, 10000, 5000)); n != 1 {
		t.Fatalf("the page pinged %d times 61 s after its chat line, still unanswered; want one check", n)
	}
}
