package spiderweb

// Browser tests of the message box at the window's foot (docs/page.md,
// "Messages"): it never hides what the player is using, an open menu's
// last items or the foot of the pile the keyboard's cursor is on, and it
// stays readable, above the analysis panel when that shows.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// msgPlace is where the message box shows and whether it covers a part of
// the page (Part, as reachJS sees it).
type msgPlace struct {
	Shown                    bool
	Text                     string
	Top, Bottom, Left, Right float64
	Readable                 bool // whole in the window and on top at its middle
	Covers                   bool // it overlaps Part
	Part                     reach
}

func (m msgPlace) String() string {
	return fmt.Sprintf("the message %q (shown %v, readable %v) at %.0f-%.0f px across, %.0f-%.0f down", m.Text, m.Shown, m.Readable, m.Left, m.Right, m.Top, m.Bottom)
}

// msgJS measures the message box against a part of the page, e.
const msgJS = `((e) => {
  const t = document.querySelector("#toast"), m = t.getBoundingClientRect(), r = e.getBoundingClientRect();
  const mid = document.elementFromPoint((m.left + m.right) / 2, (m.top + m.bottom) / 2);
  return {Shown: !t.hidden, Text: t.querySelector(".msg").textContent, Top: m.top, Bottom: m.bottom, Left: m.left, Right: m.right,
    Readable: !t.hidden && m.top >= 0 && m.left >= 0 && m.bottom <= innerHeight && m.right <= innerWidth && !!mid && t.contains(mid),
    Covers: !t.hidden && r.left < m.right && r.right > m.left && r.top < m.bottom && r.bottom > m.top,
    Part: (` + reachJS + `)(e)};
})`

// message measures the message box against the element the JavaScript
// expression part gives.
func (p *browserPage) message(part string) msgPlace {
	p.t.Helper()
	var m msgPlace
	p.eval(fmt.Sprintf("%s(%s)", msgJS, part), &m)
	return m
}

