package arlweb

import (
	"testing"

	"cardtable/internal/web/webtest"
)

// TestMain shares one Chromium among the package's browser tests; each
// test gets a browser context of its own (webtest.StartBrowser).
func TestMain(m *testing.M) { webtest.Main(m) }
