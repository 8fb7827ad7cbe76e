package spiderweb

// Browser test of the toolbar's menus in a short window (docs/page.md,
// "Layout"): a menu longer than the room below the bar scrolls within
// itself, and it lies over the analysis panel.

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// menuWindow is a window the menus are used in; fits says whether every
// menu fits its height.
type menuWindow struct {
	name string
	w, h int64
	fits bool
}

// lastMenuItems is each toolbar menu's last item and the dialog it opens
// when clicked, or "" for a switch (it turns its setting over).
var lastMenuItems = map[string]struct{ item, opens string }{
	"#btn-game-menu":  {`#menu-game [data-act="keys"]`, "#dlg-keys"},
	"#btn-cards-menu": {`#menu-cards [data-set="sound"]`, ""},
}

// TestBrowserSpiderMenus: in a phone held sideways (844x390), every
// control of the bar shows, and every item of every toolbar menu can be
// reached from the keyboard (the arrow key goes down the menu, each item
// shown whole and on top) and with the mouse (the wheel over the menu,
// then a click on its last item, which does its work), also while the
// analysis panel shows at the window's foot. Before, the Cards menu's
// button lay past the window's right edge, the menu ran past the
// window's foot, its last items out of reach, and the analysis panel lay
// over the lower items of both menus. TestLongBrowserSpiderMenus checks
// the windows the menus fit.
func TestBrowserSpiderMenus(t *testing.T) {
	usableMenus(t, menuWindow{"844x390", 844, 390, false})
}

// TestLongBrowserSpiderMenus: on a desktop (1280x800) and a phone held
// upright (390x844) every menu fits: shown whole, it does not scroll, and
// every item is reached from the keyboard, with and without the analysis
// panel.
func TestLongBrowserSpiderMenus(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	usableMenus(t, menuWindow{"1280x800", 1280, 800, true}, menuWindow{"390x844", 390, 844, true})
}

// usableMenus checks every toolbar menu in each window of wins, first
// without then with the analysis panel open: the bar's controls show
// whole (barInReach), each item is reached from the keyboard (walkMenu),
// and where a menu does not fit, its last item with the wheel and a
// click (clickLastItem).
func usableMenus(t *testing.T, wins ...menuWindow) {
	p := openPage(t, startBrowser(t), analysisPageServer(t, unknownAnalysis), wins[0].w, wins[0].h)
	var menus []string
	p.eval(`[...document.querySelectorAll("#bar [aria-haspopup=menu]")].map((b) => "#" + b.id)`, &menus)
	if len(menus) < 2 {
		t.Fatalf("toolbar menus %v: want the Game and Cards menus at least", menus)
	}
	for _, panel := range []string{"", " with the analysis panel open"} {
		if panel != "" {
			p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
			p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
			p.clickSel("#confirm-yes")
			p.waitJS(`!document.querySelector("#analysis").hidden && document.body.dataset.busy === "0"`, "the analysis panel")
		}
		for _, win := range wins {
			p.do(chromedp.EmulateViewport(win.w, win.h))
			p.waitJS(fmt.Sprintf(`document.body.dataset.layoutWidth === "%d"`, win.w), "the page laid out for "+win.name)
			for _, m := range menus {
				p.barInReach(win.name + panel)
				p.walkMenu(m, win.name+panel, win.fits)
				if win.fits {
					continue
				}
				last, ok := lastMenuItems[m]
				if !ok {
					t.Errorf("menu %s: the test does not know its last item", m)
					continue
				}
				p.clickLastItem(m, last.item, last.opens, win.name+panel)
			}
		}
	}
}

