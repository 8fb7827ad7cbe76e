package arlweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonChatRefusedKept (long: a browser and the
// chat's burst, over 2 s under -race; make test-long runs it;
// TestBrowserArlingtonChatTooLongKept is its quick part): the chat field keeps a line until
// the server takes it. Lines taken (the chat's burst) empty the field as
// they come back; the line past the chat's rate limit, and one over the
// length limit, stay in the field, and the refusal is said under the
// chat's field, in sight, not in the play area. The field was emptied as
// the line was sent, so a refused line was lost, and its refusal showed
// by the cards.
func TestLongBrowserArlingtonChatRefusedKept(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	// The table's clock stands still, so the chat's allowance does not
	// refill while the burst is sent: on a loaded machine the burst took
	// longer than one refill, and the line past it was taken.
	e := newStillEnv(t)
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	for i := range table.ChatBurst {
		p.say(fmt.Sprintf("line %d", i+1))
		p.until(fmt.Sprintf(`document.querySelectorAll(%s).length === %d && document.getElementById("chat-text").value === ""`, q(selChat), i+1))
	}
	// Past the burst: refused by the rate limit (one line every 3 s).
	p.say("one too many")
	checkRefusedKept(t, p, "rate limit", "one too many", "too many messages", table.ChatBurst)
	sayTooLong(t, p, table.ChatBurst)
}

// TestBrowserArlingtonChatTooLongKept: a line over the length limit stays
// in the field, its refusal said under the chat's field, in sight.
func TestBrowserArlingtonChatTooLongKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "")
	p.join("Ann")
	sayTooLong(t, p, 0)
}

// sayTooLong sends a line of 201 characters from p (set as a paste past
// the field's own limit would) and checks its refusal, the chat showing
// lines lines.
func sayTooLong(t *testing.T, p *seatTab, lines int) {
	t.Helper()
	long := strings.Repeat("x", table.MaxChatRunes+1)
	eval[bool](p, `(() => { document.getElementById("chat-msg").textContent = ""; document.getElementById("error").textContent = ""; document.getElementById("chat-text").value = "`+long+`"; return true })()`)
	p.do(chromedp.Click(chromedp.CSS(`#chat-form button`)))
	checkRefusedKept(t, p, "too long", long, "200 characters", lines) // the server's words
}

// checkRefusedKept checks that p's line sent was refused as want says,
// by the chat, kept in the field, with the chat showing lines lines.
func checkRefusedKept(t *testing.T, p *seatTab, what, sent, want string, lines int) {
	t.Helper()
	// The refusal, said anywhere (the play area's line is the old place).
	p.until(`(document.getElementById("chat-msg") || document.getElementById("error")).textContent !== "" || document.getElementById("error").textContent !== ""`)
	if got := eval[string](p, `document.getElementById("chat-text").value`); got != sent {
		t.Errorf("%s: the field holds %q after the refusal, want the line kept (%q)", what, got, sent)
	}
	if msg := eval[string](p, `(document.getElementById("chat-msg") || {}).textContent || ""`); !strings.Contains(msg, want) || !strings.Contains(msg, "Send again") {
		t.Errorf("%s: the chat says %q, want %q and what to do", what, msg, want)
	}
	if play := eval[string](p, `document.getElementById("error").textContent`); play != "" {
		t.Errorf("%s: the play area says %q: a chat refusal belongs by the chat", what, play)
	}
	if !eval[bool](p, `!!document.getElementById("chat-msg")`) {
		t.Fatalf("%s: the page has no place for a chat refusal by the chat", what)
	}
	gap := eval[float64](p, `document.getElementById("chat-msg").getBoundingClientRect().top - document.getElementById("chat-form").getBoundingClientRect().bottom`)
	if s := p.spanOf("#chat-msg"); !s.shown() || gap < -1 || gap > 24 {
		t.Errorf("%s: the refusal lies at %.0f-%.0f px (window %.0f-%.0f px), %.0f px below the chat's field: want it in sight, under the field", what, s.Top, s.Bottom, s.Bar, s.Foot, gap)
	}
	if n := p.count(selChat); n != lines {
		t.Errorf("%s: the chat shows %d lines, want %d", what, n, lines)
	}
}
