package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonTableGone: a page whose table no longer exists
// stops trying to reconnect and says so, with a way back to the lobby.
// Both ways it finds out are driven: the table closing while the page
// is connected ("table closed", then 404), and a page that was away (a
// laptop asleep) whose next attempt is refused with 404.
func TestBrowserArlingtonTableGone(t *testing.T) {
	t.Parallel()
	for _, away := range []bool{false, true} {
		name := "connected"
		if away {
			name = "away"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, Limits{})
			id := e.client().create("", "random")
			p := seatTabIn(t, startBrowser(t), "Ann")
			p.open(e.srv.URL, id)
			p.join("Ann")
			p.until(`document.querySelector(` + q(selLegal+":not(:disabled)") + `)`) // Ann's turn
			if away {
				p.offline(true) // its attempts fail while the table still exists
				p.until(`document.body.dataset.retryMs`)
			}
			e.hub.Close()
			if away {
				p.offline(false)
			}
			p.until(`document.getElementById("conn").textContent.startsWith("this table has ended or is gone")`)
			p.shot("gone")
			if href := eval[string](p, `document.querySelector("#conn a").getAttribute("href")`); href != "/arlington/" {
				t.Fatalf("the lobby link goes to %q", href)
			}
			if n := p.count(selLegal + ":not(:disabled)"); n != 0 {
				t.Fatalf("%d actions still enabled on a table that is gone", n)
			}
			checkStopped(t, p, "this table has ended or is gone")
		})
	}
}

// countAsks makes the page count the hints and previews it asks the
// server for, in window.__asks (the page asks at once on a click).
const countAsks = `window.__asks = 0; if (!window.__fetch) { window.__fetch = window.fetch;
  window.fetch = (u, o) => { if (/\/(hint|preview)$/.test(String(u))) window.__asks++; return window.__fetch(u, o); }; }`

// checkStopped checks that a page stopped on the person's turn (words:
// why) is honest about it: its status line says why instead of "your
// turn", its Hint button and hand cards are disabled, and a card clicked
// or the H key asks the server nothing; the key is answered with words.
func checkStopped(t *testing.T, p *seatTab, words string) {
	t.Helper()
	if s := eval[string](p, `document.getElementById("status").textContent`); strings.Contains(s, "your turn") || !strings.Contains(s, words) {
		t.Errorf("the stopped page's status line says %q; want %q in it and no turn", s, words)
	}
	if on := eval[bool](p, `!!document.querySelector("#btn-hint:not(:disabled)")`); on {
		t.Errorf("the stopped page's Hint button is enabled")
	}
	if n, on := p.count(selHandCards), p.count("#hand button:not(:disabled)"); n == 0 || on != 0 {
		t.Errorf("the stopped page shows %d cards, %d of them selectable; want none selectable", n, on)
	}
	p.do(chromedp.Evaluate[chromedp.Void](countAsks + `; document.querySelector("#hand button").click();
	  document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "h", bubbles: true }));`))
	if asks := eval[int](p, `window.__asks`); asks != 0 {
		t.Errorf("the stopped page asked the server for %d hints or previews", asks)
	}
	if sel := p.count("#hand button.selected"); sel != 0 {
		t.Errorf("a click selected %d cards on the stopped page", sel)
	}
	if e := eval[string](p, `document.getElementById("error").textContent`); !strings.Contains(strings.ToLower(e), words) {
		t.Errorf("the H key on the stopped page says %q; want %q", e, words)
	}
}
