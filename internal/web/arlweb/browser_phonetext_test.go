package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// smallText lists the page's shown text set under 12 px (its element and
// size), and barCut the header's shown elements whose text is cut (wider
// than their box; an element 1 px wide is one kept for screen readers).
const (
	smallText = `(() => {
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (w.nextNode()) {
    const e = w.currentNode.parentElement;
    if (!w.currentNode.textContent.trim() || !e.checkVisibility() || e.closest(".sr-only")) continue;
    const r = e.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (r.width > 1 && px < 12) out.push(e.tagName + "." + e.className + " " + JSON.stringify(e.textContent.trim().slice(0, 30)) + " " + px + "px");
  }
  return [...new Set(out)];
})()`
	barCut = `[...document.querySelectorAll("header *")].filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 1 && e.scrollWidth > e.clientWidth + 1).map((e) => e.tagName + " " + JSON.stringify(e.textContent))`
)

// TestBrowserArlingtonPhoneText: on a phone held upright (390×844) the
// table page in play sets no text under 12 px (the players' badges, the
// names under a trick's cards, an action's points, the score sheet's
// target line were 10.8 to 11.7 px), and its header cuts no text (the
// page's name showed as "A…").
func TestBrowserArlingtonPhoneText(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random", "random")
	p := seatTabIn(t, startBrowser(t), "Amy")
	p.open(e.srv.URL, id)
	p.join("Amy")
	p.until(shownAll + ` && document.querySelector("#actions button[data-action]") && document.querySelector("#players .badge")`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("sheet-box").open = true`))
	if got := eval[[]string](p, smallText); len(got) > 0 {
		t.Errorf("text under 12 px on a phone: %q", got)
	}
	if got := eval[[]string](p, barCut); len(got) > 0 {
		t.Errorf("the header cuts text on a phone: %q", got)
	}
	p.shot("phone")
}