// unknownAnalysis is an analysis that decides nothing: every position
// unknown, no winning line.
func unknownAnalysis(_ context.Context, g *spider.Game) (*Analysis, error) {
	res := make([]string, g.MovesPlayed()+1)
	for i := range res {
		res[i] = "unknown"
	}
	return &Analysis{Results: res, LastWinnable: -1}, nil
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

// walkMenu opens the menu of button btn from the keyboard and goes down
// it with the arrow key to its last item and round to the first, past
// the items disabled (a given-up game's Restart): each focused item must
// be reachable, and the menu within the window. A menu that fits (fits)
// must not scroll. where names the window in a failure.
func (p *browserPage) walkMenu(btn, where string, fits bool) {
	t := p.t
	t.Helper()
	p.closeToast()
	p.step("focusing "+btn, chromedp.Focus(chromedp.CSS(btn)))
	p.keys(kb.Enter)
	p.waitJS(`document.querySelector("[role=menu]:not([hidden])")`, btn+"'s menu to open")
	var menu struct {
		Items          int
		Bottom, Window float64
		Scrolls        bool
	}
	p.eval(`(() => { const m = document.querySelector("[role=menu]:not([hidden])");
	  return {Items: [...m.children].filter((b) => !b.disabled).length, Bottom: m.getBoundingClientRect().bottom,
	    Window: innerHeight, Scrolls: m.scrollHeight > m.clientHeight}; })()`, &menu)
	if menu.Bottom > menu.Window {
		t.Errorf("%s, %s's menu runs past the window's foot (%.0f px of %.0f)", where, btn, menu.Bottom, menu.Window)
	}
	if fits && menu.Scrolls {
		t.Errorf("%s, %s's menu scrolls, though it fits the window", where, btn)
	}
	n := menu.Items
	for i := 0; i <= n; i++ {
		var it reach
		var at int
		p.eval(`(() => { const e = document.activeElement; return [...e.parentElement.children].filter((b) => !b.disabled).indexOf(e); })()`, &at)
		p.eval(`(`+reachJS+`)(document.activeElement)`, &it)
		if at != i%n {
			t.Fatalf("%s, %s's menu: after %d arrow keys item %d (%q) has the focus, want item %d", where, btn, i, at, it.Text, i%n)
		}
		if !it.Reachable {
			t.Errorf("%s, %s's menu: focused from the keyboard, %v is not shown whole on top", where, btn, it)
		}
		p.keys(kb.ArrowDown)
	}
	p.keys(kb.Escape)
	p.waitJS(`!document.querySelector("[role=menu]:not([hidden])")`, btn+"'s menu to close")
}

// clickLastItem opens the menu of button btn with a click, turns the
// mouse wheel over it as far as it goes and clicks its last item, item,
// which must be reachable and then do its work: open the dialog opens
// (closed again after), or, opens "", turn its switch over.
func (p *browserPage) clickLastItem(btn, item, opens, where string) {
	t := p.t
	t.Helper()
	p.closeToast()
	p.click(p.elementPoint(btn)) // where it is: barInReach checked it shows
	p.waitJS(`document.querySelector("[role=menu]:not([hidden])")`, btn+"'s menu to open")
	var before struct {
		Checked string
		Last    bool
	}
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q);
	  return {Checked: e.getAttribute("aria-checked") || "", Last: e === e.parentElement.lastElementChild}; })()`, item), &before)
	if !before.Last {
		t.Errorf("%s is not the last item of %s's menu", item, btn)
	}
	// The wheel turns over the first item, at the menu's top, on top of
	// anything a short window's menu could reach.
	p.scrollGesture(p.elementPoint("[role=menu]:not([hidden]) > *"), -400)
	p.waitJS(`(() => { const m = document.querySelector("[role=menu]:not([hidden])"); return m.scrollTop + m.clientHeight >= m.scrollHeight - 1; })()`,
		"the wheel to scroll "+btn+"'s menu to its end")
	var it reach
	p.eval(fmt.Sprintf(`(%s)(document.querySelector(%q))`, reachJS, item), &it)
	if !it.Reachable {
		t.Errorf("%s, %s's menu scrolled with the wheel: its last item, %v, is not shown whole on top", where, btn, it)
		p.keys(kb.Escape)
		return
	}
	p.click(p.elementPoint(item))
	done := fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-checked") !== %q`, item, before.Checked)
	if opens != "" {
		done = fmt.Sprintf(`document.querySelector(%q).open`, opens)
	}
	p.waitJS(done, fmt.Sprintf("%s: %q clicked to do its work", where, it.Text))
	if opens != "" {
		p.clickSel(opens + " [data-close]")
	}
	p.waitJS(`!document.querySelector("[role=menu]:not([hidden])") && !document.querySelector("dialog[open]")`, "the menu and any dialog to close")
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
