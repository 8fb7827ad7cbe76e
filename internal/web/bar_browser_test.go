package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestBrowserFocusBelowBar: on the front page (the player's games listed,
// enough to scroll it) and on the Arlington rules, scrolled until a link
// is under the sticky bar, the link focused from the keyboard comes into
// view below the bar, not under it; on a desktop and on a phone. (The
// Spider page has its own test in spiderweb.)
func TestBrowserFocusBelowBar(t *testing.T) {
	t.Parallel()
	p := openSite(t, webtest.StartBrowser(t), siteServer(t), 1280, 800)
	p.open("/", frontReady)
	var game struct{ ID string }
	if code := p.fetch("POST", "/api/games", `{"deal": "5", "suits": 1}`, &game); code != http.StatusCreated {
		t.Fatalf("starting a Spider game: %d", code)
	}
	p.eval(`sessionStorage.setItem("cardtable.spider.game", `+jsString(game.ID)+`)`, nil)
	for i := range 5 {
		if code := p.fetch("PUT", fmt.Sprintf("/api/saves/day%d", i), `{"game": `+jsString(game.ID)+`}`, nil); code != http.StatusOK {
			t.Fatalf("saving the game: %d", code)
		}
	}
	for _, page := range []struct{ name, path, ready, control string }{
		{"front", "/", frontReady + ` && document.querySelectorAll("#spider-games li").length === 6`, "#go-spider"},
		{"rules", "/arlington/rules", `location.pathname === "/arlington/rules" && document.readyState === "complete"`, `.toc a[href="#the-game"]`},
	} {
		p.open(page.path, page.ready)
		for _, size := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
			p.step("resizing to "+size.name, chromedp.EmulateViewport(size.w, size.h))
			p.wait(fmt.Sprintf(`document.documentElement.clientWidth === %d`, size.w), "the "+size.name+" width")
			t.Run(page.name+"/"+size.name, func(t *testing.T) { webtest.FocusBelowBar(t, p.ctx, page.control, ".bar") })
		}
	}
}
