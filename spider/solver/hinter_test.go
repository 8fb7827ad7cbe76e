package solver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cardtable/spider"
)

// TestHinterNoLoop: in these two games, taking every hint as Hint gives
// it went back and forth between two positions for ever (the hinted
// move, then the move back; a player found both). Following a Hinter's
// hints, no position comes twice.
func TestHinterNoLoop(t *testing.T) {
	files, err := filepath.Glob("testdata/hint-loops/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no games in testdata/hint-loops: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g, err := spider.Load(string(text))
			if err != nil {
				t.Fatal(err)
			}
			h := NewHinter(8)
			open := g.Options().Open
			seen := map[uint64]int{}
			for i := 0; i < 12 && !g.Won(); i++ {
				k := visibleHash(g.Pos(), open)
				if j, ok := seen[k]; ok {
					t.Fatalf("hint %d leads back to the position before hint %d", i, j)
				}
				seen[k] = i
				m, err := h.Hint(context.Background(), g)
				if err != nil {
					t.Fatalf("hint %d: %v", i, err)
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("hint %d, %v: %v", i, m, err)
				}
			}
		})
	}
}

// TestHinterBounded: a Hinter keeps no more lines than it was made with.
func TestHinterBounded(t *testing.T) {
	h := NewHinter(2)
	for d := uint64(1); d <= 4; d++ {
		g, err := spider.NewGame(d, spider.Options{Variant: spider.Spider, Suits: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Hint(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(h.lines); n > 2 {
		t.Errorf("a Hinter made for 2 lines keeps %d", n)
	}
}
