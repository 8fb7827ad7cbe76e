package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonSheetOnPhone: at six seats on a phone (390 px) the
// score sheet, open, stays within the screen. Six columns of names ("Bot
// 2 (greedy)", a long display name) made the sheet about 650 px wide,
// and the page (which never scrolls sideways) cut the last seats' scores
// off where nobody could reach them.
func TestBrowserArlingtonSheetOnPhone(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random", "random", "random", "random", "random")
	bctx := startBrowser(t)
	ann := newSeatTab(t, bctx, "Ann") // 390×844
	ann.open(e.srv.URL, id)
	ann.join("Annabelle-Long-Name-Xyz")
	ann.until(`document.querySelectorAll("#sheet thead th").length === 7`)
	ann.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("sheet-box").open = true`))
	// Every cell of the sheet (each name, each score) is on the screen.
	type widths struct{ Page, Screen, Cells float64 }
	w := eval[widths](ann, `({page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth,
	  cells: Math.max(...[...document.querySelectorAll("#sheet th, #sheet td")].map((c) => c.getBoundingClientRect().right))})`)
	if w.Page > w.Screen || w.Cells > w.Screen {
		t.Errorf("at 390 px with six seats the page is %.0f px wide, the sheet's cells end at %.0f px, the screen is %.0f px", w.Page, w.Cells, w.Screen)
	}
	ann.shot("arlington-sheet-six-390.jpg")
}
