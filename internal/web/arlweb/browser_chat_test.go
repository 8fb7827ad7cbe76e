package arlweb

import (
	"fmt"
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
	t.Parallel()
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
	t.Parallel()
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

// TestBrowserArlingtonChatKeepsPlace: a person who scrolled the chat up
// to read older lines keeps their place when a new line comes (the list
// jumped to the newest), and a "New messages" button shows; pressing it
// takes the list down to the new line and the button goes. At its end
// the list follows new lines, with no button. The lines come from
// spectators' connections (each may say 5 lines at once), long enough
// that a few fill the list on a phone.
func TestBrowserArlingtonChatKeepsPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	long := strings.Repeat("a long line about the last hand ", 6)
	talk := func(n int) {
		w := e.client().dial(id, -1)
		w.next()
		for i := range n {
			w.send(map[string]any{"type": "chat", "text": fmt.Sprintf("%d %s", i, long)})
		}
	}
	talk(5)
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 5`)
	type list struct {
		Top, Height, Scroll float64
		First               string
		Cue                 bool
	}
	read := func() list {
		return eval[list](p, `(() => { const b = document.getElementById("chat"); const top = b.getBoundingClientRect().top;
		  const first = [...b.children].find((li) => li.getBoundingClientRect().bottom > top);
		  return { top: b.scrollTop, height: b.clientHeight, scroll: b.scrollHeight, first: first ? first.dataset.key + "@" + Math.round(first.getBoundingClientRect().top - top) : "",
		    cue: !!document.querySelector("#chat-new:not([hidden])") }; })()`)
	}
	at := read()
	if at.Scroll <= at.Height+1 {
		t.Fatalf("5 long lines do not fill the chat's list (%.0f px of %.0f): the test cannot scroll it", at.Scroll, at.Height)
	}
	if at.Top+at.Height < at.Scroll-4 || at.Cue {
		t.Fatalf("the list is not at its newest line as lines come (at %.0f + %.0f of %.0f px), or says new messages (%v)", at.Top, at.Height, at.Scroll, at.Cue)
	}
	// Ann scrolls up to the first line; a new line comes.
	eval[bool](p, `(() => { document.getElementById("chat").scrollTop = 0; return true; })()`)
	before := read()
	talk(1)
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 6`)
	after := read()
	if after.First != before.First || after.Top != before.Top {
		t.Errorf("Ann read the chat from its top (first line in sight %s, at %.0f px); a new line moved it to %s, at %.0f px", before.First, before.Top, after.First, after.Top)
	}
	if !after.Cue {
		t.Fatalf("a line came while Ann read older ones: no \"New messages\" button")
	}
	p.shot("chat-new-messages")
	p.do(chromedp.Click(chromedp.CSS("#chat-new")))
	pressed := read()
	if pressed.Top+pressed.Height < pressed.Scroll-4 || pressed.Cue {
		t.Errorf("after \"New messages\" the list is at %.0f + %.0f of %.0f px, the button shown: %v; want its end, the button gone", pressed.Top, pressed.Height, pressed.Scroll, pressed.Cue)
	}
}

// TestBrowserArlingtonChatNewKeyboard: on a phone (390 px wide) "New
// messages" covers none of the list's lines; its name is said without
// the arrow; pressed with Enter, it takes the list to its end and the
// focus to the list (it fell to the page's top as the button hid).
func TestBrowserArlingtonChatNewKeyboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.do(chromedp.EmulateViewport(390, 844))
	p.open(e.srv.URL, id)
	long := strings.Repeat("a long line about the last hand ", 6)
	// Two speakers: a player's chat takes 5 lines at once.
	talk := func(from, n int) {
		w := e.client().dial(id, -1)
		w.next()
		for i := range n {
			w.send(map[string]any{"type": "chat", "text": fmt.Sprintf("%d %s", from+i, long)})
		}
	}
	talk(0, 5)
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 5`)
	eval[bool](p, `(() => { document.getElementById("chat").scrollTop = 0; return true; })()`)
	talk(5, 1)
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 6 && !document.getElementById("chat-new").hidden`)
	type seen struct {
		Over  float64 // how far the button reaches into the list's box
		Label string
	}
	got := eval[seen](p, `(() => { const b = document.getElementById("chat-new"); const r = b.getBoundingClientRect(); const c = document.getElementById("chat").getBoundingClientRect();
	  const over = (r.top < c.bottom && r.bottom > c.top && r.left < c.right && r.right > c.left) ? c.bottom - r.top : 0;
	  return { over, label: b.getAttribute("aria-label") || b.textContent }; })()`)
	if got.Over > 0 {
		t.Errorf("\"New messages\" covers the list's last %.0f px at 390 px wide", got.Over)
	}
	if got.Label != "New messages" {
		t.Errorf("the button's name is %q, want \"New messages\" (no arrow said)", got.Label)
	}
	eval[bool](p, `(() => { document.getElementById("chat-new").focus(); return true; })()`)
	p.do(chromedp.KeyEvent("\r"))
	p.until(`document.getElementById("chat-new").hidden`)
	if f := eval[string](p, `document.activeElement ? document.activeElement.id || document.activeElement.tagName : ""`); f != "chat" && f != "chat-text" {
		t.Errorf("after Enter on \"New messages\" the focus is on %q, want the chat's list or field", f)
	}
}
