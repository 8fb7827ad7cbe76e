package arlwire

import (
	"os"
	"strings"
	"testing"
)

// TestPageSpellsMovingHeader: the table page, having no Go, spells the
// moving mark itself; it must be this one, or the page shows a table
// between servers as an error instead of asking again.
func TestPageSpellsMovingHeader(t *testing.T) {
	b, err := os.ReadFile("../web/static/shared/api.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `res.headers.get("`+MovingHeader+`") === "1"`) {
		t.Fatalf("api.js does not read %s as the moving mark", MovingHeader)
	}
}
