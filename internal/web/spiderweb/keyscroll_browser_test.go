package spiderweb

// Browser test of the keyboard on a table taller than the window
// (docs/page.md, "Moving cards"): the cursor's pile's foot, and the cards
// picked up, are scrolled into view, and only as far as needed.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/spider"
)

// tallLayout has a pile 1 of long cards and a pile 10 of medium, together
// the kings to twos of the eight suits in turn (long+medium is 96), and
// the aces on piles 2 to 9.
func tallLayout(long, medium int) string {
	var seq []string
	for _, s := range "SSHHDDCC" {
		for _, r := range "KQJT98765432" {
			seq = append(seq, string(r)+string(s))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pile1: %s\n", strings.Join(seq[:long], " "))
	for k, s := range "SSHHDDCC" {
		fmt.Fprintf(&b, "pile%d: A%c\n", k+2, s)
	}
	fmt.Fprintf(&b, "pile10: %s\n", strings.Join(seq[long:long+medium], " "))
	return b.String()
}

// footJS measures where pile k's foot card (with n > 1, its last n cards)
// stands in the window: the bar's foot, the window's (or, when it shows,
// the analysis panel's top), and the page's offset.
const footJS = `((k, n) => {
  const cs = [...document.querySelectorAll("#pile-" + k + " .card")].slice(-n), panel = document.querySelector("#analysis");
  return {Top: cs[0].getBoundingClientRect().top, Bottom: cs[cs.length - 1].getBoundingClientRect().bottom,
    Bar: document.querySelector("#bar").getBoundingClientRect().bottom,
    Low: panel.hidden ? document.documentElement.clientHeight : panel.getBoundingClientRect().top, ScrollY: scrollY};
})`

// footPlace is what footJS says.
type footPlace struct{ Top, Bottom, Bar, Low, ScrollY float64 }

func (f footPlace) inView() bool { return f.Top >= f.Bar && f.Bottom <= f.Low }

func (f footPlace) String() string {
	return fmt.Sprintf("%.0f-%.0f px down, the bar ending at %.0f, the window's room at %.0f, the page scrolled %.0f px", f.Top, f.Bottom, f.Bar, f.Low, f.ScrollY)
}

// foot is footJS for pile k's last n cards.
func (p *browserPage) foot(k, n int) footPlace {
	p.t.Helper()
	var f footPlace
	p.eval(fmt.Sprintf("%s(%d, %d)", footJS, k, n), &f)
	return f
}

// toTop scrolls the page back to its top.
func (p *browserPage) toTop() {
	p.t.Helper()
	p.eval(`window.scrollTo({top: 0, behavior: "instant"}), scrollY`, nil)
}

// TestBrowserSpiderKeysScroll: in a phone held sideways (844x390), with a
// pile longer than the window, the arrow keys bring the cursor's pile's
// foot into view below the bar, scrolling just far enough (down to the
// long pile's foot, back up to a short pile's); and a pile whose foot
// already shows does not scroll the page. Cards picked up (T) come into
// view too, and so do cards put down with Enter. Before, the page never scrolled: the long pile's
// foot stayed below the window's bottom. TestLongBrowserSpiderKeysScroll
// checks a phone held upright and the analysis panel.
func TestBrowserSpiderKeysScroll(t *testing.T) {
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.keysScroll("844x390", 844, 390, 56, 40)
}

// TestLongBrowserSpiderKeysScroll: TestBrowserSpiderKeysScroll on a phone
// held upright (390x844); then, with the analysis panel open at the
// window's foot, the long pile's foot comes into view above the panel.
func TestLongBrowserSpiderKeysScroll(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := openPage(t, startBrowser(t), analysisPageServer(t, unknownAnalysis), 390, 844)
	p.keysScroll("390x844", 390, 844, 72, 24)
	p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	p.clickSel("#confirm-yes")
	p.waitJS(`!document.querySelector("#analysis").hidden && document.body.dataset.busy === "0"`, "the analysis panel")
	p.keys("2")
	p.toTop()
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("pile 1's foot shows above the analysis panel at the top of the page (%v): the test needs it hidden", f)
	}
	p.keys(kb.Home)
	if f := p.foot(0, 1); !f.inView() || f.Low-f.Bottom > 12 {
		t.Errorf("the cursor on the long pile 1 with the analysis panel open: its foot card at %v, want it just above the panel", f)
	}
}

// keysScroll runs TestBrowserSpiderKeysScroll's steps in a w×h window
// (named win in failures) on a tallLayout(long, medium): the lengths are
// chosen so that pile 1's foot lies below the window at the page's top,
// and pile 10's shows beside it.
func (p *browserPage) keysScroll(win string, w, h int64, long, medium int) {
	t := p.t
	p.do(chromedp.EmulateViewport(w, h))
	p.waitJS(fmt.Sprintf(`document.body.dataset.layoutWidth === "%d"`, w), "the page laid out for "+win)
	p.loadLayout(tallLayout(long, medium))
	p.keys("2")
	p.toTop()
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("%s: pile 1's foot shows at the top of the page (%v): the layout is too short for the test", win, f)
	}
	p.keys("3")
	if f := p.foot(2, 1); f.ScrollY != 0 || !f.inView() {
		t.Errorf("%s: the cursor moved between piles whose feet show: pile 3's foot at %v, want the page unscrolled", win, f)
	}

	p.keys(kb.Home)
	at := p.foot(0, 1)
	if !at.inView() {
		t.Errorf("%s: the cursor on the long pile 1: its foot card at %v, want it in the window below the bar", win, at)
		return
	}
	if at.Low-at.Bottom > 12 {
		t.Errorf("%s: the cursor on the long pile 1: its foot card at %v, want the page scrolled no further than needed", win, at)
	}
	if f := p.foot(9, 1); !f.inView() {
		t.Fatalf("%s: pile 10's foot (%v) is out of view beside pile 1's: the layout does not suit the test", win, f)
	}
	p.keys(kb.End)
	if f := p.foot(9, 1); f.ScrollY != at.ScrollY {
		t.Errorf("%s: the cursor on pile 10, whose foot showed: the page moved from %.0f px to %v", win, at.ScrollY, f)
	}
	p.keys("2")
	if f := p.foot(1, 1); !f.inView() || f.Top-f.Bar > 20 {
		t.Errorf("%s: the cursor back on the short pile 2: its card at %v, want it just below the bar (its scroll padding, a few px)", win, f)
	}

	p.keys(kb.Home)
	p.toTop()
	p.keys("t")
	if f := p.foot(0, 12); !f.inView() {
		t.Errorf("%s: T picked up pile 1's run of 12: the cards at %v, want them in the window below the bar", win, f)
	}
	p.keys(kb.Escape)

	// Cards put down: the ace of clubs from pile 9 onto the two of clubs
	// at pile 10's foot, which the cursor brought to the window's foot;
	// the ace lands a step lower, and comes into view once played.
	p.keys("9")
	p.keys(kb.Enter)
	p.keys("0")
	p.keys(kb.Enter)
	p.play(spider.Cards(8, 9, 1))
	p.expect(win + ": the ace of clubs put on pile 10 from the keyboard")
	if f := p.foot(9, 1); !f.inView() {
		t.Errorf("%s: the ace of clubs put on pile 10 from the keyboard: at %v, want it in the window below the bar", win, f)
	}
}