// clearOf checks that a message shows, readable, and that the part (named
// what) is shown whole, on top and not under it; where names the case.
func (p *browserPage) clearOf(part, what, where string) {
	p.t.Helper()
	m := p.message(part)
	if !m.Shown {
		p.t.Fatalf("%s: the message closed before %s could be measured: the test ran too slowly", where, what)
	}
	if !m.Readable {
		p.t.Errorf("%s: %v is not shown whole on top", where, m)
	}
	if m.Covers || !m.Part.Reachable {
		p.shot("message-covers-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
		p.t.Errorf("%s: %s, %v, is not shown whole on top (%v covers it: %v)", where, what, m.Part, m, m.Covers)
	}
}

// longMessage shows a message as wide as the box gets, over the middle of
// the window's foot: the completed area, at the page's top, clicked with
// nothing picked up says how to remove a suit.
func (p *browserPage) longMessage() {
	p.t.Helper()
	p.toTop()
	p.click(p.elementPoint("#completed"))
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.startsWith("Pick up a complete suit")`, "the message on removing a suit")
}

// sayJS shows a message from the page's own message module, as an answer
// arriving while the player is in a menu would.
const sayJS = `import("/spider/messages.js").then((m) => (m.info("This game changed in another tab or window: here it is as it stands now, with every move played there."), 1))`

// lastItemJS is the open menu's last item.
const lastItemJS = `document.querySelector("[role=menu]:not([hidden])").lastElementChild`

// menuClearOfMessage opens the menu of button btn with a click, goes to
// its last item with End and checks that a message shown before does not
// cover it; then, the menu open again at its last item, that a message
// coming meanwhile does not either. where names the window.
func (p *browserPage) menuClearOfMessage(btn, where string) {
	p.t.Helper()
	openAtEnd := func() {
		p.click(p.elementPoint(btn))
		p.waitJS(`document.querySelector("[role=menu]:not([hidden])")`, btn+"'s menu to open")
		p.keys(kb.End)
		p.waitJS(`document.activeElement === `+lastItemJS, btn+"'s last item to take the focus")
	}
	p.longMessage()
	openAtEnd()
	p.clearOf(lastItemJS, btn+"'s last item", where+", a message shown, then the menu opened")
	p.keys(kb.Escape)
	p.closeToast()
	openAtEnd()
	p.eval(sayJS, nil)
	p.waitJS(`!document.querySelector("#toast").hidden`, "the message")
	p.clearOf(lastItemJS, btn+"'s last item", where+", the menu open at its last item, then a message")
	p.keys(kb.Escape)
	p.closeToast()
}

// TestBrowserSpiderMessageClearsMenu: in a phone held sideways (844x390),
// a message at the window's foot, shown before a toolbar menu opens or
// while it is open, leaves the menu's last item shown whole above it,
// and stays readable. Before, the message lay over the lowest items of
// the menus, which end just above the window's foot.
// TestLongBrowserSpiderMessageClears checks a phone held upright and the
// analysis panel.
func TestBrowserSpiderMessageClearsMenu(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.closeToast()
	for _, btn := range []string{"#btn-game-menu", "#btn-cards-menu"} {
		p.menuClearOfMessage(btn, "844x390")
	}
}

// middleTallLayout is tallLayout(long, medium) with its long pile on pile
// 5, under the middle of the window's foot, where every message lies, and
// pile 5's ace (of hearts) on pile 1.
func middleTallLayout(long, medium int) string {
	return strings.NewReplacer("pile1:", "pile5:", "pile5:", "pile1:").Replace(tallLayout(long, medium))
}

// footCardJS is pile 5's foot card.
const footCardJS = `document.querySelector("#pile-4").lastElementChild`

// TestBrowserSpiderMessageClearsKeysFoot: in a phone held sideways
// (844x390), with a pile longer than the window under the middle of its
// foot, a message shown while the cursor is on that pile (one no command
// follows up) leaves the pile's foot card whole above it; then an ace
// picked up from the keyboard and dropped on that foot is refused with a
// message: the page scrolls so that the foot card
// shows whole above the message, and the message is said to the screen
// reader. With the message still showing, the cursor back on the long
// pile brings its foot above the message again. When the message closes,
// the table does not move. Before, the foot lay under the message.
func TestBrowserSpiderMessageClearsKeysFoot(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.keysFootClear("844x390", 56, 40)
}

// keysFootClear runs TestBrowserSpiderMessageClearsKeysFoot's steps in
// the window (named win) on a middleTallLayout(long, medium), whose long
// pile must run past the window's foot and end with a card an ace does
// not go on (not a two).
func (p *browserPage) keysFootClear(win string, long, medium int) {
	t := p.t
	t.Helper()
	p.loadLayout(middleTallLayout(long, medium))
	p.closeToast()
	// A message no command follows up (as one from another tab): only the
	// page's answer to the message itself can lift the foot above it.
	p.keys("5")
	p.footAtWindowFoot(win)
	p.eval(sayJS, nil)
	p.clearOf(footCardJS, "pile 5's foot card", win+", the foot shown, then a message")
	p.closeToast()
	p.toTop()

	p.keys("1")
	p.keys(kb.Enter)
	p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, win+": Enter to pick up pile 1's ace")
	p.keys("5")
	p.footAtWindowFoot(win)
	p.eval(`delete document.body.dataset.lastError`, nil)
	p.keys(kb.Enter)
	p.waitJS(`(document.body.dataset.lastError || "").startsWith("Illegal move")`, win+": the ace refused on pile 5's foot")
	p.clearOf(footCardJS, "pile 5's foot card", win+", the foot shown, then a refusal's message")
	p.waitJS(`document.querySelector("#live").textContent.includes("goes only on")`, win+": the refusal said to the screen reader")

	p.keys("1")
	p.keys("5")
	p.clearOf(footCardJS, "pile 5's foot card", win+", a message shown, then the cursor on the long pile")

	before := p.foot(4, 1)
	p.closeToast()
	p.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))`, nil)
	if after := p.foot(4, 1); after.Top != before.Top {
		t.Errorf("%s: the message closed: pile 5's foot card moved from %v to %v, want the table left where it was", win, before, after)
	}
}

// footAtWindowFoot fails unless the cursor on the long pile 5 brought
// its foot card just above the window's foot, where a message shows.
func (p *browserPage) footAtWindowFoot(win string) {
	p.t.Helper()
	if f := p.foot(4, 1); !f.inView() || f.Low-f.Bottom > 12 {
		p.t.Fatalf("%s: the cursor on the long pile 5: its foot card at %v, want it just above the window's foot, where a message shows", win, f)
	}
}

