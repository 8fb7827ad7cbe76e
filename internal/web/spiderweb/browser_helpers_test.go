package spiderweb

// Browser test helpers: the page in real Chromium (through chromedp) against the
// real server with a temporary SQLite database. This file starts the browser,
// the server and the tab, and drives the page: bounded steps, waits,
// screenshots, and the player's gestures (mouse, touch, keys, wheel). What
// the page shows of the game is checked in browser_game_test.go; where its
// parts lie in the window, in browser_geometry_test.go.

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// artifactDir keeps the screenshots (gitignored).
const artifactDir = "testdata/artifacts"

// startBrowser starts a headless Chromium with a fresh profile
// (webtest.StartBrowser: a missing Chromium skips, or fails in CI); the
// browser stops when the test ends.
func startBrowser(tb testing.TB) context.Context {
	tb.Helper()
	return webtest.StartBrowser(tb)
}

// firstMoveHint is the test server's hint: the first legal move that changes
// something, in the engine's order. The test predicts it the same way.
func firstMoveHint(_ context.Context, g *spider.Game) (spider.Move, error) {
	p := g.Position()
	var buf [256]spider.Move
	for _, m := range p.Legal(buf[:0]) {
		if !p.Null(m) {
			return m, nil
		}
	}
	return spider.Move{}, spider.ErrNothing
}

// pageServer starts the real server on a temporary database.
func pageServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	return pageServerAt(tb, filepath.Join(tb.TempDir(), "cardtable.db"))
}

// pageServerAt is pageServer on the database file at path, for a test
// that changes the file behind the server's back.
func pageServerAt(tb testing.TB, path string) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(pageSite(tb, path))
	tb.Cleanup(srv.Close) // before the database's close: cleanups run last first
	return srv
}

// pageSite is the real site on the database file at path, for a server
// that wraps it; the database is closed when the test ends, after the
// cleanups registered later (the server's).
func pageSite(tb testing.TB, path string) http.Handler {
	tb.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	sp := New(db, Options{Hint: firstMoveHint})
	return web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy})
}

// browserPage is one tab on the page, with the shadow game.
type browserPage struct {
	t      testing.TB
	ctx    context.Context
	srv    *httptest.Server
	shadow *spider.Game
}

// openPage opens a tab at w×h on the Spider page. Every step the helpers
// take in it has its own bound (webtest.StepTimeout), so a step that
// cannot finish fails naming itself, not the whole test at its timeout.
func openPage(t testing.TB, bctx context.Context, srv *httptest.Server, w, h int64, opts ...chromedp.ContextOption) *browserPage {
	t.Helper()
	p := &browserPage{t: t, ctx: webtest.OpenTab(t, bctx, w, h, opts...), srv: srv}
	p.watchErrors()
	p.load()
	return p
}

// watchErrors fails the test if the page throws an uncaught exception (or
// leaves a promise rejection unhandled): webtest.WatchErrors.
func (p *browserPage) watchErrors() { webtest.WatchErrors(p.ctx, p.t) }

func (p *browserPage) load() {
	p.t.Helper()
	p.do(chromedp.Navigate(p.srv.URL + spiderPage))
	p.waitJS(`document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`, "the page to start")
	var ms string
	p.eval(`document.body.dataset.readyMs`, &ms)
	p.t.Logf("page ready %s ms after navigation started", ms)
}

// measureKey is the page's sessionStorage key asking it to keep its
// measurements (state.js's MEASURE_KEY): window.cardtableRenderTimes and
// window.cardtableTimings.
const measureKey = "cardtable.measure"

// measure asks the page to keep its measurements and reloads it: the key
// is read as the page loads.
func (p *browserPage) measure() {
	p.t.Helper()
	p.eval(fmt.Sprintf(`sessionStorage.setItem(%q, "1"), 1`, measureKey), nil)
	p.load()
}

// spiderPage is the Spider page's address on the server.
const spiderPage = "/spider/"

// do runs browser actions as one step, bounded (webtest.Do); a failure
// ends the test at the caller's line.
func (p *browserPage) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	p.step("a browser action", steps...)
}

