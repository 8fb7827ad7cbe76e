package arlweb

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// holdChat makes p's page keep the chat messages it sends (window.__held)
// instead of sending them, until releaseChat: the line's answer is then
// awaited as long as the test needs.
func (p *seatTab) holdChat() {
	eval[bool](p, `(() => { window.__held = []; window.__hold = true;
		for (const s of window.__ws.socks) { const send = s.send;
			s.send = (d) => { if (window.__hold && JSON.parse(d).type === "chat") { window.__held.push([send, d]); return; } send(d); }; }
		return true })()`)
}

func (p *seatTab) releaseChat() {
	eval[bool](p, `(() => { window.__hold = false; for (const [send, d] of window.__held) send(d); window.__held = []; return true })()`)
}

const fieldJS = `document.getElementById("chat-text").value`

// TestBrowserArlingtonChatOwnAnswer: a spectator awaiting the answer to
// their line is not answered by another spectator's identical line (both
// have seat -1): the field keeps the line until the server takes this
// page's own, which then empties it.
func TestBrowserArlingtonChatOwnAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	tbl, _, w1 := openTable(t, e, "Cy", 0, "", "") // and stays a spectator
	w2 := e.client().dial(tbl.ID, -1)              // another spectator
	w1.holdChat()
	w1.say("hi all")
	w2.send(map[string]any{"type": "chat", "text": "hi all"})
	w1.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	if got := eval[string](w1, fieldJS); got != "hi all" {
		t.Errorf("the other spectator's line emptied this one's field (%q): this line's answer is still awaited", got)
	}
	w1.releaseChat()
	w1.until(`document.querySelectorAll(` + q(selChat) + `).length === 2 && ` + fieldJS + ` === ""`)
	if msg := eval[string](w1, `document.getElementById("chat-msg").textContent`); msg != "" {
		t.Errorf("the chat says %q after its line was taken", msg)
	}
}

// failChat is a store whose chat writes fail while fail is set.
type failChat struct {
	*store.DB
	fail atomic.Bool
}

func (s *failChat) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	if s.fail.Load() {
		return errors.New("disk full")
	}
	return s.DB.AppendChat(ctx, id, l, keep)
}

// TestBrowserArlingtonChatStoreRefused: a line the table could not keep
// (its store write failed: "unavailable") is refused by the chat field,
// not in the play area, the line kept; pressing Send again with the same
// text sends it again, and once taken the field empties.
func TestBrowserArlingtonChatStoreRefused(t *testing.T) {
	t.Parallel()
	var st *failChat
	e := newEnvStore(t, Limits{}, web.Options{}, func(db *store.DB) table.Store { st = &failChat{DB: db}; return st })
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	st.fail.Store(true)
	p.say("kept?")
	p.until(`document.getElementById("chat-msg").textContent !== "" || document.getElementById("error").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("chat-msg").textContent`); !strings.Contains(msg, "Not sent") || !strings.Contains(msg, "Send again") {
		t.Errorf("the chat says %q, want the refusal and what to do", msg)
	}
	if play := eval[string](p, `document.getElementById("error").textContent`); play != "" {
		t.Errorf("the play area says %q: the chat line's refusal belongs by the chat", play)
	}
	if got := eval[string](p, fieldJS); got != "kept?" {
		t.Errorf("the field holds %q, want the line kept", got)
	}
	st.fail.Store(false)
	p.do(chromedp.Click(chromedp.CSS(`#chat-form button`)))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1 && ` + fieldJS + ` === ""`)
}

// TestBrowserArlingtonChatCleanedTaken: a line the server keeps other
// than typed (a lone surrogate becomes U+FFFD, a tab a space, the ends
// trimmed) still empties the field once taken; and Send pressed twice
// before the answer sends the line once.
func TestBrowserArlingtonChatCleanedTaken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	eval[bool](p, `(() => { document.getElementById("chat-text").value = " x\uD800y\tz "; document.getElementById("chat-form").requestSubmit(); return true })()`)
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	p.until(fieldJS + ` === ""`)
	if msg := eval[string](p, `document.getElementById("chat-msg").textContent`); msg != "" {
		t.Errorf("the chat says %q after its line was taken", msg)
	}
	// Twice at once: the second press finds the line awaited.
	eval[bool](p, `(() => { const f = document.getElementById("chat-form"); document.getElementById("chat-text").value = "once"; f.requestSubmit(); f.requestSubmit(); return true })()`)
	p.until(fieldJS + ` === ""`)
	p.say("after") // the server reads in order: a second "once" came before it
	p.until(`[...document.querySelectorAll(` + q(selChat) + `)].some((li) => li.textContent.endsWith("after"))`)
	if n := eval[int](p, `[...document.querySelectorAll(`+q(selChat)+`)].filter((li) => li.textContent.endsWith(": once")).length`); n != 1 {
		t.Errorf("the line was sent %d times for Send pressed twice, want once", n)
	}
}

// TestBrowserArlingtonChatLostAnswer: a line whose connection closes
// before its answer is given back: the field keeps it, the chat says so,
// and Send sends it again on the new connection.
func TestBrowserArlingtonChatLostAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	p.holdChat()
	p.say("lost?")
	p.offline(true)
	p.until(`document.getElementById("chat-msg").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("chat-msg").textContent`); !strings.Contains(msg, "connection was lost") {
		t.Errorf("the chat says %q, want the lost connection said", msg)
	}
	eval[bool](p, `(() => { window.__hold = false; window.__held = []; return true })()`)
	p.offline(false)
	p.until(`window.__ws.viewSock === window.__ws.socks.length - 1 && window.__ws.socks[window.__ws.viewSock].readyState === WebSocket.OPEN`)
	p.do(chromedp.Click(chromedp.CSS(`#chat-form button`)))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1 && ` + fieldJS + ` === ""`)
}

