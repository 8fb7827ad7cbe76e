package web

import (
	"testing"

	"cardtable/internal/web/webtest"
)

// TestMain shares one Chromium among the package's browser tests; each
// test gets a browser context of its own (webtest.StartBrowser).
func TestMain(m *testing.M) { webtest.Main(m) }

// TestParallelBrowserTests: every browser test of the package runs beside
// the others (webtest.CheckParallel); none needs to run alone.
func TestParallelBrowserTests(t *testing.T) {
	webtest.CheckParallel(t, nil)
}
