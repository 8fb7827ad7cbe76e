package spiderweb

// Browser test helpers: the page in real Chromium (through chromedp) against the
// real server with a temporary SQLite database. A shadow spider.Game plays
// every move the test makes through the page, and after each step the page's
// tableau, the server's view and the shadow's view must agree.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
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
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	sp := New(db, Options{Hint: firstMoveHint})
	srv := httptest.NewServer(web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy}))
	tb.Cleanup(func() {
		srv.Close()
		db.Close()
	})
	return srv
}

// browserPage is one tab on the page, with the shadow game.
type browserPage struct {
	t      *testing.T
	ctx    context.Context
	srv    *httptest.Server
	shadow *spider.Game
}

// openPage opens a tab at w×h on the Spider page. Every step the helpers
// take in it has its own bound (webtest.StepTimeout), so a step that
// cannot finish fails naming itself, not the whole test at its timeout.
func openPage(t *testing.T, bctx context.Context, srv *httptest.Server, w, h int64, opts ...chromedp.ContextOption) *browserPage {
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

// gameID is the id of the game the page shows.
func (p *browserPage) gameID() string {
	p.t.Helper()
	var id string
	p.eval(`sessionStorage.getItem("cardtable.spider.game") || ""`, &id)
	if id == "" {
		p.t.Fatal("the page has no game id")
	}
	return id
}

// serverView asks the server for the page's game.
func (p *browserPage) serverView() spider.View {
	p.t.Helper()
	return getJSON[gameResponse](p, p.srv.URL+"/api/games/"+p.gameID()).View
}

type domPile struct {
	Down int      `json:"down"`
	Up   []string `json:"up"`
}

type domState struct {
	Piles     []domPile `json:"piles"`
	Moves     string    `json:"moves"`
	Score     string    `json:"score"`
	Deal      string    `json:"deal"`
	Stock     string    `json:"stock"`
	Completed int       `json:"completed"`
}

const domJS = `(() => ({
  piles: [...document.querySelectorAll("#tableau .pile")].map((p) => ({
    down: p.querySelectorAll(".card.down").length,
    up: [...p.querySelectorAll(".card.up")].map((c) => c.dataset.card),
  })),
  moves: document.querySelector("#st-moves").textContent,
  // "W" marks the Windows Spider score, when the player chose it
  score: (document.querySelector("#st-score-label").textContent === "Windows score" ? "W" : "") + document.querySelector("#st-score").textContent,
  deal: document.querySelector("#st-deal").textContent,
  stock: document.querySelector("#stock .stock-count").textContent,
  completed: document.querySelectorAll("#completed svg").length,
}))()`

func (p *browserPage) dom() domState {
	p.t.Helper()
	var d domState
	p.eval(domJS, &d)
	return d
}

// domOf is what the page should show for view v.
func domOf(v spider.View) domState {
	d := domState{Moves: fmt.Sprint(v.Moves), Score: fmt.Sprint(v.Score), Stock: fmt.Sprint(v.Stock / 10), Completed: len(v.Completed)}
	d.Deal = "Custom deal"
	if v.Deal != 0 {
		d.Deal = fmt.Sprintf("Deal #%d", v.Deal)
	}
	for _, pl := range v.Piles {
		up := pl.Up
		if up == nil {
			up = []string{}
		}
		d.Piles = append(d.Piles, domPile{Down: pl.Down, Up: up})
	}
	return d
}

// expect waits until the page shows the shadow game's view and checks that
// the server holds the same.
func (p *browserPage) expect(what string) {
	p.t.Helper()
	want := p.shadow.View(false)
	wantDOM := domOf(want)
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := p.dom()
		if strings.HasPrefix(got.Score, "W") {
			wantDOM.Score = fmt.Sprint("W", want.Breakdown.Windows)
		}
		if reflect.DeepEqual(got, wantDOM) {
			break
		}
		if time.Now().After(deadline) {
			p.shot("mismatch-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
			p.t.Fatalf("%s: the page shows\n%+v\nwant\n%+v", what, got, wantDOM)
		}
		time.Sleep(40 * time.Millisecond)
	}
	p.idle()
	// Cards that fly are not where they land yet: let them land before the
	// next gesture aims at them.
	p.waitJS(`document.getAnimations().length === 0`, "the animations to end")
	if got := p.serverView(); !reflect.DeepEqual(got, want) {
		p.t.Fatalf("%s: the server has\n%+v\nwant\n%+v", what, got, want)
	}
}

// play applies m to the shadow game; the page must then show the result.
func (p *browserPage) play(m spider.Move) {
	p.t.Helper()
	if err := p.shadow.Play(m); err != nil {
		p.t.Fatalf("shadow %v: %v", m, err)
	}
}

type point struct{ X, Y float64 }

// cardPoint is a point on card j (from underneath) of pile k (0-based), in
// the card's visible strip, or the middle of an empty pile.
func (p *browserPage) cardPoint(k, j int) point {
	p.t.Helper()
	var pt point
	p.eval(fmt.Sprintf(`(() => {
	  const pile = document.querySelector("#pile-%d");
	  const cards = pile.querySelectorAll(".card");
	  const j = %d < 0 ? cards.length - 1 : %d;
	  const el = cards[j] || pile;
	  const r = el.getBoundingClientRect();
	  const next = cards[j + 1];
	  const bottom = next ? next.getBoundingClientRect().top : r.bottom;
	  return { X: r.left + r.width / 2, Y: (r.top + Math.min(r.bottom, bottom)) / 2 };
	})()`, k, j, j), &pt)
	return pt
}

// bottomPoint is a point on pile k's bottom card (or the empty pile).
func (p *browserPage) bottomPoint(k int) point { return p.cardPoint(k, -1) }

func (p *browserPage) elementPoint(sel string) point {
	p.t.Helper()
	var pt point
	p.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return { X: r.left + r.width / 2, Y: r.top + r.height / 2 }; })()`, sel), &pt)
	return pt
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

// touchDrag drags with a finger from one point to another.
func (p *browserPage) touchDrag(from, to point) {
	p.t.Helper()
	p.touch(input.DispatchTouchEventTypeTouchStart, from)
	const n = 12
	for i := 1; i <= n; i++ {
		p.touch(input.DispatchTouchEventTypeTouchMove, point{from.X + (to.X-from.X)*float64(i)/n, from.Y + (to.Y-from.Y)*float64(i)/n})
	}
	p.touch(input.DispatchTouchEventTypeTouchEnd)
}

func (p *browserPage) keys(keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

func (p *browserPage) clickSel(sel string) {
	p.t.Helper()
	p.step("clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// menu opens a toolbar menu and picks an item.
func (p *browserPage) menu(menuButton, item string) {
	p.t.Helper()
	p.clickSel(menuButton)
	p.waitJS(fmt.Sprintf(`document.querySelector(%q).closest(".menu").querySelector("[role=menu]:not([hidden])")`, menuButton), "the menu to open")
	p.clickSel(item)
}

func (p *browserPage) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel), &s)
	return s
}

// refused checks that the last action was refused with a message containing
// want and changed nothing.
func (p *browserPage) refused(want string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`(document.body.dataset.lastError || "").includes(%q)`, want), "the refusal "+want)
	p.eval(`delete document.body.dataset.lastError`, nil)
	p.expect("after a refused move")
}

// newGameByNumber starts deal n through the New game dialog.
func (p *browserPage) newGameByNumber(n uint64) {
	p.t.Helper()
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	// Settings are the player's, shared by the browser's tabs: set each option.
	p.eval(`(() => { const f = document.querySelector("#form-new");
	  for (const k of ["open", "relaxed", "autoRemove", "winnable"]) f[k].checked = false;
	  f.cheat.value = "none"; return 1; })()`, nil)
	p.step("filling in the new game dialog",
		chromedp.SendKeys(chromedp.CSS("#new-deal"), fmt.Sprint(n)),
		chromedp.Click(chromedp.CSS(`#form-new input[name=variant][value=arachnid]`)),
		chromedp.Click(chromedp.CSS(`#form-new input[name=suits][value="4"]`)),
		chromedp.Click(chromedp.CSS("#new-start")),
	)
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the new game dialog to close")
	g, err := spider.NewGame(n, spider.Options{Variant: spider.Arachnid, Suits: 4})
	if err != nil {
		p.t.Fatal(err)
	}
	p.shadow = g
	p.expect(fmt.Sprintf("new game %d", n))
}

