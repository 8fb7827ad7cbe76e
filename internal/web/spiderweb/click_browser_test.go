package spiderweb

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/spider"
)

// TestBrowserDropThenPick: a click that puts cards down on a pile is not
// the first click of a double-click. Picking up from that pile at once
// after (the hearts just moved into a space, to carry them on) picks them
// up; it is no auto-move, neither by the page's own pairing of clicks nor
// by the browser's dblclick, which a real mouse sends for the pair.
// Before, the hearts flew on to the 7♠ by themselves. The page's clock is
// held still, so the pair is within the double-click time however slowly
// the machine runs.
func TestBrowserDropThenPick(t *testing.T) {
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	path := filepath.Join(t.TempDir(), "drop.txt")
	if err := os.WriteFile(path, []byte(layoutSave(t, finishLayout)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.loadSaveFile(path)
	p.eval(`(() => { const t0 = Date.now(); window.realNow = Date.now; Date.now = () => t0; return 1; })()`, nil)
	defer p.eval(`(Date.now = window.realNow, 1)`, nil)

	p.click(p.bottomPoint(1)) // picks up the hearts
	p.click(p.bottomPoint(2)) // puts them into the space
	p.play(spider.Cards(1, 2, 6))
	p.expect("the hearts moved into the space by two clicks")
	// The second click of a real double-click (the browser sends dblclick).
	p.click(p.bottomPoint(2), chromedp.ClickCount(2))
	p.waitJS(`document.querySelectorAll("#pile-2 .card.selected").length === 6`, "the hearts picked up")
	p.idle()
	p.expect("the hearts picked up, not moved")
}
