package spiderweb

// Browser tests of the keyboard's cursor on a table taller than the window
// (docs/page.md, "Moving cards"): its mark shows at the cursor pile's foot,
// where the keys scroll to, and the keys that deal, undo or auto-move keep
// that foot in view as the keys that move the cursor do.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// cursorLayout has a long pile 1 ending with a complete club suit (for A
// to remove) and a far longer pile 10 (so that the page scrolls on past
// pile 1's foot), single aces and a short pile 9 between them, and one
// row in the stock: a king of clubs for pile 1.
const cursorLayout = `
pile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KH QH JH TH 9H KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile2: AS
pile3: AS
pile4: AH
pile5: AH
pile6: AD
pile7: AD
pile8: AC
pile9: 3C 2C
pile10: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S 8H 7H 6H 5H 4H 3H 2H
row1: KC QC JC TC 9C 8C 7C 6C 5C 4C
`

// clubsLen is the length of cursorLayout's pile 1 without its clubs.
const clubsLen = 17

// phoneCursorLayout is for a phone held upright, where a pile must be
// longer to pass the window's foot: a pile 1 of 72 cards, the rest of the
// deck on the others and one row in the stock, a king of clubs for pile
// 1. No pile can be longer still (the deck has 104 cards), so A's steps,
// which need one, are left out there.
const phoneCursorLayout = `
pile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
pile2: AS
pile3: AS
pile4: AH
pile5: AH
pile6: AD
pile7: AD
pile8: 3C 2C AC
pile9: AC
pile10: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
row1: KC QC JC TC 9C 8C 7C 6C 5C 4C
`

// wholePile, as footJS's count, takes every card of a pile.
const wholePile = 200

// marksJS gives the ten piles' boxes in the window (a pile ends at its
// foot card's layout box: a card picked up is lifted a little), the
// window's size and scroll, and the accent colour the cursor is drawn in.
const marksJS = `({
  Piles: [...document.querySelectorAll("#tableau .pile")].map((p) => {
    const r = p.getBoundingClientRect();
    return {Left: r.left, Right: r.right, Top: r.top, Bottom: r.bottom};
  }),
  Height: innerHeight, ScrollX: scrollX, ScrollY: scrollY,
  Accent: getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
})`

// cursorMark is how many pixels of the accent colour show in the window
// over a pile's top and under its foot card (each a strip 8 px high, as
// wide as the pile less 4 px each side, where a neighbour's mark may
// reach), and the strips' width: what a player sees of the cursor there.
// Taken from a screenshot of the window, so a mark under the sticky bar,
// past the window's edge or not drawn at all counts nothing.
type cursorMark struct{ Top, Foot, Width int }

func (m cursorMark) atTop() bool  { return m.Top >= 2*m.Width }
func (m cursorMark) atFoot() bool { return m.Foot >= 2*m.Width }

func (m cursorMark) String() string {
	return fmt.Sprintf("%d accent pixels over the pile's top and %d under its foot card, in strips %d px wide", m.Top, m.Foot, m.Width)
}

// marks measures cursorMark for the piles ks.
func (p *browserPage) marks(ks ...int) []cursorMark {
	p.t.Helper()
	var b struct {
		Piles                    []struct{ Left, Right, Top, Bottom float64 }
		Height, ScrollX, ScrollY float64
		Accent                   string
	}
	p.eval(marksJS, &b)
	accent, err := parseHex(b.Accent)
	if err != nil {
		p.t.Fatalf("the accent colour %q: %v", b.Accent, err)
	}
	// One screenshot for them all: the window's height, from the first
	// pile's column to the last's (the clip is in the page's coordinates).
	x0, x1 := b.Piles[ks[0]].Left, b.Piles[ks[0]].Right
	for _, k := range ks {
		x0, x1 = min(x0, b.Piles[k].Left), max(x1, b.Piles[k].Right)
	}
	img := p.screenshot(page.Viewport{X: x0 + b.ScrollX, Y: b.ScrollY, Width: x1 - x0, Height: b.Height, Scale: 1})
	var ms []cursorMark
	for _, k := range ks {
		r := b.Piles[k]
		// The pile's column less 4 px each side, where a neighbour's mark
		// may reach.
		left, right := int(r.Left+4-x0), int(r.Right-4-x0)
		count := func(y0, y1 float64) int {
			n := 0
			for y := max(0, int(y0)); y < min(int(y1), int(b.Height)); y++ {
				for x := left; x < right; x++ {
					if near(img, x, y, accent) {
						n++
					}
				}
			}
			return n
		}
		ms = append(ms, cursorMark{Top: count(r.Top-8, r.Top), Foot: count(r.Bottom, r.Bottom+8), Width: right - left})
	}
	return ms
}

// mark is marks for pile k alone.
func (p *browserPage) mark(k int) cursorMark {
	p.t.Helper()
	return p.marks(k)[0]
}