// TestLongBrowserSpiderMessageClears: TestBrowserSpiderMessageClearsMenu
// and TestBrowserSpiderMessageClearsKeysFoot on a phone held upright
// (390x844); then in a phone held sideways (844x390) with the analysis
// panel open, a message shows above the panel, readable, leaving the
// panel's buttons in reach, and the long pile's foot brought into view
// from the keyboard and the menus' last items stay clear of it.
func TestLongBrowserSpiderMessageClears(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	bctx := startBrowser(t)
	srv := analysisPageServer(t, unknownAnalysis)
	p := openPage(t, bctx, srv, 390, 844)
	p.closeToast()
	for _, btn := range []string{"#btn-game-menu", "#btn-cards-menu"} {
		p.menuClearOfMessage(btn, "390x844")
	}
	p.keysFootClear("390x844", 70, 26)

	const win = "844x390 with the analysis panel"
	p = openPage(t, bctx, srv, 844, 390)
	p.loadLayout(middleTallLayout(56, 40))
	p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	p.clickSel("#confirm-yes")
	p.waitJS(`!document.querySelector("#analysis").hidden && document.body.dataset.busy === "0"`, "the analysis panel")
	p.longMessage()
	p.clearOf(`document.querySelector("#an-close")`, "the panel's button Back to the game", win)
	if m := p.message(`document.querySelector("#analysis")`); m.Covers {
		t.Errorf("%s: %v lies over the panel", win, m)
	}
	p.keys("5")
	p.clearOf(footCardJS, "pile 5's foot card", win+", a message shown, then the cursor on the long pile")
	if f := p.foot(4, 1); !f.inView() {
		t.Errorf("%s: the cursor on the long pile 5: its foot card at %v, want it in view above the panel", win, f)
	}
	for _, btn := range []string{"#btn-game-menu", "#btn-cards-menu"} {
		p.menuClearOfMessage(btn, win)
	}
}

// TestBrowserSpiderMessageClearsPointer: in a phone held sideways
// (844x390), with the long pile 5's foot card at the window's foot, where
// a message shows, a click putting an ace on it is refused with a message
// that leaves the clicked card whole and on top, and the page does not
// scroll; the cursor put on pile 5 from the keyboard then brings the box
// back to the window's foot, pile 5's foot card above it, and U, taking
// back the move before, closes the refusal; a drag of that card
// dropped on an ace far above is refused, and the card flies back home
// clear of the message. Before, the message lay over the card just
// clicked or dragged, for seconds; then a key left the foot card under the
// box at the window's top, and the drag's message stayed at the foot,
// over the card come home.
// TestLongBrowserSpiderMessageClearsPointer checks a phone held upright
// (taps, a finger's drag) and 1280x800, and the box's way back to the
// foot.
func TestBrowserSpiderMessageClearsPointer(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.pointerFootClear("844x390", 56, 40, false)
}

// TestLongBrowserSpiderMessageClearsPointer: TestBrowserSpiderMessageClearsPointer
// on a phone held upright (390x844) with taps and a finger's drag, and at
// 1280x800 with the mouse; then, the message at the window's top, the
// cursor moved onto the long pile from the keyboard brings the message
// back to the foot and the pile's foot card above it, as after any key;
// so do a click off the table and a menu opened from the keyboard.
func TestLongBrowserSpiderMessageClearsPointer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	bctx, srv := startBrowser(t), pageServer(t)
	openPage(t, bctx, srv, 390, 844).pointerFootClear("390x844", 70, 26, true)
	const win = "1280x800"
	p := openPage(t, bctx, srv, 1280, 800)
	p.pointerFootClear(win, 80, 16, false)
	p.keys("5")
	p.clearOf(footCardJS, "pile 5's foot card", win+", a message at the top, then the cursor on the long pile")
	p.msgAtFoot(win + ", a message at the top, then the cursor on the long pile")

	p.msgAtTop(win)
	p.click(p.elementPoint("#st-moves"))
	p.msgAtFoot(win + ", a message at the top, then a click off the table")

	// The keys open the menu (a click would be a press off the table):
	// the focus on its button stands for the Tab key's way there.
	p.msgAtTop(win)
	p.eval(`document.querySelector("#btn-game-menu").focus(), 1`, nil)
	p.keys(kb.Enter)
	p.waitJS(`!document.querySelector("#menu-game").hidden`, win+": the game menu opened with Enter")
	p.msgAtFoot(win + ", a message at the top, then the game menu opened from the keyboard")
	p.clearOf(lastItemJS, "the game menu's last item", win+", a message at the top, then the game menu opened from the keyboard")
	p.keys(kb.Escape)
}

// msgSideJS says where the message box shows: "top" (just below the bar),
// "foot" (in the window's lower half) or "hidden".
const msgSideJS = `(() => {
  const t = document.querySelector("#toast"), r = t.getBoundingClientRect();
  return t.hidden ? "hidden" : r.top < document.querySelector("#bar").getBoundingClientRect().bottom + 20 ? "top" : r.top > innerHeight / 2 ? "foot" : "middle";
})()`

// msgAtFoot fails unless the message box shows at the window's foot.
func (p *browserPage) msgAtFoot(where string) {
	p.t.Helper()
	var side string
	p.eval(msgSideJS, &side)
	if side != "foot" {
		p.t.Errorf("%s: the message box shows at the window's %s, want it back at its foot", where, side)
	}
}

