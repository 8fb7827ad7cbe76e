package arlweb

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestBrowserArlingtonEndedRetried: the first asking for a closed
// table's result is refused for now (503, no Retry-After: a server
// starting or stopping); the page asks again after its first wait and
// shows the result and its replay, rather than saying the table closed
// without a finished game. (A dropped connection is not used here:
// Chromium itself asks again on a kept-alive connection closed without
// an answer.)
func TestBrowserArlingtonEndedRetried(t *testing.T) {
	t.Parallel()
	endedRetried(t, func(w http.ResponseWriter) {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
	})
}

// TestLongBrowserArlingtonEndedRetried (long: the page waits the second
// it is told; TestBrowserArlingtonEndedRetried is its quick version): the
// first asking is refused as the rate limit refuses (429, Retry-After),
// and the page asks again after that wait.
func TestLongBrowserArlingtonEndedRetried(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	endedRetried(t, func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many requests", http.StatusTooManyRequests)
	})
}

// endedRetried opens the page of a finished table no longer live whose
// first GET .../ended refuse answers; the page must still show the
// result, having asked twice.
func endedRetried(t *testing.T, refuse func(http.ResponseWriter)) {
	e := newEnv(t, Limits{Burst: 10000}) // finishedBy sends its moves at once
	id := finishedBy(t, e.client())
	e.hub.Close() // no longer live: its page asks .../ended
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ended") && asked.Add(1) == 1 {
			refuse(w)
			return
		}
		e.site.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p := seatTabIn(t, startBrowser(t), "Bo")
	p.do(chromedp.Navigate(srv.URL + "/arlington/t/" + id))
	p.until(`!!document.getElementById("btn-replay") || !!document.getElementById("no-table")`)
	p.shot("ended-retried")
	if n := p.count("#no-table"); n != 0 {
		t.Fatalf("after one failed asking the page says %q", eval[string](p, `document.getElementById("status").textContent`))
	}
	if w := eval[string](p, `document.querySelector("#winners .win-text").textContent`); !strings.HasPrefix(w, "Game over: ") {
		t.Errorf("the result says %q", w)
	}
	if c := eval[string](p, `document.getElementById("conn").textContent`); !strings.HasPrefix(c, "game over, table closed") {
		t.Errorf("the connection line says %q", c)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("the page asked for the result %d times, want 2", n)
	}
}

// TestBrowserArlingtonLiveRematchCloses: Ann's page stays open at her
// finished table, still live; she asked for a rematch (by the API, so
// the page is told of it by the table's update) and never went: the
// rematch closes idle. The page then stops offering "Rematch ready:
// join" and says the rematch has closed, with the way to the lobby.
func TestBrowserArlingtonLiveRematchCloses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	db := testDB(t, ctx)
	// A short idle close: the rematch nobody connects to closes soon; the
	// finished table, with Ann's page on it, stays. Not shorter: the
	// finished table itself must outlast its creation, Ann's joining and
	// her connecting on a loaded machine (at 300 ms it closed before her
	// connection under a load average of 25).
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot, BotTime: time.Second, Logf: t.Logf, IdleAfter: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	site := web.New(web.Options{Games: []web.Routes{New(hub, wired(Limits{Burst: 10000}))}})
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	e := &env{tb: t, srv: srv, hub: hub, db: db, site: site}
	ann := e.client()
	id := finishedBy(t, ann)
	p := seatTabIn(t, startBrowser(t), "Ann")
	browserIs(p, e, ann)
	p.open(srv.URL, id)
	p.until(`!!document.getElementById("btn-rematch")`)
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, &re); code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	p.until(`!!document.getElementById("rematch-closed")`)
	p.shot("live-rematch-closed")
	if _, err := hub.Table(re.ID); err == nil {
		t.Error("the page says the rematch closed while it is live")
	}
	if _, err := hub.Table(id); err != nil {
		t.Fatalf("the finished table closed (%v): this test needs it live", err)
	}
	if n := p.count("#btn-rematch"); n != 0 {
		t.Error("the page still offers the closed rematch")
	}
	if href := eval[string](p, `document.querySelector("#rematch-closed a").getAttribute("href")`); href != "/arlington/" {
		t.Errorf("its link goes to %q, want the lobby", href)
	}
}

// TestBrowserArlingtonRematchGoneOnClick: the rematch ran on another
// server and closed there, so the finished table's page was not told;
// its button's asking meets the 404 that server's closed rematch gives
// (played here by a server in front that answers it), and the page says
// the rematch has closed, with the way to the lobby, not a bare error;
// it is said, once (the result is no live region).
func TestBrowserArlingtonRematchGoneOnClick(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000}) // finishedBy sends its moves at once
	ann := e.client()
	id := finishedBy(t, ann)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/rematch") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"not found: the rematch table ABC has closed"}`)
			return
		}
		e.site.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p := seatTabIn(t, startBrowser(t), "Ann")
	browserIs(p, e, ann)
	p.open(srv.URL, id)
	p.until(`!!document.getElementById("btn-rematch")`)
	p.recordSaid()
	p.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	p.until(`!!document.getElementById("rematch-closed") || document.getElementById("error").textContent !== ""`)
	if n := p.count("#rematch-closed"); n != 1 {
		t.Fatalf("after the 404 the page says %q, not that the rematch closed", eval[string](p, `document.getElementById("error").textContent`))
	}
	if n := p.count("#btn-rematch"); n != 0 {
		t.Error("the page still offers the closed rematch")
	}
	if said := p.said(); saidCount(said, "say: The rematch table has closed") != 1 {
		t.Errorf("the page said %q, want that the rematch closed said once", said)
	}
}
