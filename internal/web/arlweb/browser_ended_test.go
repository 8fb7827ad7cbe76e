package arlweb

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestLongBrowserArlingtonEndedAfterRestart (long: a game played out, a
// restart and a browser, about 3 s under -race; TestEndedAfterRestart is
// its quick version at the API): Ann plays a game to its end
// against a bot (by the API, for speed; the browser then has her
// identity); the server restarts on the same database, so the
// finished table is no longer live. Its link still shows the game's end:
// the connection line says the game is over (not that the table is
// gone), the result names the winner, the score sheet has the hands and
// totals, nothing offers a chat field or a hand, "Watch the replay"
// opens the replay, and "Play again" makes the rematch from the stored
// game and seats Ann there, one seat on.
func TestLongBrowserArlingtonEndedAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e, restart := restartable(t)
	ann := e.client()
	id := finishedBy(t, ann)
	p := seatTabIn(t, startBrowser(t), "Ann")
	u, _ := url.Parse(e.srv.URL)
	cookies := ann.hc.Jar.Cookies(u) // the browser is Ann
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, ck := range cookies {
			if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: e.srv.URL, HTTPOnly: new(true)}); err != nil {
				return err
			}
		}
		return nil
	}))
	restart()

	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`document.getElementById("btn-rematch") && document.getElementById("btn-replay")`)
	p.shot("ended")
	if c := eval[string](p, `document.getElementById("conn").textContent`); !strings.HasPrefix(c, "game over, table closed") {
		t.Errorf("the connection line says %q", c)
	}
	if w := eval[string](p, `document.querySelector("#winners .win-text").textContent`); !strings.HasPrefix(w, "Game over: ") {
		t.Errorf("the result says %q", w)
	}
	if rows, total := eval[int](p, `document.querySelectorAll("#sheet tbody tr").length`),
		eval[string](p, `document.querySelector("#sheet tfoot tr.total").textContent`); rows < 1 || !strings.HasPrefix(total, "Total") {
		t.Errorf("the score sheet has %d hands, totals %q", rows, total)
	}
	for _, sel := range []string{"#chat-text", "#hand-box", "#name"} {
		if shown := eval[bool](p, `(() => { const x = document.querySelector(`+q(sel)+`); return !!x && x.getClientRects().length > 0; })()`); shown {
			t.Errorf("%s shows on the page of a closed table", sel)
		}
	}
	if b := eval[string](p, `document.getElementById("btn-rematch").textContent`); b != "Play again" {
		t.Errorf("the rematch button says %q", b)
	}
	p.do(chromedp.Click(chromedp.CSS("#btn-replay")))
	p.until(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`)
	p.do(chromedp.Click(chromedp.CSS("#rp-close")))
	p.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	moved := `!location.pathname.endsWith(` + q("/"+id) + `) && window.__ws && window.__ws.seat >= 0`
	if err := webtest.Wait(p.ctx, moved, "Ann at the rematch"); err != nil {
		t.Fatalf("%v; page: %s", err, p.diag())
	}
	if seat := eval[int](p, `window.__ws.seat`); seat != 1 {
		t.Errorf("Ann, at seat 0, sits at %d in the rematch, want 1", seat)
	}

}

// TestBrowserArlingtonNoSuchTable: the page of a table that never was
// says so, with no result and no way to play.
func TestBrowserArlingtonNoSuchTable(t *testing.T) {
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/NOSUCHTABLE234567ABCDEFGHJ"))
	p.until(`document.getElementById("conn").textContent.startsWith("no such table")`)
	if n := p.count("#btn-replay, #btn-rematch"); n != 0 {
		t.Errorf("no such table's page offers %d result buttons", n)
	}
}
