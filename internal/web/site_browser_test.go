package web_test

// The whole site in real Chromium: the front page, the Spider page and the
// Arlington pages served together by the real server (both games' handlers
// on a temporary database, bots at the tables), as cardtable serve wires
// them.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardtable/arlington/bot"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
	"cardtable/internal/web/spiderweb"
	"cardtable/internal/web/webtest"
)

// siteServer starts the server with both games on a temporary database.
func siteServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	return siteServerAt(tb, filepath.Join(tb.TempDir(), "cardtable.db"))
}

// siteServerAt is siteServer on the database at path.
func siteServerAt(tb testing.TB, path string) *httptest.Server {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: func(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }, BotTime: time.Second, Logf: tb.Logf})
	if err != nil {
		tb.Fatal(err)
	}
	sp := spiderweb.New(db, spiderweb.Options{})
	srv := httptest.NewServer(web.New(web.Options{Adopt: sp.AdoptLegacy,
		Games: []web.Routes{sp, arlweb.New(hub, arlweb.Options{Levels: bot.Names})}}))
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return srv
}

// sitePage is one tab on the site; every step is bounded
// (webtest.StepTimeout) and names itself when it fails.
type sitePage struct {
	t   *testing.T
	ctx context.Context
	srv *httptest.Server
}

func openSite(t *testing.T, bctx context.Context, srv *httptest.Server, w, h int64) *sitePage {
	t.Helper()
	p := &sitePage{t: t, ctx: webtest.OpenTab(t, bctx, w, h, chromedp.WithNewBrowserContext()), srv: srv}
	webtest.WatchErrors(p.ctx, t)
	return p
}

func (p *sitePage) step(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := webtest.Do(p.ctx, what, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func (p *sitePage) eval(js string, out any) {
	p.t.Helper()
	if err := webtest.Eval(p.ctx, js, out); err != nil {
		p.t.Fatal(err)
	}
}

func (p *sitePage) wait(cond, what string) {
	p.t.Helper()
	if err := webtest.Wait(p.ctx, cond, what); err != nil {
		p.t.Fatal(err)
	}
}

// The conditions that say each page has started.
const (
	frontReady  = `location.pathname === "/" && document.body.dataset.ready === "1"`
	spiderReady = `location.pathname === "/spider/" && document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`
	lobbyReady  = `location.pathname === "/arlington/" && document.querySelector("#open-tables li")`
	// The table page has drawn the table's first view (its seats); its
	// header alone is in the page's HTML, there before anything ran.
	tableReady = `location.pathname.startsWith("/arlington/t/") && document.querySelector("#players .player")`
)

func (p *sitePage) open(path, ready string) {
	p.t.Helper()
	p.step("opening "+path, chromedp.Navigate(p.srv.URL+path))
	p.wait(ready, "the page "+path+" to start")
}

// follow clicks the element sel (a link) and waits for the page it leads to.
func (p *sitePage) follow(sel, ready string) {
	p.t.Helper()
	p.click(sel)
	p.wait(ready, "the page after clicking "+sel)
}

// click clicks the middle of the element sel with the mouse, once it is on
// the page (scrolled into view first). The point is found by script, not
// by chromedp's copy of the document, which lags behind a navigation; and
// only once the page has loaded (its style sheets applied) and the point
// is the element's own (nothing covers it). A page still loading can have
// the element before its style sheets apply: measured in that layout,
// which is never drawn, the point is elsewhere once they do. (The table
// page's Lobby link, measured so, lay under the header's link to the
// front page when the mouse came, and the lobby never showed.)
func (p *sitePage) click(sel string) {
	p.t.Helper()
	var pt struct{ X, Y float64 }
	p.wait(`window.__clickAt = (() => { const e = document.querySelector(`+jsString(sel)+`);
	  if (!e || document.readyState !== "complete") return null;
	  e.scrollIntoView({block: "center"});
	  const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
	  const h = document.elementFromPoint(x, y);
	  return h && e.contains(h) ? {X: x, Y: y} : null; })()`, sel+" on the loaded page, uncovered")
	// The point the condition found true, from that same evaluation.
	p.eval(`window.__clickAt`, &pt)
	p.step("clicking "+sel, chromedp.MouseClickXY(pt.X, pt.Y))
}

func (p *sitePage) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel), &s)
	return s
}

// fetch sends a request from the page (with the page's cookie, so as its
// player) and returns the answer's status and JSON body.
func (p *sitePage) fetch(method, path, body string, out any) int {
	p.t.Helper()
	var r struct {
		Status int
		Body   string
	}
	js := fmt.Sprintf(`fetch(%q, {method: %q, headers: {"Content-Type": "application/json"}%s}).then(async (r) => ({Status: r.status, Body: await r.text()}))`,
		path, method, map[bool]string{true: ", body: " + jsString(body), false: ""}[body != ""])
	p.eval(js, &r)
	if out != nil && r.Body != "" {
		if err := json.Unmarshal([]byte(r.Body), out); err != nil {
			p.t.Fatalf("%s %s: %v in %s", method, path, err, r.Body)
		}
	}
	return r.Status
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// noSideways: the page does not scroll sideways.
func (p *sitePage) noSideways(where string) {
	p.t.Helper()
	var r struct{ Scroll, Width int }
	p.eval(`({Scroll: document.documentElement.scrollWidth, Width: document.documentElement.clientWidth})`, &r)
	if r.Scroll > r.Width {
		p.t.Errorf("%s scrolls sideways: %d px wide in a %d px window", where, r.Scroll, r.Width)
	}
}

// otherPlayer is a second browser's API client (its own identity cookie).
func otherPlayer(tb testing.TB, srv *httptest.Server) func(method, path, body string, out any) int {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: webtest.StepTimeout}
	return func(method, path, body string, out any) int {
		tb.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			tb.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", srv.URL)
		resp, err := hc.Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				tb.Fatalf("%s %s: %v in %s", method, path, err, b)
			}
		}
		return resp.StatusCode
	}
}
