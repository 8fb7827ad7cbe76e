package spiderweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestBrowserSpiderFocusBelowBar: with a pile long enough to scroll the
// page, and the page scrolled past the stock, the stock focused from the
// keyboard comes back into view below the sticky bar, not under it: on a
// desktop (a bar of one row) and on a phone (two rows).
func TestBrowserSpiderFocusBelowBar(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.loadLayout(towerLayout())
	for _, size := range []struct {
		name string
		w, h int64
		wide string
	}{{"desktop", 1280, 800, "1280"}, {"phone", 390, 844, "390"}} {
		p.do(chromedp.EmulateViewport(size.w, size.h))
		p.waitJS(`document.body.dataset.layoutWidth === "`+size.wide+`" && document.body.dataset.busy === "0"`, "the page laid out for "+size.name)
		t.Run(size.name, func(t *testing.T) { webtest.FocusBelowBar(t, p.ctx, "#stock", "#bar") })
	}
}

// towerLayout has 96 cards face up on the first pile, kings to twos of
// eight suits, a pile too long for any window; the aces wait on the next
// eight piles.
func towerLayout() string {
	var b strings.Builder
	b.WriteString("pile1:")
	for _, s := range "SSHHDDCC" {
		for _, r := range "KQJT98765432" {
			b.WriteString(" " + string(r) + string(s))
		}
	}
	for k, s := range "SSHHDDCC" {
		fmt.Fprintf(&b, "\npile%d: A%c", k+2, s)
	}
	b.WriteString("\npile10:")
	return b.String()
}