// step is do with the step named in the failure.
func (p *browserPage) step(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := webtest.Do(p.ctx, what, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval runs JavaScript and decodes its JSON result into out (if not nil),
// bounded (webtest.Eval).
func (p *browserPage) eval(js string, out any) {
	p.t.Helper()
	if err := webtest.Eval(p.ctx, js, out); err != nil {
		p.t.Fatal(err)
	}
}

// waitJS waits until the JavaScript condition holds, bounded
// (webtest.Wait); on failure a screenshot shows the page.
func (p *browserPage) waitJS(cond, what string) {
	p.t.Helper()
	if err := webtest.Wait(p.ctx, cond, what); err != nil {
		p.shot("timeout-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
		p.t.Fatal(err)
	}
}

func (p *browserPage) idle() {
	p.t.Helper()
	p.waitJS(`document.body.dataset.busy === "0"`, "the page to finish its requests")
}

func (p *browserPage) shot(name string) {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	buf, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(artifactDir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(artifactDir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}

func (p *browserPage) click(pt point, opts ...chromedp.MouseOption) {
	p.t.Helper()
	p.do(chromedp.MouseClickXY(pt.X, pt.Y, opts...))
}

func (p *browserPage) dblclick(pt point) {
	p.t.Helper()
	p.do(
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, pt.X, pt.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, pt.X, pt.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, pt.X, pt.Y, chromedp.ButtonLeft, chromedp.ClickCount(2)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, pt.X, pt.Y, chromedp.ButtonLeft, chromedp.ClickCount(2)),
	)
}

// drag presses at from, moves in steps and lets go at to, as a hand would.
func (p *browserPage) drag(from, to point) {
	p.t.Helper()
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, from.X, from.Y),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, from.X, from.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	const n = 12
	for i := 1; i <= n; i++ {
		x := from.X + (to.X-from.X)*float64(i)/n
		y := from.Y + (to.Y-from.Y)*float64(i)/n
		steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y, chromedp.ButtonLeft, func(q *input.DispatchMouseEventParams) { q.Buttons = 1 }))
	}
	steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, to.X, to.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	p.do(steps...)
}

func (p *browserPage) touch(typ input.DispatchTouchEventType, pts ...point) {
	p.t.Helper()
	tps := []*input.TouchPoint{}
	one := 1.0
	for _, pt := range pts {
		id := 0.0
		tps = append(tps, &input.TouchPoint{X: pt.X, Y: pt.Y, RadiusX: &one, RadiusY: &one, Force: &one, ID: &id})
	}
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	if _, err := chromedp.Call(sctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tps}); err != nil {
		p.t.Fatalf("touch: %v", err)
	}
}

func (p *browserPage) tap(pt point) {
	p.t.Helper()
	p.touch(input.DispatchTouchEventTypeTouchStart, pt)
	p.touch(input.DispatchTouchEventTypeTouchEnd)
}

// doubleTap taps twice at pt with a finger, as the browser's own gesture
// (Input.synthesizeTapGesture): the browser times the two taps, so they
// come within the page's double-tap time (input.js's DOUBLE_MS) however
// late the test's own steps are; two taps sent as a test's four touch
// steps came too far apart on a loaded machine, and were two single taps.
func (p *browserPage) doubleTap(pt point) {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	if _, err := chromedp.Call(sctx, input.SynthesizeTapGesture, input.SynthesizeTapGestureParams{
		X: pt.X, Y: pt.Y, TapCount: 2, GestureSourceType: input.GestureSourceTypeTouch,
	}); err != nil {
		p.t.Fatalf("double tap at %v: %v", pt, err)
	}
}

