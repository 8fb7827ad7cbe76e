package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// selChat is one line of the table page's chat.
const selChat = `#chat li`

// TestLongBrowserArlingtonChatOnce (long: a browser, several seconds under
// -race; make test-long runs it): every new subscription is sent the
// table's recent chat again (taking a seat says hello anew, and so does
// a page back after a dropped connection); the page shows each line once
// all the same. Before the fix the page appended the history again, so a
// spectator who sat down, or anyone whose connection dropped, saw every
// line twice.
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
	ann.do(chromedp.SendKeys(chromedp.CSS(`#chat-text`), "anyone for a game?"), chromedp.Click(chromedp.CSS(`#chat-form button`)))
	bob.open(e.srv.URL, id)
	bob.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	// Bob sits down: his new hello brings the history a second time.
	bob.join("Bob")
	bob.until(`window.__ws.chat >= 2`)
	if n := bob.count(selChat); n != 1 {
		t.Errorf("after taking a seat Bob's page shows %d chat lines, want 1", n)
	}
	// Ann's connection drops and comes back: the history a second time.
	ann.until(`window.__ws.chat >= 1`)
	ann.offline(true)
	ann.until(`window.__ws.socks.filter((s) => !s.url.endsWith("/ws-offline")).every((s) => s.readyState === WebSocket.CLOSED)`)
	ann.offline(false)
	ann.until(`window.__ws.chat >= 2`)
	if n := ann.count(selChat); n != 1 {
		t.Errorf("after a reconnect Ann's page shows %d chat lines, want 1", n)
	}
	// A new line after all that still shows, once.
	bob.do(chromedp.SendKeys(chromedp.CSS(`#chat-text`), "me!"), chromedp.Click(chromedp.CSS(`#chat-form button`)))
	for _, p := range []*seatTab{ann, bob} {
		p.until(`document.querySelectorAll(` + q(selChat) + `).length >= 2`)
		if n := p.count(selChat); n != 2 {
			t.Errorf("%s's page shows %d chat lines, want 2", p.name, n)
		}
	}
}
