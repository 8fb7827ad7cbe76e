package spiderweb

import (
	"testing"

	"cardtable/internal/web/webtest"
)

// TestMain shares one Chromium among the package's browser tests; each
// test gets a browser context of its own (webtest.StartBrowser).
func TestMain(m *testing.M) { webtest.Main(m) }

// TestParallelBrowserTests: every browser test of the package runs beside
// the others (webtest.CheckParallel), save those named here.
func TestParallelBrowserTests(t *testing.T) {
	webtest.CheckParallel(t, map[string]string{
		"TestLongBrowserSpiderMessageClears": "it measures a menu while a message shows, which hides itself after seconds: " +
			"beside the others it ran out of that time and failed",
	})
}