// screenshot takes the part clip of the window, at one pixel per CSS pixel.
func (p *browserPage) screenshot(clip page.Viewport) image.Image {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	shot, err := chromedp.Call(sctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Clip: &clip, OptimizeForSpeed: new(true)})
	if err != nil {
		p.t.Fatalf("a screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(shot.Data))
	if err != nil {
		p.t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != int(clip.Width) || got.Y != int(clip.Height) {
		p.t.Fatalf("a screenshot of %.0fx%.0f px came %v", clip.Width, clip.Height, got)
	}
	return img
}

// parseHex reads a colour written #rrggbb.
func parseHex(s string) ([3]uint8, error) {
	var c [3]uint8
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil || len(s) != 7 {
		return c, fmt.Errorf("not #rrggbb")
	}
	return [3]uint8{uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

// near says whether the pixel at x, y is the colour c, give or take the
// blending at a rounded corner.
func near(img image.Image, x, y int, c [3]uint8) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	d := func(v uint32, w uint8) int { return max(int(v>>8)-int(w), int(w)-int(v>>8)) }
	return d(r, c[0]) <= 24 && d(g, c[1]) <= 24 && d(b, c[2]) <= 24
}

// TestBrowserSpiderCursorFoot: in a phone held sideways (844x390), the
// keyboard's cursor shows under its pile's foot card, where the keys
// scroll to, while the pile's top lies off the window; D deals a card past
// the window's foot onto the cursor's pile and the page follows it, just
// far enough; U takes it back and the page, the foot still in view,
// stays. Before, the mark was drawn over the pile's top alone, out of
// sight, and D left the new card below the window.
// TestLongBrowserSpiderCursorFoot checks A, U and a hidden cursor too, on
// a phone held upright as well, and the cursor's look at desktop size.
func TestBrowserSpiderCursorFoot(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.cursorFoot("844x390", cursorLayout, cursorSteps{})
}

// TestLongBrowserSpiderCursorFoot: at 844x390, the cursor on a short pile
// at the page's top marked under its foot card and no other pile marked,
// TestBrowserSpiderCursorFoot's steps, then A removing the clubs at pile
// 1's foot just below the bar (the page follows the foot up), U putting
// them back past the window's foot (the page follows it down), and A with
// the cursor hidden by a click off the table (the page stays). Then, on a
// phone held upright (390x844), the short pile's mark and
// TestBrowserSpiderCursorFoot's steps, and at 1280x800, where the piles fit,
// the cursor shown both over its pile's top and under its foot card (or
// its space's), and no other pile marked.
func TestLongBrowserSpiderCursorFoot(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.cursorFoot("844x390", cursorLayout, cursorSteps{shortPile: true, more: true})
	p.resize(390, 844)
	p.cursorFoot("390x844", phoneCursorLayout, cursorSteps{shortPile: true})

	p.resize(1280, 800)
	p.loadLayout(spaceLayout)
	p.closeToast()
	for _, k := range []int{0, 4, 9} { // a pile of 13 cards, and two spaces
		p.keys(pileKey(k))
		var y float64
		p.eval(`scrollY`, &y)
		if y != 0 {
			t.Errorf("1280x800: the cursor on pile %d scrolled the page %.0f px: the test needs every pile in view", k+1, y)
		}
		next := (k + 1) % 10
		if m := p.marks(k, next); !m[0].atTop() || !m[0].atFoot() || m[1].Top > 0 || m[1].Foot > 0 {
			t.Errorf("1280x800: the cursor on pile %d: %v, and pile %d %v; want the mark over pile %d's top and under its foot card alone", k+1, m[0], next+1, m[1], k+1)
		}
	}
}

// resize makes the window w×h and waits for the page's layout for it.
func (p *browserPage) resize(w, h int64) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(w, h))
	p.waitJS(fmt.Sprintf(`document.body.dataset.layoutWidth === "%d"`, w), fmt.Sprintf("the page laid out for %dx%d", w, h))
}

// cursorSteps says which steps cursorFoot runs besides
// TestBrowserSpiderCursorFoot's, the long pile's mark, D and U.
type cursorSteps struct {
	shortPile bool // first the mark of a short pile at the page's top
	more      bool // then A, U and A with the cursor hidden (cursorLayout)
}

// cursorFoot runs TestLongBrowserSpiderCursorFoot's steps in the window
// as it is (named win in failures) on layout (cursorLayout, or without
// steps.more one whose pile 1 is long and takes a card from the stock):
// TestBrowserSpiderCursorFoot's, and those steps says.
func (p *browserPage) cursorFoot(win, layout string, steps cursorSteps) {
	t := p.t
	p.loadLayout(layout)
	p.closeToast() // the load's message lies over the window's foot

	if steps.shortPile {
		// Two short piles at the page's top: the cursor's mark shows on
		// the cursor's pile only (the measure tells one from the other).
		p.keys("2")
		if m := p.marks(1, 2); !m[0].atFoot() || m[1].Top > 0 || m[1].Foot > 0 {
			t.Errorf("%s: the cursor on pile 2 at the page's top: %v, and pile 3 %v; want the mark under pile 2's foot card alone", win, m[0], m[1])
		}
	}
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("%s: pile 1's foot shows at the top of the page (%v): the layout is too short for the test", win, f)
	}

	// The cursor on the long pile 1: the page scrolls to its foot, its top
	// goes under the bar, and the mark shows under the foot card.
	p.keys(kb.Home)
	if f := p.foot(0, 1); !f.inView() {
		t.Fatalf("%s: the cursor on the long pile 1: its foot card at %v, want it in view", win, f)
	}
	if f := p.foot(0, wholePile); f.Top >= f.Bar {
		t.Fatalf("%s: pile 1 (%v) shows whole: the test needs its top out of view", win, f)
	}
	if m := p.mark(0); !m.atFoot() {
		t.Errorf("%s: the cursor on the long pile 1, scrolled to its foot: %v, want its mark under the foot card, in view", win, m)
	}

	// D deals a card onto pile 1's foot, a step lower, past the window's
	// foot: the page follows it.
	p.keys("d")
	p.play(spider.DealMove)
	p.expect(win + ": D")
	if f := p.foot(0, 1); !f.inView() || f.Low-f.Bottom > 12 {
		t.Errorf("%s: D dealt a card onto pile 1 at the window's foot: the card at %v, want it just above the window's foot", win, f)
	}
	if steps.more { // the screenshot only where it is checked
		if m := p.mark(0); !m.atFoot() {
			t.Errorf("%s: D dealt a card onto the cursor's pile: %v, want the mark under the new foot card", win, m)
		}
	}

	// U takes it back: the foot rises, still in view, and the page stays.
	at := p.foot(0, 1)
	p.keys("u")
	p.shadowUndo()
	p.expect(win + ": U after D")
	// (When pile 1 is the longest, the page grows shorter by a step, and
	// the browser may take back part of that step's scroll itself.)
	var clamped bool
	p.eval(`scrollY >= document.documentElement.scrollHeight - innerHeight - 1`, &clamped)
	if f := p.foot(0, 1); !f.inView() || f.ScrollY != at.ScrollY && !(clamped && f.ScrollY < at.ScrollY) {
		t.Errorf("%s: U took back the deal, pile 1's foot rising in view: at %v, want it in view and the page left at %.0f px", win, f, at.ScrollY)
	}
	if !steps.more {
		return
	}

	// The cursor to the far longer pile 10 and back: the page scrolls up
	// to pile 1's foot, just below the bar. A removes the clubs there, and
	// the new foot, 13 cards higher, comes out from under the bar.
	p.keys(kb.End)
	p.keys(kb.Home)
	if f := p.foot(0, 1); !f.inView() || f.Top-f.Bar > 20 {
		t.Fatalf("%s: the cursor from pile 10 back to pile 1: its foot card at %v, want it just below the bar", win, f)
	}
	p.keys("a")
	p.play(spider.RemoveFrom(0))
	p.expect(win + ": A on the clubs")
	if f := p.foot(0, 1); !f.inView() || f.Top-f.Bar > 20 {
		t.Errorf("%s: A removed the clubs at pile 1's foot, which lay just below the bar: the new foot at %v, want it just below the bar", win, f)
	}

	// The player scrolls to the page's top; the cursor on pile 1 again
	// brings its shorter foot to the window's foot. U puts the clubs back,
	// past the window's foot: the page follows them.
	p.toTop()
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("%s: pile 1's foot, %d cards down, shows at the page's top (%v): the layout is too short for the test", win, clubsLen, f)
	}
	p.keys(kb.Home)
	p.keys("u")
	p.shadowUndo()
	p.expect(win + ": U after A")
	if f := p.foot(0, 1); !f.inView() || f.Low-f.Bottom > 12 {
		t.Errorf("%s: U put the clubs back on pile 1: its foot card at %v, want it just above the window's foot", win, f)
	}

	// A click off the table (the moves in the status bar) hides the
	// cursor: a key then leaves the page alone, though pile 1's foot lies
	// out of view below.
	p.toTop()
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("%s: pile 1's foot shows at the page's top (%v): the test needs it out of view", win, f)
	}
	p.click(p.elementPoint("#st-moves"))
	if m := p.mark(0); m.Top > 0 {
		t.Errorf("%s: a click off the table: pile 1 shows %v, want the cursor hidden", win, m)
	}
	p.keys("a")
	p.play(spider.RemoveFrom(0))
	p.expect(win + ": A with the cursor hidden")
	if f := p.foot(0, 1); f.ScrollY != 0 {
		t.Errorf("%s: A with the cursor hidden by a click off the table: pile 1's foot at %v, want the page left at its top", win, f)
	}
}

// shadowUndo takes back the shadow game's last move.
func (p *browserPage) shadowUndo() {
	p.t.Helper()
	if err := p.shadow.Undo(); err != nil {
		p.t.Fatal(err)
	}
}
