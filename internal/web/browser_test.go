package web

// Browser tests: the page in real Chromium (through chromedp) against the
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
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"cardtable/card"
	"cardtable/internal/store"
	"cardtable/spider"
)

// artifactDir keeps the screenshots (gitignored).
const artifactDir = "testdata/artifacts"

// chromiumPath finds Chromium ($CHROMIUM, else chromium, chromium-browser,
// google-chrome or chrome on the PATH). Without it the browser tests skip,
// saying so; with CARDTABLE_REQUIRE_BROWSER=1 (which .ci/run sets) a missing
// browser fails the test instead: a browser test skipped in CI is a defect.
func chromiumPath(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "CHROMIUM NOT FOUND: the browser tests did NOT run (install Debian's chromium, or set CHROMIUM=/path/to/chrome)"
	if os.Getenv("CARDTABLE_REQUIRE_BROWSER") == "1" {
		tb.Fatal(msg + "; CARDTABLE_REQUIRE_BROWSER=1 makes that a failure")
	}
	tb.Skip(msg)
	return ""
}

// startBrowser starts a headless Chromium with a fresh profile and returns
// its context; the browser stops when the test ends.
func startBrowser(tb testing.TB) context.Context {
	tb.Helper()
	exe := chromiumPath(tb)
	profile := tb.TempDir() // created first, so removed after the browser exits
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	tb.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		tb.Fatalf("starting chromium: %v", err)
	}
	return bctx
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
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "cardtable.db"))
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(New(db, Options{Hint: firstMoveHint}))
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

func openPage(t *testing.T, bctx context.Context, srv *httptest.Server, w, h int64, opts ...chromedp.ContextOption) *browserPage {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx, opts...)
	t.Cleanup(cancel)
	// A bound against a hung browser only (each wait has its own): a whole
	// subtest takes ~15 s on a quiet machine and 90 s at a load average of 25.
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(cancelT)
	p := &browserPage{t: t, ctx: ctx, srv: srv}
	p.do(chromedp.EmulateViewport(w, h)) // opens the tab
	p.watchErrors()
	p.load()
	return p
}

// watchErrors fails the test if the page throws an uncaught exception (or
// leaves a promise rejection unhandled). The watcher ends with the tab.
func (p *browserPage) watchErrors() {
	var mu sync.Mutex
	var errs []string
	// Events subscribes at once; the goroutine exits when the tab's context
	// ends, which ends the iteration.
	events := chromedp.Events(p.ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			errs = append(errs, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			mu.Unlock()
		}
	}()
	p.t.Cleanup(func() { // runs before the tab closes (cleanups run last first)
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			p.t.Errorf("page error: %s", e)
		}
	})
}

func (p *browserPage) load() {
	p.t.Helper()
	p.do(chromedp.Navigate(p.srv.URL + "/"))
	p.waitJS(`document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`, "the page to start")
	var ms string
	p.eval(`document.body.dataset.readyMs`, &ms)
	p.t.Logf("page ready %s ms after navigation started", ms)
}

func (p *browserPage) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval runs JavaScript and decodes its JSON result into out (if not nil).
func (p *browserPage) eval(js string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[json.RawMessage](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.t.Fatalf("decoding %s: %v", raw, err)
		}
	}
}

