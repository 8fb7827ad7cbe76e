package web_test

import (
	"testing"

	"cardtable/internal/web/webtest"
)

// TestLongBrowserFrontLooks: the front page's Spider picture shows the card
// back and table colour chosen on the Spider page (kept in this browser).
func TestLongBrowserFrontLooks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := siteServer(t)
	p := openSite(t, webtest.StartBrowser(t), srv, 1280, 800)
	const colours = `(() => ({ back: getComputedStyle(document.querySelector("#card-sprite .c-back-a")).fill,
	  felt: getComputedStyle(document.documentElement).getPropertyValue("--felt").trim() }))()`
	p.open("/", frontReady)
	var before, after struct{ Back, Felt string }
	p.eval(colours, &before)
	p.eval(`localStorage.setItem("cardtable.spider.settings", JSON.stringify({ back: "red", table: "dark" })), 1`, nil)
	p.open("/", frontReady)
	p.eval(colours, &after)
	if after.Back == before.Back || after.Felt == before.Felt {
		t.Errorf("the front page draws back %s on %s with a red back and dark table chosen, %s on %s before",
			after.Back, after.Felt, before.Back, before.Felt)
	}
}
