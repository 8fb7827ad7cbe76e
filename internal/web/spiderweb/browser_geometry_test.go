package spiderweb

// Browser test helpers for where the page's parts lie in the window:
// points on cards and controls to aim gestures at, and whether the piles
// and the bar's controls show whole and within reach.

import "fmt"

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
