package spider

import (
	"strings"
	"testing"
)

func TestWindowsScore(t *testing.T) {
	for _, tc := range []struct {
		name           string
		actions, suits int
		want           int
	}{
		{"a new game", 0, 0, 500},
		{"one move", 1, 0, 499},
		{"a suit completed after 40 actions", 40, 1, 560},
		{"a win in 300 actions", 300, 8, 1000},
		{"never below zero", 700, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WindowsScore(tc.actions, tc.suits); got != tc.want {
				t.Errorf("WindowsScore(%d, %d) = %d, want %d", tc.actions, tc.suits, got, tc.want)
			}
		})
	}
}

// TestWindowsScoreActions checks what costs a point (docs/rules-spider.md
// #24): moves, deals, undos, redos and restarts; a refused move costs
// nothing; the count survives a save and load.
func TestWindowsScoreActions(t *testing.T) {
	g := mustGame(t, 1, Options{})
	step := func(name string, f func() error, want int) {
		t.Helper()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := g.Score().Windows; got != want {
			t.Fatalf("after %s: Windows score %d, want %d", name, got, want)
		}
	}
	step("a move", func() error { return g.Play(Cards(5, 0, 1)) }, 499)
	if err := g.Play(Cards(8, 5, 1)); err == nil {
		t.Fatal("7C on 2D accepted")
	}
	if got := g.Score().Windows; got != 499 {
		t.Fatalf("a refused move cost a point: %d", got)
	}
	step("undo", g.Undo, 498)
	step("redo", g.Redo, 497)
	step("deal", func() error { return g.Play(DealMove) }, 496)
	step("restart", func() error { g.Restart(); return nil }, 495)
	l, err := Load(g.Save())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Save(), "actions: 5\n") || l.Score().Windows != 495 {
		t.Errorf("loaded Windows score %d, want 495; save:\n%s", l.Score().Windows, g.Save())
	}
	h := mustGame(t, 1, Options{})
	if err := h.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.Save(), "actions:") {
		t.Error("a save with no undo writes an actions line")
	}
	if l, err := Load(h.Save()); err != nil || l.Score().Windows != 499 {
		t.Errorf("load without an actions line: %v, %+v", err, l)
	}
	if _, err := Load(strings.Replace(g.Save(), "actions: 5", "actions: -1", 1)); err == nil {
		t.Error("a negative actions line loaded")
	}
}

// An undo and redo loop counts actions without end: the count stops at
// MaxActions, so the game's save still loads.
func TestWindowsActionsBounded(t *testing.T) {
	g := mustGame(t, 1, Options{})
	if err := g.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	g.actions = MaxActions - 1
	for range 2 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if err := g.Redo(); err != nil {
			t.Fatal(err)
		}
	}
	if g.Actions() != MaxActions {
		t.Fatalf("actions %d, want %d", g.Actions(), MaxActions)
	}
	l, err := Load(g.Save())
	if err != nil {
		t.Fatalf("the save of a game at the most actions: %v", err)
	}
	if l.Actions() != MaxActions || l.Score().Windows != 0 {
		t.Errorf("loaded actions %d, Windows score %d; want %d, 0", l.Actions(), l.Score().Windows, MaxActions)
	}
}
