package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// selChat is one line of the table page's chat.
const selChat = `#chat li`

// say sends text to the table's chat from p's page, as a player types it.
func (p *seatTab) say(text string) {
	p.do(chromedp.SendKeys(chromedp.CSS(`#chat-text`), text), chromedp.Click(chromedp.CSS(`#chat-form button`)))
}

// TestLongBrowserArlingtonChatOnce (long: a browser, several seconds under
// -race; make test-long runs it): a new subscription (taking a seat says
// hello anew, and so does a page back after a dropped connection) names
// the last chat line the page has, so the server sends each line once
// and the page shows it once.
func TestLongBrowserArlingtonChatOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	bctx := startBrowser(t)
	ann, bob := newSeatTab(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	ann.say("anyone for a game?")
	bob.open(e.srv.URL, id)
	bob.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	// Bob sits down: his new hello is answered with his seat's view.
	bob.join("Bob")
	bob.until(`window.__ws.seat === 1`)
	ann.until(`window.__ws.chat >= 1`)
	// Ann's connection drops and comes back: a view on the new one.
	ann.offline(true)
	ann.until(`window.__ws.socks.filter((s) => !s.url.endsWith("/ws-offline")).every((s) => s.readyState === WebSocket.CLOSED)`)
	ann.offline(false)
	ann.until(`window.__ws.viewSock === window.__ws.socks.length - 1 && window.__ws.socks[window.__ws.viewSock].readyState === WebSocket.OPEN`)
	for _, p := range []*seatTab{ann, bob} {
		if got := eval[int](p, `window.__ws.chat`); got != 1 {
			t.Errorf("%s's page was sent the line %d times, want once", p.name, got)
		}
		if n := p.count(selChat); n != 1 {
			t.Errorf("%s's page shows %d chat lines, want 1", p.name, n)
		}
	}
	// A new line after all that still shows, once.
	bob.say("me!")
	for _, p := range []*seatTab{ann, bob} {
		p.until(`document.querySelectorAll(` + q(selChat) + `).length >= 2`)
		if n := p.count(selChat); n != 2 {
			t.Errorf("%s's page shows %d chat lines, want 2", p.name, n)
		}
	}
}

// TestLongBrowserArlingtonSpectatorChat (long: a browser): a spectator's
// chat line is marked as a spectator's on every page: a spectator's name
// is not checked, so it must not pass for a seated player's.
func TestLongBrowserArlingtonSpectatorChat(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	tbl, bctx, ann := openTable(t, e, "Ann", 0, "", "medium")
	ann.join("Ann")
	ann.say("good luck")
	watcher := newSeatTab(t, bctx, "Ann")
	watcher.open(e.srv.URL, tbl.ID) // and stays a spectator
	watcher.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	watcher.say("fold now")
	for _, p := range []*seatTab{ann, watcher} {
		p.until(`document.querySelectorAll(` + q(selChat) + `).length === 2`)
		lines := eval[[]string](p, `[...document.querySelectorAll(`+q(selChat)+`)].map((li) => li.textContent)`)
		if lines[0] != "Ann: good luck" || !strings.HasSuffix(lines[1], " (watching): fold now") {
			t.Errorf("%s's page shows %q, want Ann's line as hers and the other marked as watching", p.name, lines)
		}
	}
}
