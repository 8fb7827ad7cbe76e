package spiderweb

// Browser test of the keyboard on a table taller than the window
// (docs/page.md, "Moving cards"): the cursor's pile's foot, and the cards
// picked up, are scrolled into view, and only as far as needed.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
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

// tallRun is the length of the run at the foot of a tallLayout pile that
// holds n cards from the from'th on: the suits' kings to twos come in
// blocks of 12, and a king does not go on a two.
func tallRun(from, n int) int { return min(n, (from+n-1)%12+1) }

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
// already shows does not scroll the page, nor does a click. Cards picked
// up (T) come into view whole, and so do cards put down with Enter.
// Before, the page never scrolled: the long pile's foot stayed below the
// window's bottom. TestLongBrowserSpiderKeysScroll checks a phone held
// upright and the analysis panel.
func TestBrowserSpiderKeysScroll(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 844, 390)
	p.keysScroll("844x390", 844, 390, 56, 40, true, 9)
}

// TestLongBrowserSpiderKeysScroll: TestBrowserSpiderKeysScroll on a phone
// held upright (390x844), but for T: there the page scrolls too little
// (the piles' steps shrink to the window) for a run to lie under the bar
// with its foot in view. Then, with the analysis panel open at the
// window's foot, the long pile's foot comes into view above the panel.
func TestLongBrowserSpiderKeysScroll(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := openPage(t, startBrowser(t), analysisPageServer(t, unknownAnalysis), 390, 844)
	p.keysScroll("390x844", 390, 844, 72, 24, false, 0)
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
// and pile 10's shows beside it. pick says whether to check T (pickRun);
// drop is the pile (0-based, 0 or 9) an ace is put on: its foot a two,
// brought to the window's foot by the cursor.
func (p *browserPage) keysScroll(win string, w, h int64, long, medium int, pick bool, drop int) {
	t := p.t
	p.do(chromedp.EmulateViewport(w, h))
	p.waitJS(fmt.Sprintf(`document.body.dataset.layoutWidth === "%d"`, w), "the page laid out for "+win)
	p.loadLayout(tallLayout(long, medium))
	// The message saying the file loaded would lift the feet shown above
	// it (toast_browser_test.go) for as long as it shows.
	p.closeToast()
	p.keys("2")
	p.toTop()
	if f := p.foot(0, 1); f.Bottom <= f.Low {
		t.Fatalf("%s: pile 1's foot shows at the top of the page (%v): the layout is too short for the test", win, f)
	}
	// A click on pile 1 picks up its run, out of sight below the window:
	// the page stays put, the player's eyes being on the pointer.
	p.click(p.cardPoint(0, 0))
	p.waitJS(fmt.Sprintf(`document.querySelectorAll("#pile-0 .card.selected").length === %d`, tallRun(0, long)), win+": the click on pile 1 to pick up its run")
	var y float64
	p.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(scrollY))))`, &y)
	if y != 0 {
		t.Errorf("%s: a click on pile 1 at the page's top picked up its run: the page scrolled %.0f px, want it left where it was", win, y)
	}
	// The pointer leaves the table: T below acts on the cursor's pile, not
	// the card under the pointer.
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1))
	p.keys(kb.Escape)
	p.toTop()

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

	if pick {
		p.pickRun(win, long, medium)
	}

	// Cards put down: an ace onto the two at pile drop's foot, which the
	// cursor brings to the window's foot; the ace lands a step lower, out
	// of sight, and comes into view once played.
	end := long
	if drop == 9 {
		end += medium
	}
	if end%12 != 0 {
		t.Fatalf("%s: pile %d of a tallLayout(%d, %d) does not end with a two", win, drop+1, long, medium)
	}
	ace := end / 12 // the pile (0-based) of the ace of the two's suit
	p.keys(pileKey(ace))
	p.keys(kb.Enter)
	p.keys(pileKey(drop))
	if f := p.foot(drop, 1); !f.inView() || f.Low-f.Bottom > 12 {
		t.Fatalf("%s: the cursor on pile %d from pile %d: its foot card at %v, want it just above the window's foot (the test needs the ace put there to land out of sight)", win, drop+1, ace+1, f)
	}
	p.keys(kb.Enter)
	p.play(spider.Cards(ace, drop, 1))
	p.expect(fmt.Sprintf("%s: the ace put on pile %d from the keyboard", win, drop+1))
	if f := p.foot(drop, 1); !f.inView() {
		t.Errorf("%s: the ace put on pile %d from the keyboard: at %v, want it in the window below the bar", win, drop+1, f)
	}
}

// pileKey is the key that puts the cursor on pile k (0-based).
func pileKey(k int) string { return fmt.Sprint((k + 1) % 10) }

// pickRun checks T with the cursor on pile 10 of a tallLayout(long,
// medium) in the window win: the page scrolled so that the pile's foot
// card shows just below the bar and the rest of its run lies under the
// bar, T brings the run picked up into view whole, its top just below the
// bar. Showing the foot alone would leave the run under the bar.
func (p *browserPage) pickRun(win string, long, medium int) {
	t := p.t
	t.Helper()
	run := tallRun(long, medium)
	p.keys(kb.End)
	f := p.foot(9, 1)
	p.eval(fmt.Sprintf(`window.scrollBy({top: %f, behavior: "instant"}), scrollY`, f.Top-f.Bar-2), nil)
	if f, r := p.foot(9, 1), p.foot(9, run); !f.inView() || r.Top >= r.Bar {
		t.Fatalf("%s: pile 10 scrolled up to the bar: its foot card at %v, its run of %d at %v; the test needs the foot in view and the run's top under the bar", win, f, run, r)
	}
	p.keys("t")
	p.waitJS(fmt.Sprintf(`document.querySelectorAll("#pile-9 .card.selected").length === %d`, run), win+": T to pick up pile 10's run")
	if f := p.foot(9, run); !f.inView() || f.Top-f.Bar > 20 {
		t.Errorf("%s: T picked up pile 10's run of %d clubs, whose top lay under the bar: the cards at %v, want them in the window, their top just below the bar", win, run, f)
	}
	p.keys(kb.Escape)
}
