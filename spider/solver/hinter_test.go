package solver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"cardtable/spider"
)

// TestHinterNoLoop: in these two games, taking every hint as Hint gives
// it went back and forth between two positions for ever (the hinted
// move, then the move back; both found in play). Following a Hinter's
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
			if err := followHints(NewHinter(8), string(text), 12); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestHinterBounded: a Hinter keeps no more lines than it was made with,
// and keeps the newest, found by the game's rules too.
func TestHinterBounded(t *testing.T) {
	h := NewHinter(2)
	o := spider.Options{Variant: spider.Spider, Suits: 1}
	for d := uint64(1); d <= 4; d++ {
		g, err := spider.NewGame(d, o)
		if err != nil {
			t.Fatal(err)
		}
		first := g.Pos().Legal(nil)[0]
		q := *g.Pos()
		q.Do(first)
		second := q.Legal(nil)[0]
		h.keep(g.Pos(), o, []spider.Move{first, second})
		if got := h.lines[hintKey(&q, o)]; len(got) != 1 || got[0] != second {
			t.Fatalf("deal %d: the line kept after its first move is %v, want [%v]", d, got, second)
		}
		relaxed := o
		relaxed.Relaxed = true
		if got := h.lines[hintKey(&q, relaxed)]; got != nil {
			t.Fatalf("deal %d: the line kept for a game without relaxed dealing is found for one with it: %v", d, got)
		}
		if n, want := len(h.lines), min(int(d), 2); n != want {
			t.Errorf("after %d lines a Hinter made for 2 keeps %d, want %d", d, n, want)
		}
	}
}

// TestHinterShared: one Hinter, as a server has, serves several games at
// once (run with -race), each following its own hints without a position
// coming twice. It has room for every line here: a dropped line means a
// new choice, which can be the move back (TestHinterBounded checks the
// dropping).
func TestHinterShared(t *testing.T) {
	h := NewHinter(64)
	files, err := filepath.Glob("testdata/hint-loops/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no games in testdata/hint-loops: %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(files))
	for range 2 {
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() { // ends after its 6 hints
				errs <- followHints(h, string(text), 6)
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// followHints plays n of h's hints in the game saved as text and says
// which, if any, led back to a position seen before.
func followHints(h *Hinter, text string, n int) error {
	g, err := spider.Load(text)
	if err != nil {
		return err
	}
	seen := map[uint64]int{}
	for i := 0; i < n && !g.Won(); i++ {
		k := visibleHash(g.Pos(), g.Options().Open)
		if j, ok := seen[k]; ok {
			return fmt.Errorf("deal %d: hint %d leads back to the position before hint %d", g.Deal(), i, j)
		}
		seen[k] = i
		m, err := h.Hint(context.Background(), g)
		if err != nil {
			return fmt.Errorf("hint %d: %w", i, err)
		}
		if err := g.Play(m); err != nil {
			return fmt.Errorf("hint %d, %v: %w", i, m, err)
		}
	}
	return nil
}
