package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonSheetOnPhone (long: a browser, several seconds under
// -race; make test-long runs it): at six seats on a phone (390 px) the
// score sheet, open, stays within the screen. Six columns of names ("Bot
// 2 (greedy)", a long display name) made the sheet about 650 px wide,
// and the page (which never scrolls sideways) cut the last seats' scores
// off where nobody could reach them; on a desktop it ran out of the side
// column, off the screen.
func TestLongBrowserArlingtonSheetOnPhone(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "random", "random", "random", "random", "random")
	bctx := startBrowser(t)
	ann := seatTabIn(t, bctx, "Ann") // 390×844
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
	ann.shot("arlington-sheet-six-390")
	// On a desktop the sheet is in the side column (320 px): it stays in it.
	ann.do(chromedp.EmulateViewport(1280, 800))
	ann.until(`document.querySelector(".side").getBoundingClientRect().left > 640`)
	type side struct{ Side, Cells float64 }
	d := eval[side](ann, `({side: document.querySelector(".side").getBoundingClientRect().right,
	  cells: Math.max(...[...document.querySelectorAll("#sheet th, #sheet td")].map((c) => c.getBoundingClientRect().right))})`)
	if d.Cells > d.Side {
		t.Errorf("at 1280 px with six seats the sheet's cells end at %.0f px, past the side column's %.0f px", d.Cells, d.Side)
	}
	ann.shot("arlington-sheet-six-1280")
}