// waitJS waits until the JavaScript condition holds.
func (p *browserPage) waitJS(cond, what string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var ok bool
		p.eval(fmt.Sprintf(`!!(%s)`, cond), &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.shot("timeout-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
			p.t.Fatalf("timed out waiting for %s (%s)", what, cond)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

func (p *browserPage) idle() {
	p.t.Helper()
	p.waitJS(`document.body.dataset.busy === "0"`, "the page to finish its requests")
}

func (p *browserPage) shot(name string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
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
  score: document.querySelector("#st-score").textContent,
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
	if _, err := chromedp.Call(p.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tps}); err != nil {
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
	p.do(chromedp.Click(chromedp.CSS(sel)))
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
	p.do(
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

// loadSaveFile loads a save file through the page's file input (what the
// Game menu's "Load from a file" opens) and sets the shadow to it.
func (p *browserPage) loadSaveFile(path string) {
	p.t.Helper()
	before := p.gameID()
	p.do(chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{path}))
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

func TestBrowserGame(t *testing.T) {
	bctx := startBrowser(t)
	srv := pageServer(t)
	downloads := t.TempDir()
	enabled := true
	if _, err := chromedp.CallBrowser(bctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads, EventsEnabled: &enabled,
	}); err != nil {
		t.Fatal(err)
	}

	t.Run("desktop", func(t *testing.T) {
		p := openPage(t, bctx, srv, 1280, 800)
		p.newGameByNumber(617)
		p.noHorizontalScroll()
		// Deal 617 opens 9C 2C 2D TH JC QD 5S 3S 3D 4D.
		var label string
		p.eval(`document.querySelector("#pile-0").getAttribute("aria-label")`, &label)
		if !strings.Contains(label, "5 face down") || !strings.Contains(label, "nine of clubs") {
			t.Errorf("pile 1's label %q does not name its cards", label)
		}

		// Drag the jack of clubs onto the queen of diamonds.
		p.drag(p.bottomPoint(4), p.bottomPoint(5))
		p.play(spider.Cards(4, 5, 1))
		p.expect("drag JC onto QD")
		p.waitJS(`document.querySelector("#live").textContent.includes("Moved jack of clubs")`, "the move to be spoken")

		// Click the nine of clubs, then the ten of hearts.
		p.click(p.bottomPoint(0))
		p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, "the nine to be picked up")
		p.click(p.bottomPoint(3))
		p.play(spider.Cards(0, 3, 1))
		p.expect("click 9C then TH")

		// Keyboard: choose pile 8, pick up, choose pile 10, drop.
		p.keys("8")
		p.keys(kbEnter)
		p.keys("0")
		p.keys(kbEnter)
		p.play(spider.Cards(7, 9, 1))
		p.expect("keys 8 Enter 0 Enter")

		// An illegal move: the two of diamonds onto the five of spades.
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(6))
		p.refused("goes only on a card one rank higher")
		if msg := p.text("#toast .msg"); !strings.Contains(msg, "2♦") || !strings.Contains(msg, "5♠") {
			t.Errorf("the refusal shown is %q, want it to name 2♦ and 5♠", msg)
		}

		// Double-click the two of clubs: the auto-move.
		want, err := p.shadow.Pos().Auto(1, 0)
		p.dblclick(p.bottomPoint(1))
		if err != nil {
			p.refused("")
		} else {
			p.play(want)
			p.expect("double-click auto-move " + want.String())
		}

		// Hint: the page highlights the server's suggestion.
		hint, err := firstMoveHint(context.Background(), p.shadow)
		if err != nil {
			t.Fatal(err)
		}
		p.clickSel("#btn-hint")
		switch hint.Kind {
		case spider.MoveCards:
			p.waitJS(fmt.Sprintf(`document.querySelectorAll("#pile-%d .card.hint-src").length === %d && document.querySelector("#pile-%d").classList.contains("hint-dst")`,
				hint.From, hint.Count, hint.To), "the hint "+hint.String()+" highlighted")
		case spider.Deal:
			p.waitJS(`document.querySelector("#stock").classList.contains("hint-src")`, "the hinted deal highlighted")
		}
		hintWord := "Deal"
		if hint.Kind == spider.MoveCards {
			hintWord = fmt.Sprintf("pile %d", hint.From+1)
		}
		p.waitJS(fmt.Sprintf(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes(%q)`, hintWord), "the hint's text")

		// Deal a row by clicking the stock.
		p.click(p.elementPoint("#stock"))
		p.play(spider.DealMove)
		p.expect("deal")

		// Undo (button, Ctrl+Z), redo (Ctrl+Y, button, Ctrl+Shift+Z).
		shadowUndo := func() {
			if err := p.shadow.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		shadowRedo := func() {
			if err := p.shadow.Redo(); err != nil {
				t.Fatal(err)
			}
		}
		p.clickSel("#btn-undo")
		shadowUndo()
		p.expect("undo button")
		p.keys("z", chromedp.ModifierCtrl)
		shadowUndo()
		p.expect("Ctrl+Z")
		p.keys("y", chromedp.ModifierCtrl)
		shadowRedo()
		p.expect("Ctrl+Y")
		p.clickSel("#btn-redo")
		shadowRedo()
		p.expect("redo button")
		p.keys("z", chromedp.ModifierCtrl)
		shadowUndo()
		p.expect("Ctrl+Z again")
		p.keys("z", chromedp.ModifierCtrl, chromedp.ModifierShift)
		shadowRedo()
		p.expect("Ctrl+Shift+Z")
		p.shot("desktop-1280x800-midgame")

		// Save to a file (a real download), then load it back.
		p.menu("#btn-game-menu", `#menu-game [data-act="save-file"]`)
		saved := waitDownload(t, downloads)
		want617 := p.shadow.Save()
		if saved != want617 {
			t.Fatalf("downloaded save file:\n%s\nwant:\n%s", saved, want617)
		}
		path := filepath.Join(t.TempDir(), "game.txt")
		if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
			t.Fatal(err)
		}
		oldID := p.gameID()
		p.loadSaveFile(path)
		if p.gameID() == oldID {
			t.Fatal("loading did not start a new game")
		}

		// A damaged file is refused with the line at fault; the game stays.
		bad := filepath.Join(t.TempDir(), "damaged.txt")
		// The move line goes right after "moves: N".
		at := strings.Index(saved, "moves:")
		at += strings.IndexByte(saved[at:], '\n') + 1
		if err := os.WriteFile(bad, []byte(saved[:at]+"move 1 2 9\n"+saved[at:]), 0o644); err != nil {
			t.Fatal(err)
		}
		keep := p.gameID()
		p.do(chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{bad}))
		p.waitJS(`(document.body.dataset.lastError || "").startsWith("Could not load damaged.txt: ") && document.body.dataset.lastError.includes("line ")`, "the damaged file refused with its line")
		if p.gameID() != keep {
			t.Fatal("a damaged file replaced the game")
		}
		p.expect("after a refused load")

		// Saved games on the server: save under a name, find it listed, open it.
		p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
		p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
		p.eval(`document.querySelector("#save-name").value = ""`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "Lunch break"))
		p.clickSel(`#form-save button[type=submit]`)
		p.waitJS(`[...document.querySelectorAll("#saves-list td")].some((td) => td.textContent === "Lunch break")`, "the save listed")
		before := p.gameID()
		p.clickSel(`#saves-list button[aria-label="Open Lunch break"]`)
		p.waitJS(fmt.Sprintf(`sessionStorage.getItem("cardtable.spider.game") !== %q && !document.querySelector("#dlg-saves").open`, before), "the saved game opened")
		p.expect("the saved game opened")

		// Restart: confirm, and the deal starts again.
		p.clickSel("#btn-restart")
		p.waitJS(`document.querySelector("#dlg-confirm").open`, "the restart confirmation")
		p.clickSel("#confirm-yes")
		p.shadow.Restart()
		p.expect("restart")

		// Letter keys: D deals, U undoes.
		p.keys("d")
		p.play(spider.DealMove)
		p.expect("key D")
		p.keys("u")
		if err := p.shadow.Undo(); err != nil {
			t.Fatal(err)
		}
		p.expect("key U")

		// Cards menu: locate a card, display a column, hide the deal and
		// discard areas.
		p.menu("#btn-cards-menu", `#menu-cards [data-act="locate"]`)
		p.waitJS(`document.querySelector("#dlg-locate").open`, "the locate dialog")
		p.do(chromedp.SendKeys(chromedp.CSS("#locate-card"), "qd\n"))
		p.waitJS(`document.querySelector("#locate-text").textContent === "Queen of diamonds: pile 6 (card 5 of 5)."`, "the queen of diamonds located")
		p.waitJS(`document.querySelectorAll("#pile-5 .card.located").length === 1`, "the located card highlighted")
		p.clickSel(`#dlg-locate [data-close]`)
		p.menu("#btn-cards-menu", `#menu-cards [data-act="column"]`)
		p.waitJS(`document.querySelector("#dlg-column").open`, "the display column dialog")
		p.clickSel(`#column-piles button[aria-label="Pile 4"]`)
		p.waitJS(`document.querySelector("#column-text").textContent === "Pile 4 (5 face down): ten of hearts."`, "pile 4 displayed")
		p.clickSel(`#dlg-column [data-close]`)
		p.menu("#btn-cards-menu", `#menu-cards [data-set="hideAreas"]`)
		p.waitJS(`getComputedStyle(document.querySelector("#stock")).display === "none" && getComputedStyle(document.querySelector("#completed")).display === "none"`, "the deal and discard areas hidden")
		p.menu("#btn-cards-menu", `#menu-cards [data-set="hideAreas"]`)
		p.waitJS(`getComputedStyle(document.querySelector("#stock")).display !== "none"`, "the deal and discard areas back")

		// Settings persist: verbose off survives a reload, on the server too.
		p.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "verbose off")
		p.idle()
		p.load()
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "verbose still off after a reload")
		settings := getJSON[map[string]any](p, srv.URL+"/api/settings")
		if settings["verbose"] != false {
			t.Errorf("server settings %v: want verbose false", settings)
		}
		// With verbose off a refusal is only a sound: no message box.
		p.eval(`document.querySelector("#toast").hidden = true`, nil)
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(6))
		p.refused("goes only on")
		var toastHidden bool
		p.eval(`document.querySelector("#toast").hidden`, &toastHidden)
		if !toastHidden {
			t.Error("verbose off: a refused move still showed a message box")
		}
		p.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "true"`, "verbose on")

		// A constructed position with spaces: dealing is refused; split a run
		// with a right-click and with the T key; double-click removes a suit.
		spacePath := filepath.Join(t.TempDir(), "spaces.txt")
		if err := os.WriteFile(spacePath, []byte(layoutSave(t, spaceLayout)), 0o644); err != nil {
			t.Fatal(err)
		}
		p.loadSaveFile(spacePath)
		p.noEndScreen()
		p.click(p.elementPoint("#stock"))
		p.refused("space")
		// The middle button (the Amiga's) picks up from the six of clubs;
		// then the right button, from the five.
		p.do(chromedp.MouseClickXY(p.cardPoint(1, 7).X, p.cardPoint(1, 7).Y, chromedp.ButtonMiddle))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 5`, "the split from the six of clubs")
		p.do(chromedp.MouseClickXY(p.cardPoint(1, 8).X, p.cardPoint(1, 8).Y, chromedp.ButtonRight))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "the split from the five of clubs")
		p.click(p.bottomPoint(4))
		p.play(spider.Cards(1, 4, 4))
		p.expect("right-click split 5C..2C into a space")
		p.keys("2")
		p.keys("t")
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 8`, "T picks the run")
		p.keys("t")
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 7`, "T splits one card off")
		p.keys("6")
		p.keys(kbEnter)
		p.play(spider.Cards(1, 5, 7))
		p.expect("T-key split QC..6C into a space")
		p.dblclick(p.bottomPoint(0))
		p.play(spider.RemoveFrom(0))
		p.expect("double-click removes the complete suit")
		p.noEndScreen()

		// A position with no move left: the end screen says so.
		stuckPath := filepath.Join(t.TempDir(), "stuck.txt")
		if err := os.WriteFile(stuckPath, []byte(layoutSave(t, stuckLayout)), 0o644); err != nil {
			t.Fatal(err)
		}
		p.loadSaveFile(stuckPath)
		if !p.shadow.Stuck() {
			t.Fatal("stuckLayout is not stuck")
		}
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "No moves left"`, "the no-moves-left screen")
		var undoShown bool
		p.eval(`!document.querySelector('#end-buttons [data-end="undo"]').hidden`, &undoShown)
		if undoShown {
			t.Error("the no-moves-left screen offers undo with nothing to undo")
		}
		p.shot("desktop-1280x800-stuck")
		p.clickSel(`#end-buttons [data-end="restart"]`)
		p.waitJS(`!document.querySelector("#dlg-end").open`, "the end screen to close")
		p.idle()

		// The near-won position: drag a complete suit to the completed area,
		// then finish by clicks; the end screen and statistics follow.
		statsBefore := statsGroup4(p, srv.URL)
		wonPath := filepath.Join(t.TempDir(), "nearwon.txt")
		if err := os.WriteFile(wonPath, []byte(layoutSave(t, nearWonLayout)), 0o644); err != nil {
			t.Fatal(err)
		}
		p.loadSaveFile(wonPath)
		p.drag(p.cardPoint(0, 0), p.elementPoint("#completed"))
		p.play(spider.RemoveFrom(0))
		p.expect("drag a complete suit to the completed area")
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(1))
		p.play(spider.Cards(2, 1, 1))
		p.expect("the winning move")
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "You won!"`, "the win screen")
		bd := p.shadow.Score()
		endText := p.text("#end-breakdown")
		for _, part := range []string{"Complete suits (50 each)", fmt.Sprint(bd.Complete), "Total", fmt.Sprint(bd.Total)} {
			if !strings.Contains(endText, part) {
				t.Errorf("end screen breakdown %q lacks %q", endText, part)
			}
		}
		p.shot("desktop-1280x800-won")

		// Statistics: one more game won, shown in the panel with its charts.
		p.clickSel(`#end-buttons [data-end="stats"]`)
		p.waitJS(`document.querySelector("#dlg-stats").open && document.querySelector("#stats-charts svg")`, "the statistics panel")
		statsAfter := statsGroup4(p, srv.URL)
		if statsAfter.Won != statsBefore.Won+1 || statsAfter.Played <= statsBefore.Played {
			t.Errorf("statistics after the win: %+v, before: %+v", statsAfter, statsBefore)
		}
		if statsAfter.CurrentStreak < 1 || statsAfter.BestScore < bd.Counted {
			t.Errorf("statistics after the win: streak %d, best %d (score %d)", statsAfter.CurrentStreak, statsAfter.BestScore, bd.Counted)
		}
		var shown map[string]string
		p.eval(`Object.fromEntries([...document.querySelectorAll("#stats-numbers div")].map((d) => [d.dataset.stat, d.querySelector("dd").textContent]))`, &shown)
		if shown["won"] != fmt.Sprint(statsAfter.Won) || shown["played"] != fmt.Sprint(statsAfter.Played) {
			t.Errorf("the panel shows %v; the server has played %d, won %d", shown, statsAfter.Played, statsAfter.Won)
		}
		var dots int
		p.eval(`document.querySelectorAll("#stats-charts svg")[0].querySelectorAll("circle").length`, &dots)
		if dots != len(statsAfter.History) {
			t.Errorf("the score chart has %d points, want %d", dots, len(statsAfter.History))
		}
		p.shot("desktop-1280x800-statistics")
		var times []float64
		p.eval(`window.cardtableTimings`, &times)
		if len(times) > 0 {
			slices.Sort(times)
			t.Logf("%d accepted commands, request to redrawn table: median %.1f ms, max %.1f ms", len(times), times[len(times)/2], times[len(times)-1])
		}
	})

	t.Run("options", func(t *testing.T) {
		// Spider, two suits, open tableau and relaxed dealing through the
		// New game dialog; Spider's scoring freezes at the first undo.
		p := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())
		p.clickSel("#btn-new")
		p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
		p.do(
			chromedp.SendKeys(chromedp.CSS("#new-deal"), "#42"),
			chromedp.Click(chromedp.CSS(`#form-new input[name=variant][value=spider]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=suits][value="2"]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=open]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=relaxed]`)),
			chromedp.Click(chromedp.CSS("#new-start")),
		)
		p.waitJS(`!document.querySelector("#dlg-new").open`, "the new game dialog to close")
		// A fresh player's default removes completed suits automatically.
		g, err := spider.NewGame(42, spider.Options{Variant: spider.Spider, Suits: 2, Open: true, Relaxed: true, AutoRemove: true})
		if err != nil {
			t.Fatal(err)
		}
		p.shadow = g
		p.expect("Spider, 2 suits, open, relaxed, deal 42")
		if got := p.text("#st-kind"); got != "Spider · 2 suits · open · relaxed" {
			t.Errorf("status shows %q", got)
		}
		// The open tableau shows the covered cards, marked as covered.
		var covered []string
		p.eval(`[...document.querySelectorAll("#pile-0 .card.covered")].map((c) => c.dataset.card)`, &covered)
		if want := g.View(false).Piles[0].Hidden; !reflect.DeepEqual(covered, want) {
			t.Errorf("pile 1 shows covered cards %v, want %v", covered, want)
		}
		// The new game's options became the defaults for the next one.
		settings := getJSON[map[string]any](p, srv.URL+"/api/settings")
		if ng, _ := settings["newGame"].(map[string]any); ng["variant"] != "spider" || ng["suits"] != 2.0 {
			t.Errorf("settings after a Spider 2-suit game: %v", settings)
		}
		p.clickSel("#btn-deal")
		p.play(spider.DealMove)
		p.expect("deal")
		p.clickSel("#btn-undo")
		if err := p.shadow.Undo(); err != nil {
			t.Fatal(err)
		}
		p.expect("undo")
		if !p.shadow.ScoringStopped() {
			t.Fatal("the shadow's scoring did not stop")
		}
		if got := p.text("#st-note"); got != "(frozen)" {
			t.Errorf("after an undo in Spider the score note is %q, want (frozen)", got)
		}
		p.shot("desktop-1280x800-spider-open")
	})

	t.Run("phone", func(t *testing.T) {
		// A fresh browser context: a new player, with nothing stored.
		// A phone: a fresh browser context (a new player, nothing stored), the
		// mobile viewport and touch input.
		p := openPage(t, bctx, srv, 390, 844, chromedp.WithNewBrowserContext())
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
		p.load()
		// The largest deal number shows exactly (beyond JavaScript's 2^53).
		p.newGameByNumber(card.MaxDeal)
		p.newGameByNumber(617)
		p.noHorizontalScroll()
		p.touchDrag(p.bottomPoint(4), p.bottomPoint(5))
		p.play(spider.Cards(4, 5, 1))
		p.expect("phone: drag JC onto QD with a finger")
		p.tap(p.bottomPoint(0))
		p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, "the nine picked up by a tap")
		p.tap(p.bottomPoint(3))
		p.play(spider.Cards(0, 3, 1))
		p.expect("phone: tap 9C then TH")
		// A double tap is the auto-move.
		auto, err := p.shadow.Pos().Auto(1, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.tap(p.bottomPoint(1))
		p.tap(p.bottomPoint(1))
		p.play(auto)
		p.expect("phone: double tap auto-move " + auto.String())
		for i := range 5 {
			p.clickSel("#btn-deal")
			p.play(spider.DealMove)
			p.expect(fmt.Sprintf("phone: deal %d", i+1))
		}
		p.noHorizontalScroll()
		// Every pile fits the screen's height once the stock is dealt.
		var overflow float64
		p.eval(`Math.max(...[...document.querySelectorAll("#tableau .card")].map((c) => c.getBoundingClientRect().bottom)) - window.innerHeight`, &overflow)
		if overflow > 0 {
			t.Errorf("phone: the piles run %vpx below the screen", overflow)
		}
		p.tap(p.bottomPoint(2))
		p.shot("phone-390x844")

		// A long press picks up from the pressed card (a split): the five of
		// clubs of the club run, then a tap on a space puts the four there.
		spacePath := filepath.Join(t.TempDir(), "spaces.txt")
		if err := os.WriteFile(spacePath, []byte(layoutSave(t, spaceLayout)), 0o644); err != nil {
			t.Fatal(err)
		}
		p.loadSaveFile(spacePath)
		// The finger stays down until the page's long-press timer has picked
		// the cards up; they stay picked up after it lifts.
		p.touch(input.DispatchTouchEventTypeTouchStart, p.cardPoint(1, 8))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "a long press to pick up four cards")
		p.touch(input.DispatchTouchEventTypeTouchEnd)
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "the four cards to stay picked up")
		p.tap(p.bottomPoint(6))
		p.play(spider.Cards(1, 6, 4))
		p.expect("phone: long-press split into a space")

		// The smallest phones in use (320 px wide) do not scroll sideways either.
		p.do(chromedp.EmulateViewport(320, 568, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
		// The page lays out again shortly after a resize and marks the width
		// it laid out for.
		p.waitJS(`document.documentElement.clientWidth === 320 && document.body.dataset.layoutWidth === "320"`, "the page laid out for 320 px")
		p.noHorizontalScroll()
	})
}

// kbEnter is the Enter key for chromedp.KeyEvent.
const kbEnter = "\r"

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
	res, err := chromedp.Run(p.ctx, func(ctx context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range res.Cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	resp, err := http.DefaultClient.Do(req)
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