// touchDrag drags with a finger from one point to another. The finger's
// first move already goes past the page's touch slop (touchSlop), as a
// finger setting off does: a finger held still for half a second is a
// long press, and the page times that itself, so a drag whose first few
// small moves came late, as a test's do on a loaded machine, was taken
// for a long press and never dragged.
func (p *browserPage) touchDrag(from, to point) {
	p.t.Helper()
	p.touch(input.DispatchTouchEventTypeTouchStart, from)
	if d := math.Hypot(to.X-from.X, to.Y-from.Y); d > touchSlop {
		k := touchSlop / d
		from = point{from.X + (to.X-from.X)*k, from.Y + (to.Y-from.Y)*k}
		p.touch(input.DispatchTouchEventTypeTouchMove, from)
	}
	const n = 12
	for i := 1; i <= n; i++ {
		p.touch(input.DispatchTouchEventTypeTouchMove, point{from.X + (to.X-from.X)*float64(i)/n, from.Y + (to.Y-from.Y)*float64(i)/n})
	}
	p.touch(input.DispatchTouchEventTypeTouchEnd)
}

// touchSlop is a little past how far a finger may move and still be held
// still to the page (10 px, input.js's onPointerMove).
const touchSlop = 12

func (p *browserPage) keys(keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

func (p *browserPage) clickSel(sel string) {
	p.t.Helper()
	p.step("clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// menu opens a toolbar menu and picks an item. The button is clicked
// once free (webtest.Free); if the menu then does not open, the failure
// says what lay at the button's middle.
func (p *browserPage) menu(menuButton, item string) {
	p.t.Helper()
	if err := webtest.ClickFree(p.ctx, menuButton); err != nil {
		p.shot("timeout-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
		p.t.Fatal(err)
	}
	if err := webtest.Wait(p.ctx, fmt.Sprintf(`document.querySelector(%q).closest(".menu").querySelector("[role=menu]:not([hidden])")`, menuButton), "the menu to open"); err != nil {
		p.shot("timeout-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
		var at string
		p.eval(webtest.At(menuButton), &at)
		p.t.Fatalf("%v; the menu's button: %s", err, at)
	}
	p.clickSel(item)
}

func (p *browserPage) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel), &s)
	return s
}

// closeToast closes the message box if it shows: it lies over the foot
// of the window, where a short window's menu ends. The look and the
// press of its × are one step in the page: the box hides itself after a
// few seconds, and a click sent after a look that found it showing waited
// a whole step for a button that had gone meanwhile.
func (p *browserPage) closeToast() {
	p.t.Helper()
	p.eval(`(() => { const box = document.querySelector("#toast");
	  if (!box.hidden) box.querySelector(".close").click(); return 1; })()`, nil)
	p.waitJS(`document.querySelector("#toast").hidden`, "the message box to close")
}

// scrollGesture turns the mouse wheel at pt, dy px (negative: down the
// page), as the browser's own scroll gesture.
func (p *browserPage) scrollGesture(pt point, dy float64) {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	if _, err := chromedp.Call(sctx, input.SynthesizeScrollGesture, input.SynthesizeScrollGestureParams{
		X: pt.X, Y: pt.Y, YDistance: dy, Speed: 4000, GestureSourceType: input.GestureSourceTypeMouse,
	}); err != nil {
		p.t.Fatalf("scrolling at %v: %v", pt, err)
	}
}

// recordMessages makes the page note every message its message box shows
// from now on, as it shows (messagesShown reads them): the box hides
// itself after a few seconds, which the steps a test takes before it
// looks may outlast on a loaded machine.
func (p *browserPage) recordMessages() {
	p.t.Helper()
	p.eval(`(() => {
	  const box = document.querySelector("#toast"), seen = window.cardtableMessagesShown = [];
	  const look = () => {
	    const m = box.querySelector(".msg").textContent;
	    if (!box.hidden && seen[seen.length - 1] !== m) seen.push(m);
	  };
	  new MutationObserver(look).observe(box, {attributes: true, childList: true, characterData: true, subtree: true});
	  return 1;
	})()`, nil)
}

// messagesShown is what the message box showed since recordMessages.
func (p *browserPage) messagesShown() []string {
	p.t.Helper()
	var got []string
	p.eval(`window.cardtableMessagesShown`, &got)
	return got
}