// noHorizontalScroll checks that the ten piles fit the viewport's width.
func (p *browserPage) noHorizontalScroll() {
	p.t.Helper()
	var r struct {
		ScrollWidth, Width float64
		Right              float64
	}
	p.eval(`(() => ({
	  ScrollWidth: document.documentElement.scrollWidth,
	  Width: document.documentElement.clientWidth,
	  Right: Math.max(...[...document.querySelectorAll("#tableau .pile, #bar, #top")].map((e) => e.getBoundingClientRect().right)),
	}))()`, &r)
	if r.ScrollWidth > r.Width || r.Right > r.Width {
		p.t.Errorf("the page scrolls sideways: scrollWidth %v, rightmost pile %v, viewport %v", r.ScrollWidth, r.Right, r.Width)
	}
}

// layoutSave builds a save file for a custom position.
func layoutSave(tb testing.TB, layout string) string {
	tb.Helper()
	pos, err := spider.ParseLayout(layout, spider.Rules{Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := spider.NewGameAt(pos, spider.Options{Variant: spider.Arachnid, Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	return g.Save()
}

// spaceLayout has six spaces, so dealing is refused; a complete diamond run
// stands on pile 1 and a club run to split on pile 2.
const spaceLayout = `
pile1: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4: 3D 2D AD
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
row1: KD QD JD TD 9D 8D 7D 6D 5D 4D
completed: S S H H C
`

// nearWonLayout is two moves from a win: remove the clubs on pile 1, then put
// the ace of clubs on the two.
const nearWonLayout = `
pile1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S H H D D
`

// stuckLayout has no move left: no spaces, an empty stock, and no bottom
// card one rank below another.
const stuckLayout = `
pile1: |QC |QD KC
pile2: |TC |TD KD
pile3: |8C |8D JC
pile4: |6C |6D JD
pile5: |4C |4D 9C
pile6: |3C |3D 9D
pile7: |2C |2D 7C
pile8: |AC |AD 7D
pile9: 5C
pile10: 5D
completed: S S H H D C
`

// noEndScreen checks that no end screen is showing: "no moves left" only
// when true. The page marks each view it draws with data-over (1 when the
// view ends the game, which schedules the end screen); with "0" on the view
// the test expects, no end screen is coming, so nothing needs waiting out.
func (p *browserPage) noEndScreen() {
	p.t.Helper()
	p.idle()
	var over string
	p.eval(`document.body.dataset.over || ""`, &over)
	if over != "0" {
		p.t.Errorf("the page marks the game over (data-over=%q) while moves are left", over)
	}
	var open bool
	p.eval(`document.querySelector("#dlg-end").open`, &open)
	if open {
		p.t.Errorf("an end screen (%q) shows while moves are left", p.text("#dlg-end-title"))
	}
}

// loadLayout loads a save file of a constructed position (a layout, see
// layoutSave) through the page's file input, as loadSaveFile does.
func (p *browserPage) loadLayout(layout string) {
	p.t.Helper()
	p.loadSaveFile(writeLayout(p.t, layout))
}

// loadSaveFile loads a save file through the page's file input (what the
// Game menu's "Load from a file" opens) and sets the shadow to it.
func (p *browserPage) loadSaveFile(path string) {
	p.t.Helper()
	before := p.gameID()
	p.step("choosing the save file", chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{path}))
	p.waitJS(fmt.Sprintf(`sessionStorage.getItem("cardtable.spider.game") !== %q`, before), "the loaded game")
	text, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	g, err := spider.Load(string(text))
	if err != nil {
		p.t.Fatal(err)
	}
	g.MarkLoaded()
	p.shadow = g
	p.expect("after loading " + filepath.Base(path))
}

func waitDownload(tb testing.TB, dir string) string {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".txt") {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err == nil && len(b) > 0 {
					os.Remove(filepath.Join(dir, e.Name()))
					return string(b)
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatal("no save file was downloaded")
	return ""
}

// getJSON reads url as the page's player: with the browser's identity
// cookie, which the page itself cannot read (HttpOnly).
func getJSON[T any](p *browserPage, url string) T {
	tb := p.t
	tb.Helper()
	var v T
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	res, err := chromedp.Run(sctx, func(ctx context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range res.Cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	resp, err := (&http.Client{Timeout: webtest.StepTimeout}).Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %s %s", url, resp.Status, b)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// statsGroup4 is the server's statistics for Arachnid with four suits.
func statsGroup4(p *browserPage, base string) statsGroup {
	tb := p.t
	tb.Helper()
	r := getJSON[struct {
		Groups []statsGroup `json:"groups"`
	}](p, base+"/api/stats")
	for _, g := range r.Groups {
		if g.Variant == "arachnid" && g.Suits == 4 {
			return g
		}
	}
	tb.Fatal(errors.New("no arachnid 4-suit statistics group"))
	return statsGroup{}
}

// reachJS is a function of a control (a menu item, a button of the bar):
// where it is and whether the player can see and reach it (within the
// window, and the control itself is what is under the pointer at its
// four edges and its middle: not cut off by the menu's edge, nor under
// another part of the page).
const reachJS = `(e) => {
  const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const on = (x, y) => { const h = document.elementFromPoint(x, y); return !!h && e.contains(h); };
  return {Text: e.textContent.trim(), Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Width: innerWidth, Height: innerHeight,
    Reachable: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight &&
      on(x, r.top + 2) && on(x, y) && on(x, r.bottom - 2) && on(r.left + 2, y) && on(r.right - 2, y)};
}`

// reach is what reachJS says of a control.
type reach struct {
	Text                     string
	Top, Bottom, Left, Right float64
	Width, Height            float64
	Reachable                bool
}

func (r reach) String() string {
	return fmt.Sprintf("%q at %.0f-%.0f px across, %.0f-%.0f down, in a %.0fx%.0f window", r.Text, r.Left, r.Right, r.Top, r.Bottom, r.Width, r.Height)
}

// barInReach checks that every control of the bar (the site's links, the
// buttons and the menus' buttons) shows whole in the window, with the
// page not scrolled sideways; where names the window in a failure.
func (p *browserPage) barInReach(where string) {
	t := p.t
	t.Helper()
	var bar struct {
		X        float64
		Controls []reach
	}
	p.eval(`({X: scrollX, Controls: [...document.querySelectorAll("#bar a, #bar .toolbar > button, #bar .menu > button")]
	  .filter((e) => e.getClientRects().length).map(`+reachJS+`)})`, &bar)
	if bar.X != 0 {
		t.Errorf("%s: the page is scrolled %.0f px sideways", where, bar.X)
	}
	for _, c := range bar.Controls {
		if !c.Reachable {
			t.Errorf("%s: the bar's %v does not show whole", where, c)
		}
	}
}

// closeToast closes the message box if it shows: it lies over the foot
// of the window, where a short window's menu ends.
func (p *browserPage) closeToast() {
	p.t.Helper()
	var shown bool
	p.eval(`!document.querySelector("#toast").hidden`, &shown)
	if shown {
		p.clickSel("#toast .close")
		p.waitJS(`document.querySelector("#toast").hidden`, "the message box to close")
	}
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
