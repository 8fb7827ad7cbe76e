package spiderweb

// Browser test of the toolbar's menus in a short window (docs/page.md,
// "Layout"): a menu longer than the room below the bar scrolls within
// itself, and it lies over the analysis panel.

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/spider"
)

// menuWindow is a window the menus are used in; scrolls lists the menus
// (by their buttons) too long for its height, which scroll within
// themselves: every other menu fits.
type menuWindow struct {
	name    string
	w, h    int64
	scrolls []string
}

// lastMenuItems is each toolbar menu's last item and the dialog it opens
// when clicked, or "" for a switch (it turns its setting over).
var lastMenuItems = map[string]struct{ item, opens string }{
	"#btn-game-menu":  {`#menu-game [data-act="keys"]`, "#dlg-keys"},
	"#btn-cards-menu": {`#menu-cards [data-set="sound"]`, ""},
}

// TestBrowserSpiderMenus: in a phone held sideways (844x390), every
// control of the bar shows, and every item of every toolbar menu can be
// reached from the keyboard (the arrow keys, End and Home, each item
// shown whole and on top, past the disabled Restart of a game given up
// for its analysis) and with the mouse (the wheel over the menu,
// then a click on its last item, which does its work), also while the
// analysis panel shows at the window's foot. Before, the Cards menu's
// button lay past the window's right edge, the menu ran past the
// window's foot, its last items out of reach, and the analysis panel lay
// over the lower items of both menus. TestLongBrowserSpiderMenus checks
// the windows the menus fit.
func TestBrowserSpiderMenus(t *testing.T) {
	t.Parallel()
	usableMenus(t, menuWindow{"844x390", 844, 390, []string{"#btn-cards-menu"}})
}

// TestLongBrowserSpiderMenus: on a desktop (1280x800) and a phone held
// upright (390x844) every menu fits: shown whole, it does not scroll, and
// every item is reached from the keyboard, with and without the analysis
// panel.
func TestLongBrowserSpiderMenus(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	usableMenus(t, menuWindow{"1280x800", 1280, 800, nil}, menuWindow{"390x844", 390, 844, nil})
}

// usableMenus checks every toolbar menu in each window of wins, first
// without then with the analysis panel open: the bar's controls show
// whole (barInReach), each item is reached from the keyboard (walkMenu),
// and in a window where a menu does not fit, each menu's last item with
// the wheel and a click (clickLastItem).
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
				off := ""
				if panel != "" && m == "#btn-game-menu" {
					off = `#menu-game [data-act="restart"]` // the analysis gave the game up
				}
				p.walkMenu(m, win.name+panel, slices.Contains(win.scrolls, m), off)
				if len(win.scrolls) == 0 {
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

// walkMenu opens the menu of button btn from the keyboard and goes down
// it with the arrow key to its last item and round to the first, then
// takes End, Up, Home and Up (round to the last): each focused item must
// be reachable, the menu within the window, and End and Home must scroll
// a menu that scrolls to show their item. The menu must scroll if
// scrolls says so, else fit and not scroll. off, unless "", is an item that
// must be disabled (a given-up game's Restart) and that the arrow key
// goes past. where names the window in a failure.
func (p *browserPage) walkMenu(btn, where string, scrolls bool, off string) {
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
		OffShown       bool
		OffDisabled    bool
		OffAfter       int // the place among the enabled items of the item after off
	}
	p.eval(fmt.Sprintf(`(() => { const m = document.querySelector("[role=menu]:not([hidden])"), items = [...m.children].filter((b) => !b.disabled);
	  const off = %q ? m.querySelector(%[1]q) : null;
	  return {Items: items.length, Bottom: m.getBoundingClientRect().bottom, Window: innerHeight, Scrolls: m.scrollHeight > m.clientHeight,
	    OffShown: !!off, OffDisabled: !!off && off.disabled,
	    OffAfter: off ? items.filter((b) => b.compareDocumentPosition(off) & Node.DOCUMENT_POSITION_FOLLOWING).length : -1}; })()`, off), &menu)
	if menu.Bottom > menu.Window {
		t.Errorf("%s, %s's menu runs past the window's foot (%.0f px of %.0f)", where, btn, menu.Bottom, menu.Window)
	}
	if !scrolls && menu.Scrolls {
		t.Errorf("%s, %s's menu scrolls, though it fits the window", where, btn)
	}
	if scrolls && !menu.Scrolls {
		t.Errorf("%s, %s's menu does not scroll: the window is meant to be too short for it", where, btn)
	}
	if off != "" && (!menu.OffShown || !menu.OffDisabled) {
		t.Fatalf("%s, %s's menu: %s shown %v, disabled %v; want it shown and disabled", where, btn, off, menu.OffShown, menu.OffDisabled)
	}
	n := menu.Items
	// focused checks that after keys (named what) item want, counted
	// among the enabled items, has the focus and is reachable.
	focused := func(what string, want int) {
		t.Helper()
		var f struct {
			At   int
			Item reach
		}
		p.eval(`(() => { const e = document.activeElement, m = document.querySelector("[role=menu]:not([hidden])");
		  return {At: [...m.children].filter((b) => !b.disabled).indexOf(e), Item: (`+reachJS+`)(e)}; })()`, &f)
		if f.At != want {
			t.Fatalf("%s, %s's menu: after %s item %d (%q) has the focus, want item %d", where, btn, what, f.At, f.Item.Text, want)
		}
		if !f.Item.Reachable {
			t.Errorf("%s, %s's menu: focused with %s, %v is not shown whole on top", where, btn, what, f.Item)
		}
	}
	focused("opening it", 0)
	for i := 1; i <= n; i++ {
		p.keys(kb.ArrowDown)
		what := fmt.Sprintf("%d arrow keys down", i)
		if i%n == menu.OffAfter {
			what += " (the last from the item before the disabled " + off + ")"
		}
		focused(what, i%n)
	}
	for _, k := range []struct {
		key, what string
		want      int
	}{{kb.End, "End", n - 1}, {kb.ArrowUp, "End and Up", n - 2}, {kb.Home, "Home", 0}, {kb.ArrowUp, "Home and Up", n - 1}} {
		p.keys(k.key)
		focused(k.what, k.want)
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
	// anything a short window's menu could reach. A gesture sent while the
	// menu has only just opened can find no scroller under it yet (the
	// browser's compositor learns of it a frame later) and scroll nothing;
	// the gesture is turned again then, a few times at most.
	const atEnd = `(() => { const m = document.querySelector("[role=menu]:not([hidden])"); return m.scrollTop + m.clientHeight >= m.scrollHeight - 1; })()`
	for range 4 {
		p.scrollGesture(p.elementPoint("[role=menu]:not([hidden]) > *"), -400)
		var end bool
		if p.eval(atEnd, &end); end {
			break
		}
	}
	p.waitJS(atEnd, "the wheel to scroll "+btn+"'s menu to its end")
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