// TestBrowserArlingtonChatNoAnswer: a line whose answer never comes (a
// connection dead without closing) is given back after the page's wait
// (10 s, made 300 ms here): the field keeps it, the chat says so, and
// Send sends it again.
func TestBrowserArlingtonChatNoAnswer(t *testing.T) {
	t.Parallel()
	p := chatHeldShortWait(t)
	p.say("heard?")
	p.until(`document.getElementById("chat-msg").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("chat-msg").textContent`); !strings.Contains(msg, "No answer") || !strings.Contains(msg, "Send again") {
		t.Errorf("the chat says %q, want no answer said and what to do", msg)
	}
	if got := eval[string](p, fieldJS); got != "heard?" {
		t.Errorf("the field holds %q, want the line kept", got)
	}
	eval[bool](p, `(() => { window.__hold = false; window.__held = []; return true })()`)
	p.do(chromedp.Click(chromedp.CSS(`#chat-form button`)))
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1 && ` + fieldJS + ` === ""`)
}

// TestBrowserArlingtonChatLateAnswer: a line given back after the page's
// wait (made 300 ms here) whose answer comes late is still taken: the
// field empties and "No answer" goes, so the player does not send it
// twice.
func TestBrowserArlingtonChatLateAnswer(t *testing.T) {
	t.Parallel()
	p := chatHeldShortWait(t)
	p.say("late?")
	p.until(`document.getElementById("chat-msg").textContent.includes("No answer")`)
	p.releaseChat()
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	p.until(fieldJS + ` === "" && document.getElementById("chat-msg").textContent === ""`)
}

// TestBrowserArlingtonChatEarlierRefused: the refusal of a line the
// player replaced before its answer came is said by the chat field, not
// in the play area, and the line awaited now is left to its own answer.
func TestBrowserArlingtonChatEarlierRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	p.holdChat()
	long := strings.Repeat("x", table.MaxChatRunes+1) // refused as too long
	eval[bool](p, `(() => { document.getElementById("chat-text").value = "`+long+`"; document.getElementById("chat-form").requestSubmit(); return true })()`)
	eval[bool](p, `(() => { document.getElementById("chat-text").value = "second"; document.getElementById("chat-form").requestSubmit(); return true })()`)
	// Only the first line goes: its refusal comes while the second is awaited.
	eval[bool](p, `(() => { const [send, d] = window.__held.shift(); send(d); return true })()`)
	p.until(`document.getElementById("chat-msg").textContent !== "" || document.getElementById("error").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("chat-msg").textContent`); !strings.Contains(msg, "not sent") {
		t.Errorf("the chat says %q, want the earlier line's refusal", msg)
	}
	if play := eval[string](p, `document.getElementById("error").textContent`); play != "" {
		t.Errorf("the play area says %q: a chat line's refusal belongs by the chat", play)
	}
	p.releaseChat()
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1 && ` + fieldJS + ` === ""`)
}

// TestBrowserArlingtonActionStoreRefused: a move the table could not
// store (its store write failed: "unavailable") is refused in the play
// area with what to do, and the game stands where it was; once the store
// works again the person plays from the same page, without a reload,
// and the game goes on.
func TestBrowserArlingtonActionStoreRefused(t *testing.T) {
	t.Parallel()
	var st *failWrites
	e := newEnvStore(t, Limits{}, web.Options{}, func(db *store.DB) table.Store { st = &failWrites{DB: db}; return st })
	got, _, p := openTable(t, e, "Ann", 0, "", "random")
	p.join("Ann")
	enabled := `document.querySelector(` + q(selLegal+":not(:disabled)") + `)`
	p.until(enabled + " && " + shownAll)
	n := p.events()
	st.fail.Store(true)
	p.do(chromedp.Evaluate[chromedp.Void](enabled + `.click()`))
	p.until(`document.getElementById("error").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("error").textContent`); !strings.Contains(msg, notStored) {
		t.Errorf("the play area says %q, want %q", msg, notStored)
	}
	if got := p.events(); got != n {
		t.Errorf("the page has %d events after the refused move, want %d (nothing changed)", got, n)
	}
	st.fail.Store(false)
	p.until(enabled + " && " + shownAll)
	p.play()
	p.until(`document.getElementById("error").textContent === ""`)
	s, err := e.db.LoadTable(context.Background(), got.ID)
	if err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, m := range s.Moves {
		if m.Seat == 0 {
			mine++
		}
	}
	if mine != 1 {
		t.Errorf("%d of Ann's moves stored, want the one played after the store came back", mine)
	}
}

// chatHeldShortWait is Ann's page on a new table whose chat lines'
// answers are held (holdChat), with the page's 10 s wait for an answer
// made 300 ms.
func chatHeldShortWait(tb testing.TB) *seatTab {
	tb.Helper()
	e := newEnv(tb, Limits{})
	id := e.client().create("", "")
	bctx := startBrowser(tb)
	addPageScript(tb, bctx, `(() => { const st = window.setTimeout; window.setTimeout = (f, ms, ...a) => st(f, ms === 10000 ? 300 : ms, ...a); })()`)
	p := seatTabIn(tb, bctx, "Ann")
	p.open(e.srv.URL, id)
	p.holdChat()
	return p
}
