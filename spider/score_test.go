package spider

import (
	"fmt"
	"testing"
)

// Scoring, its parts and maxima, and what taking moves back does to it:
// Arachnid's cheat detection and the stop of Spider's scoring.

func TestScoreMaxima(t *testing.T) {
	p := mustLayout(t, nearWin, 4)
	g, err := NewGameAt(p, Options{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if g.Won() {
		t.Fatal("won before the last move")
	}
	if err := g.Play(Cards(8, 7, 1)); err != nil {
		t.Fatal(err)
	}
	if !g.Won() || g.Stuck() {
		t.Fatal("not won with eight runs standing")
	}
	s := g.Score()
	if s.Total != 1000 || s.Counted != 1000 || s.StandingWin != 10 {
		t.Errorf("all eight standing: %+v, want 1000", s)
	}
	for k := range 8 {
		if err := g.Play(RemoveFrom(k)); err != nil {
			t.Fatal(err)
		}
	}
	if s := g.Score(); s.Total != 990 || !g.Won() {
		t.Errorf("all removed: %+v, want 990", s)
	}
	// Four standing, four removed: 990 + 2 for the fourth.
	for range 4 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s := g.Score(); s.Total != 992 {
		t.Errorf("four standing: %+v, want 992", s)
	}
	// Three standing: no bonus.
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if s := g.Score(); s.Total != 990 {
		t.Errorf("three standing: %+v, want 990", s)
	}
}

func TestScoreParts(t *testing.T) {
	g := mustGame(t, 1, Options{Variant: Spider})
	if s := g.Score(); s.Total != 0 || s.Turned != 0 {
		t.Fatalf("opening score %+v", s)
	}
	// 7H onto 8H: a same-suit build (2) and pile 6 turns up its 2D (10).
	if err := g.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	s := g.Score()
	if s.Builds != 2 || s.Turned != 10 || s.Total != 12 {
		t.Errorf("after 7H on 8H: %+v, want builds 2 turned 10", s)
	}
	// 7H on a face-down 8H scores no build, in the open tableau too
	// (docs/rules-spider.md #22): the score must not tell a covered card.
	layout := complete(t, []string{"|3D |8H 7H", "9C", "8S", "|4D 6C", "7D", "KS", "KH", "KD", "KC", "QS"}, "", 5, 9)
	for _, open := range []bool{false, true} {
		g, err := NewGameAt(mustLayout(t, layout, 4), Options{Open: open})
		if err != nil {
			t.Fatal(err)
		}
		if s := g.Score(); s.Builds != 0 {
			t.Errorf("open %v: 7H on a face-down 8H: %+v, want no build", open, s)
		}
	}
}

func TestCheatDetection(t *testing.T) {
	// Pile 1 keeps 8H face up when 7H leaves it for 8S (a plain move);
	// 6C leaving pile 4 for 7D turns 4D up (a revealing move); dealing shows
	// a new row.
	layout := complete(t, []string{"|3D 8H 7H", "9C", "8S", "|4D 6C", "7D", "KS", "KH", "KD", "KC", "QS"}, "", 5, 9)
	plain, reveal := Cards(0, 2, 1), Cards(3, 4, 1)
	// A restart before any move marks nothing, even under full detection
	// (docs/rules-spider.md #27); one after a move is an undo of it.
	g, err := NewGameAt(mustLayout(t, layout, 4), Options{Variant: Arachnid, Cheat: CheatFull})
	if err != nil {
		t.Fatal(err)
	}
	if g.Restart(); g.Cheated() {
		t.Error("a restart before any move was taken for cheating")
	}
	if err := g.Play(plain); err != nil {
		t.Fatal(err)
	}
	if g.Restart(); !g.Cheated() {
		t.Error("a restart after a move under full detection was not taken for cheating")
	}
	for _, tc := range []struct {
		level       CheatLevel
		move        Move
		wantCheated bool
	}{
		{CheatNone, reveal, false},
		{CheatNone, DealMove, false},
		{CheatNewCards, plain, false},
		{CheatNewCards, reveal, true},
		{CheatNewCards, DealMove, true},
		{CheatFull, plain, true},
	} {
		t.Run(fmt.Sprintf("%s-%s", tc.level, tc.move), func(t *testing.T) {
			g, err := NewGameAt(mustLayout(t, layout, 4), Options{Variant: Arachnid, Cheat: tc.level})
			if err != nil {
				t.Fatal(err)
			}
			m := &tc.move
			if err := g.Play(*m); err != nil {
				t.Fatal(err)
			}
			before := g.Score().Total
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if g.Cheated() != tc.wantCheated {
				t.Fatalf("cheated = %v, want %v", g.Cheated(), tc.wantCheated)
			}
			if err := g.Redo(); err != nil {
				t.Fatal(err)
			}
			s := g.Score()
			want := before
			if tc.wantCheated {
				want = before / 2
			}
			if s.Counted != want {
				t.Errorf("counted %d, want %d (raw %d)", s.Counted, want, s.Total)
			}
		})
	}
}

func TestSpiderScoringStops(t *testing.T) {
	g := mustGame(t, 1, Options{Variant: Spider})
	if err := g.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(Cards(8, 5, 1)); err == nil {
		// 7C onto 2D is illegal; nothing must change.
		t.Fatal("7C on 2D accepted")
	}
	at := g.Score().Counted
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(Cards(9, 4, 1)); err != nil {
		t.Fatal(err)
	}
	s := g.Score()
	if !s.Stopped || s.Counted != at || s.Total == at {
		t.Errorf("spider scoring after undo: %+v, want frozen at %d", s, at)
	}
	h := mustGame(t, 1, Options{Variant: Spider})
	// A restart before any move takes nothing back: scoring goes on
	// (docs/rules-spider.md #27).
	h.Restart()
	if h.ScoringStopped() || h.Actions() != 0 {
		t.Errorf("a restart before any move stopped scoring (%v) or counted an action (%d)", h.ScoringStopped(), h.Actions())
	}
	if err := h.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	h.Restart()
	if !h.ScoringStopped() {
		t.Error("restart did not stop spider scoring")
	}
	l, err := Load(mustGame(t, 2, Options{Variant: Spider}).Save())
	if err != nil {
		t.Fatal(err)
	}
	l.MarkLoaded()
	if !l.ScoringStopped() {
		t.Error("load did not stop spider scoring")
	}
}
