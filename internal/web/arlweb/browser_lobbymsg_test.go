package arlweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonLobbyRefusalShown: Create and sit refused (no
// display name; then the creator's limit of tables reached) says why by
// the button, in sight where the button was pressed, at a desktop's and a
// phone's size, announced (an alert) and with what to do. The lobby said
// it at the page's foot, far below the fold (about 1,300 px down), so
// nothing seemed to happen.
func TestBrowserArlingtonLobbyRefusalShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelectorAll("#seats select").length >= 2`)
	// The creator's own tables, made from this browser (its identity).
	for i := range table.DefaultMaxPerPlayer {
		code := eval[int](p, `fetch("/api/arlington/tables", {method: "POST", headers: {"Content-Type": "application/json"},
		  body: JSON.stringify({players: 2, bots: ["", "random"], target: 32})}).then((r) => r.status)`, chromedp.EvalAwaitPromise)
		if code != 201 {
			t.Fatalf("making table %d: %d", i+1, code)
		}
	}
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		where := fmt.Sprintf("%dx%d", size[0], size[1])
		p.do(chromedp.EmulateViewport(size[0], size[1]), chromedp.Reload())
		p.until(`document.querySelectorAll("#seats select").length >= 2`)
		press := func(name, want, todo string) {
			t.Helper()
			eval[bool](p, fmt.Sprintf(`(() => { scrollTo(0, 0); document.getElementById("msg").textContent = "";
			  document.getElementById("name").value = %q; return true })()`, name))
			p.do(chromedp.Click(chromedp.CSS("#btn-create"))) // scrolls the button into sight, as a person would
			p.until(`document.getElementById("msg").textContent !== ""`)
			msg := eval[string](p, `document.getElementById("msg").textContent`)
			if !strings.Contains(msg, want) || !strings.Contains(msg, todo) {
				t.Errorf("%s: the page says %q, want %q and what to do (%q)", where, msg, want, todo)
			}
			if s := p.spanOf("#msg"); !s.shown() || s.Bottom-s.Top < 10 {
				t.Errorf("%s: the message %q lies at %.0f-%.0f px in a window showing %.0f-%.0f px: not in sight", where, msg, s.Top, s.Bottom, s.Bar, s.Foot)
			}
			if s := p.spanOf("#btn-create"); !s.shown() {
				t.Errorf("%s: the button pressed lies at %.0f-%.0f px, out of sight", where, s.Top, s.Bottom)
			}
			if !eval[bool](p, `!!document.getElementById("msg").closest('[role=alert], [aria-live]')`) {
				t.Errorf("%s: the message is not announced (no alert or live region)", where)
			}
		}
		press("", "Pick a display name first", "at the top of the page")
		press("Ann", "you have 3 tables open", "Sit at one of your tables")
	}
	if n := len(e.hub.List()); n != table.DefaultMaxPerPlayer {
		t.Errorf("%d tables after the refusals, want %d", n, table.DefaultMaxPerPlayer)
	}
}
