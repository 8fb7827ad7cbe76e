package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSpiderTableauFits40Columns: the piles, face-down cards shown
// (--reveal, "|QS") and the stock's rows fit a terminal 40 columns wide,
// so no pile wraps onto the next line; the header alone may wrap, at a
// space, which leaves it readable.
func TestSpiderTableauFits40Columns(t *testing.T) {
	for _, variant := range []string{"arachnid", "spider"} {
		out, errs, code := run(t, "", "spider", "new", "--deal", "5", "--reveal", "--variant", variant)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if f := strings.Fields(lines[1]); len(f) != 10 || f[0] != "1" {
			t.Fatalf("%s: not the pile numbers: %q", variant, lines[1])
		}
		for _, l := range lines[1:] {
			if n := utf8.RuneCountInString(l); n > 40 {
				t.Errorf("%s: %d columns: %q", variant, n, l)
			}
		}
	}
}
