package spiderweb

import (
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/spider"
)

// splitAutoLayout has two runs whose split auto-move goes elsewhere than
// the whole run's: on pile 1, 5D 4D go onto the 6C of pile 3 while the
// whole 7D..4D would go onto the 8C of pile 2; on pile 4, JD TD go onto
// the QC of pile 5 while QD JD TD would go onto the KC of pile 6.
const splitAutoLayout = `
pile1: 7D 6D 5D 4D
pile2: 8C
pile3: 6C
pile4: QD JD TD
pile5: QC
pile6: KC
pile7: |AC |2C |3C 4C
pile8: |5C |7C |9C TC
pile9: |JC |AD |2D 3D
pile10: |8D |KD 9D
completed: S S H H C D
`

// doubleClickWith presses and releases the button twice at pt, as a
// double-click of that button does.
func (p *browserPage) doubleClickWith(pt point, b chromedp.MouseOption) {
	p.t.Helper()
	p.do(
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, pt.X, pt.Y, b, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, pt.X, pt.Y, b, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, pt.X, pt.Y, b, chromedp.ClickCount(2)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, pt.X, pt.Y, b, chromedp.ClickCount(2)),
	)
}

// TestBrowserSplitDoubleClick: a double-click with the middle button is
// the Amiga Arachnid's split auto-move (Arachnid.help 1.11): the cards
// from the one clicked go where the auto-move's order sends them. The
// right button, the page's stand-in for the middle one, does the same.
// Before, the browser's dblclick (left button only) was the one way in,
// and two middle clicks only picked the cards up twice. Two clicks on
// different cards, or after one that put cards down, are no pair
// (docs/page.md, "Double-click").
func TestBrowserSplitDoubleClick(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.loadLayout(splitAutoLayout)
	// The page's clock is held still from here, so each pair of clicks
	// is within the double-click time however slowly the machine runs
	// (the page pairs these buttons' clicks itself, by its clock): what
	// pairs them or keeps them apart is the page's rule alone.
	p.eval(`(() => { const t0 = Date.now(); window.realNow = Date.now; Date.now = () => t0; return 1; })()`, nil)
	defer p.eval(`(Date.now = window.realNow, 1)`, nil)
	p.doubleClickWith(p.cardPoint(0, 2), chromedp.ButtonMiddle)
	p.play(spider.Cards(0, 2, 2))
	p.expect("a middle-button double-click on 5D moves 5D 4D onto 6C")
	p.doubleClickWith(p.cardPoint(3, 1), chromedp.ButtonRight)
	p.play(spider.Cards(3, 4, 2))
	p.expect("a right-button double-click on JD moves JD TD onto QC")

	// Two middle clicks on two cards of a pile are no pair: the second
	// picks up afresh from its card (5D 4D), where a pair would have sent
	// 5D 4D on to the 6D of pile 1.
	p.click(p.cardPoint(2, 2), chromedp.ButtonMiddle)
	p.waitJS(`document.querySelectorAll("#pile-2 .card.selected").length === 1`, "4D picked up")
	p.click(p.cardPoint(2, 1), chromedp.ButtonMiddle)
	p.waitJS(`document.querySelectorAll("#pile-2 .card.selected").length === 2`, "5D 4D picked up from 5D")
	p.idle()
	p.expect("a middle click on 4D, then on 5D: picked up, not moved")
	// A middle click that puts cards down is not the first of a pair: a
	// second on the same card at once picks up from it (7D 6D 5D 4D),
	// where a pair would have sent them on to the 8C of pile 2.
	at7D := p.cardPoint(0, 0)
	p.click(at7D, chromedp.ButtonMiddle)
	p.play(spider.Cards(2, 0, 2))
	p.expect("5D 4D put down on pile 1 by a middle click")
	p.do(
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, at7D.X, at7D.Y, chromedp.ButtonMiddle, chromedp.ClickCount(2)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, at7D.X, at7D.Y, chromedp.ButtonMiddle, chromedp.ClickCount(2)),
	)
	p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 4`, "7D..4D picked up")
	p.idle()
	p.expect("a middle click on 7D at once after the drop: picked up, not moved")
}

// amigaMenuItems are the menu items of the Amiga Arachnid
// (Arachnid.help 1.13-1.15), under their menus.
var amigaMenuItems = []string{
	"Game ▸ New", "Game ▸ Load…", "Game ▸ Save…", "Game ▸ Save As…", "Game ▸ Exit",
	"Move ▸ Undo", "Move ▸ Replay", "Move ▸ Deal Row",
	"Cards ▸ Display Column…", "Cards ▸ Locate Card…", "Cards ▸ Hide Deal and Discard",
	"Cards ▸ Cheat Level…", "Cards ▸ Verbose", "Cards ▸ Visual Dragging",
}

// TestBrowserArachnidMenuNames: a player who knows the Amiga Arachnid
// finds each of its menu items under its own name in the page's help
// (Game ▸ Keys and help), with where it is here, and each control named
// is on the page; F1 opens that help. The page has no Move menu and calls Replay "Restart",
// so before, such a player had nowhere to look them up.
func TestBrowserArachnidMenuNames(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	// F1 opens the help, as the Amiga's Help key opened a program's.
	p.keys(kb.F1)
	p.waitJS(`document.querySelector("#dlg-keys").open`, "the keys' help opened by F1")
	p.clickSel(`#dlg-keys [data-close]`)
	p.waitJS(`!document.querySelector("#dlg-keys").open`, "the help to close")
	p.menu("#btn-game-menu", `#menu-game [data-act="keys"]`)
	p.waitJS(`document.querySelector("#dlg-keys").open`, "the keys' help")
	var rows []struct {
		Name    string
		Ref     string
		Matches int
		Visible bool
	}
	p.eval(`[...document.querySelectorAll("#keys-amiga tr")].map((tr) => {
	  const ref = tr.dataset.ref || "";
	  const els = ref ? document.querySelectorAll(ref) : [];
	  return { Name: tr.querySelector("th").textContent, Ref: ref, Matches: els.length,
	    Visible: tr.checkVisibility() && tr.getBoundingClientRect().height > 0 };
	})`, &rows)
	found := map[string]bool{}
	for _, r := range rows {
		found[r.Name] = true
		if !r.Visible {
			t.Errorf("%s: its row is not shown in the help", r.Name)
		}
		if r.Ref != "" && r.Matches != 1 {
			t.Errorf("%s: the help points to %s, which matches %d controls", r.Name, r.Ref, r.Matches)
		}
	}
	for _, name := range amigaMenuItems {
		if !found[name] {
			t.Errorf("the help does not name the Amiga's %q", name)
		}
	}
}