// msgAtTop puts a message at the window's top (win names the window): the
// message closed, pile 5's foot card scrolled to the window's foot and
// clicked (picking it up or putting it back), a message coming then, as
// one from another tab, shows at the window's top.
func (p *browserPage) msgAtTop(win string) {
	p.t.Helper()
	p.closeToast()
	p.scrollFootDown(win)
	p.click(p.bottomPoint(4))
	p.eval(sayJS, nil)
	p.waitJS(`!document.querySelector("#toast").hidden`, win+": the message")
	var side string
	p.eval(msgSideJS, &side)
	if side != "top" {
		p.t.Fatalf("%s: a message over pile 5's foot card, just clicked, shows at the window's %s, want it at its top", win, side)
	}
}

// scrollFootDown scrolls the page, as the player would, to show pile 5's
// foot card at the window's foot, where a message shows.
func (p *browserPage) scrollFootDown(win string) {
	p.t.Helper()
	p.eval(`(() => { const r = `+footCardJS+`.getBoundingClientRect(); window.scrollBy({top: r.bottom - innerHeight + 4, behavior: "instant"}); return 1; })()`, nil)
	p.footAtWindowFoot(win)
}

// pointerFootClear runs TestBrowserSpiderMessageClearsPointer's steps in
// the window (named win) on a middleTallLayout(long, medium), whose long
// pile must run past the window's foot and end with a card that neither
// takes an ace nor goes on one, and whose pile 10 ends with a two; touch
// uses a finger for the mouse.
func (p *browserPage) pointerFootClear(win string, long, medium int, touch bool) {
	t := p.t
	t.Helper()
	press, slide := p.click, p.drag
	if touch {
		press = func(pt point, _ ...chromedp.MouseOption) { p.tap(pt) }
		slide = p.touchDrag
	}
	p.loadLayout(middleTallLayout(long, medium))
	p.closeToast()
	p.toTop()
	// A move for U to take back: pile 1's ace onto pile 10's two.
	press(p.bottomPoint(0))
	p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, win+": pile 1's ace picked up")
	p.eval(`document.querySelector("#pile-9").lastElementChild.scrollIntoView({block: "center", behavior: "instant"}), 1`, nil)
	press(p.bottomPoint(9))
	p.waitJS(`document.querySelector("#pile-0").children.length === 0 && document.getAnimations().length === 0`, win+": pile 1's ace put on pile 10")
	p.toTop()
	press(p.bottomPoint(1))
	p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 1`, win+": pile 2's ace picked up")
	// The player scrolls pile 5's foot card to the window's foot.
	p.scrollFootDown(win)
	at := p.foot(4, 1)

	press(p.bottomPoint(4))
	p.waitJS(`(document.body.dataset.lastError || "").startsWith("Illegal move")`, win+": the ace refused on pile 5's foot")
	p.clearOf(footCardJS, "pile 5's foot card", win+", the ace refused on it by a click")
	if f := p.foot(4, 1); f.ScrollY != at.ScrollY {
		t.Errorf("%s: a click refused: the page scrolled from %.0f px to %.0f, want it left where the player put it", win, at.ScrollY, f.ScrollY)
	}

	// The cursor on pile 5, the message still at the window's top: the
	// keys lead again.
	p.keys("5")
	p.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))`, nil)
	p.clearOf(footCardJS, "pile 5's foot card", win+", a click refused, then the cursor on pile 5")
	p.msgAtFoot(win + ", a click refused, then the cursor on pile 5")
	// U takes back the move before: played, it closes the refusal, which
	// is no longer news (TestBrowserRefusalGoesOnSuccess).
	// The box is checked as the move shows (it closes as the move is
	// drawn), seconds before its own timer could close it.
	var shown, closed bool
	p.eval(`!document.querySelector("#toast").hidden`, &shown)
	if !shown {
		t.Fatalf("%s: the refusal closed before U", win)
	}
	p.keys("u")
	p.waitJS(`document.querySelector("#pile-0").children.length === 1`, win+": U put the ace back on pile 1")
	p.eval(`document.querySelector("#toast").hidden`, &closed)
	if !closed {
		t.Errorf("%s: the refusal still shows as the move taken back is drawn", win)
	}
	p.waitJS(`document.getAnimations().length === 0`, win+": the ace back on pile 1")

	// A drag of pile 5's foot card dropped on pile 6's ace far above: the
	// card flies back to the window's foot.
	p.scrollFootDown(win)
	p.eval(`delete document.body.dataset.lastError`, nil)
	var high float64
	p.eval(`document.querySelector("#bar").getBoundingClientRect().bottom + innerHeight / 4`, &high)
	slide(p.bottomPoint(4), point{p.elementPoint("#pile-5").X, high})
	p.waitJS(`(document.body.dataset.lastError || "").startsWith("Illegal move")`, win+": pile 5's foot card refused on an ace")
	p.waitJS(`document.getAnimations().length === 0`, win+": the card back on pile 5")
	p.clearOf(footCardJS, "pile 5's foot card", win+", dragged onto an ace far above and refused")
}
