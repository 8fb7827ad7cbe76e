package arlweb

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
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
	browserIs(p, e, ann)
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
	if f := eval[string](p, `document.activeElement && document.activeElement.id`); f != "btn-replay" {
		t.Errorf("closing the replay leaves the focus on %q, want the button that opened it", f)
	}
	p.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	moved := `!location.pathname.endsWith(` + q("/"+id) + `) && window.__ws && window.__ws.seat >= 0`
	if err := webtest.Wait(p.ctx, moved, "Ann at the rematch"); err != nil {
		t.Fatalf("%v; page: %s", err, p.diag())
	}
	if seat := eval[int](p, `window.__ws.seat`); seat != 1 {
		t.Errorf("Ann, at seat 0, sits at %d in the rematch, want 1", seat)
	}

}

// browserIs gives the browser of p c's identity (its cookies).
func browserIs(p *seatTab, e *env, c *client) {
	u, _ := url.Parse(e.srv.URL)
	cookies := c.hc.Jar.Cookies(u)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, ck := range cookies {
			if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: e.srv.URL, HTTPOnly: new(true)}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// TestLongBrowserArlingtonRematchClosed (long: a game played out, two
// restarts and a browser): Ann asked for a rematch, nobody came and it
// closed. Her finished table's page then says the rematch has closed and
// sends her to the lobby for a new table, rather than offering a
// rematch to join that cannot be joined.
func TestLongBrowserArlingtonRematchClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e, restart := restartable(t)
	ann := e.client()
	id := finishedBy(t, ann)
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, &re); code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	e.hub.Close()
	// As the rematch's idle close leaves it.
	if err := e.db.FinishTable(context.Background(), re.ID, table.StatusClosed, time.Now()); err != nil {
		t.Fatal(err)
	}
	restart()
	p := seatTabIn(t, startBrowser(t), "Ann")
	browserIs(p, e, ann)
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!!document.getElementById("btn-replay")`)
	p.until(`!!document.getElementById("rematch-closed")`)
	p.shot("rematch-closed")
	if n := p.count("#btn-rematch"); n != 0 {
		t.Error("the page offers a rematch that has closed")
	}
	if s := eval[string](p, `document.getElementById("rematch-closed").textContent`); !strings.Contains(s, "The rematch table has closed") {
		t.Errorf("the page says %q", s)
	}
	if href := eval[string](p, `document.querySelector("#rematch-closed a").getAttribute("href")`); href != "/arlington/" {
		t.Errorf("its link goes to %q, want the lobby", href)
	}
}

// shownJS is whether the element sel matches is drawn on the page.
func shownJS(sel string) string {
	return `(() => { const x = document.querySelector(` + q(sel) + `); return !!x && x.getClientRects().length > 0; })()`
}

// TestBrowserArlingtonNoSuchTable: the page of a table that never was
// says so plainly, with the way back to the lobby, and shows nothing
// else of a table: no result, no hand, no plays, chat, keys or record.
func TestBrowserArlingtonNoSuchTable(t *testing.T) {
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/NOSUCHTABLE234567ABCDEFGHJ"))
	p.until(`document.getElementById("conn").textContent.startsWith("no such table")`)
	p.until(`!!document.getElementById("no-table")`)
	p.shot("no-such-table")
	if n := p.count("#btn-replay, #btn-rematch"); n != 0 {
		t.Errorf("no such table's page offers %d result buttons", n)
	}
	if s := eval[string](p, `document.getElementById("status").textContent`); !strings.HasPrefix(s, "There is no table at this link.") {
		t.Errorf("the page says %q", s)
	}
	if href := eval[string](p, `document.querySelector("#no-table a").getAttribute("href")`); href != "/arlington/" {
		t.Errorf("the message's link goes to %q, want the lobby", href)
	}
	for _, sel := range []string{"#hand-box", "#log-box", "#log-filter", "#sheet-box", "#chat-box", "#keys-box", "#record", "#players", "#winners"} {
		if eval[bool](p, shownJS(sel)) {
			t.Errorf("%s shows on the page of no such table", sel)
		}
	}
}

// TestBrowserArlingtonFinishedTableCloses: a page open at a finished
// table, with the game's views, when the table closes: its chat field
// goes (nobody chats at a closed table), as the join form does.
func TestBrowserArlingtonFinishedTableCloses(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000}) // finishedBy sends its moves at once
	id := finishedBy(t, e.client())
	p := seatTabIn(t, startBrowser(t), "Bo")
	p.open(e.srv.URL, id)
	p.until(`!!document.getElementById("btn-replay")`)
	if !eval[bool](p, shownJS("#chat-text")) {
		t.Fatal("no chat field at the finished table while it is open: this test needs one")
	}
	e.hub.Close()
	p.until(`!!document.querySelector("#conn a")`)
	p.shot("finished-closed")
	if eval[bool](p, shownJS("#chat-text")) {
		t.Error("the chat field shows once the table has closed")
	}
	if !eval[bool](p, shownJS("#btn-replay")) {
		t.Error("the result's replay button went with the table")
	}
}
