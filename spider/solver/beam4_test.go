package solver

import (
	"context"
	"testing"

	"cardtable/spider"
)

// TestPileFullCountsBreaks: the full-information evaluation counts a break
// wherever a card does not lie on the next-higher card of its suit, face
// down or not (every card is known), half a break for a face-up card on
// the next-higher card of another suit, nothing for a king at the foot.
func TestPileFullCountsBreaks(t *testing.T) {
	w := fullWeights{brk: 10, rankBrk: 5, down: 3, space: 7}
	p := layout(t, `pile1: |KD |QD |5C JC TD 9D 8C
pile2: |6D 5D
pile3:
pile4: KC QC
pile5: |AD TC 9C
pile6: 8D 7D
pile7: 4D 3D 2D
pile8: 7C 6C
pile9: 4C 3C 2C AC
pile10: JD
completed: S S H H D C
`, 4)
	for _, c := range []struct {
		pile int
		want int32
	}{
		// KD at the foot, QD on KD (face down, in suit: no break), 5C
		// on QD and JC on 5C (breaks), TD on JC (half), 9D on TD, 8C
		// on 9D (half); three cards face down.
		{0, -10 - 10 - 5 - 5 - 3*3},
		{1, -10 - 3},      // 6D at the foot, 5D on it
		{2, 7},            // a space
		{3, 0},            // KC QC
		{4, -10 - 10 - 3}, // AD at the foot, TC on it
		{8, -10},          // 4C at the foot, the rest in suit
		{9, -10},          // a jack alone
	} {
		if got := pileFull(p, c.pile, &w); got != c.want {
			t.Errorf("pile %d: %d, want %d", c.pile+1, got, c.want)
		}
	}
}

// TestBeamMaxLevels: a beam with a level limit stops there without a line
// (Solve sets it to the length of the line to beat).
func TestBeamMaxLevels(t *testing.T) {
	p, err := spider.NewDeal(1, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := &beamer{fw: &full4, perStage: true, maxLevels: 20}
	if _, ok := b.run(p, 50, 10_000_000); ok {
		t.Fatal("won in 20 levels")
	}
	if len(b.levels) > 21 || b.gen >= 10_000_000 {
		t.Errorf("stopped after %d levels and %d positions, want at most 21 levels", len(b.levels), b.gen)
	}
}

// TestLongFullBeamWins4Suits: with the full-information evaluation and a
// beam for each number of rows dealt, a beam wins 4-suit deals, and its
// lines replay as wins and are shorter than the staged search's (measured
// with bench: 192 and 203 moves on deals 16 and 28 before); the beam with
// the evaluation of 1 and 2 suits wins neither within the same budget.
func TestLongFullBeamWins4Suits(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	for _, c := range []struct {
		deal uint64
		want int
	}{{16, 192}, {28, 203}} {
		p, err := spider.NewDeal(c.deal, spider.Spider, spider.Rules{Suits: 4})
		if err != nil {
			t.Fatal(err)
		}
		b := &beamer{fw: &full4, perStage: true}
		line, ok := b.run(p, 200, 4_000_000)
		if !ok {
			t.Fatalf("deal %d: the full-information beam did not win", c.deal)
		}
		replay(t, p, line)
		if len(line) >= c.want {
			t.Errorf("deal %d: %d moves, want fewer than %d", c.deal, len(line), c.want)
		}
		if _, ok := beamSearch(p, 200, 4_000_000); ok {
			t.Errorf("deal %d: the beam of 1 and 2 suits won too", c.deal)
		}
	}
}

// TestLongSolveUsesFullBeam4Suits: at 4 suits Solve's line comes from the
// full-information beam where it is shorter (deal 16: 192 moves without
// it, measured with bench) and replays as a win.
func TestLongSolveUsesFullBeam4Suits(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	solveShorterThan(t, 16, 4, 20_000_000, 170)
}

// solveShorterThan solves deal n of the Spider layout at suits suits
// within nodes and wants a line of fewer than most moves that replays.
func solveShorterThan(t testing.TB, n uint64, suits int, nodes int64, most int) {
	t.Helper()
	p, err := spider.NewDeal(n, spider.Spider, spider.Rules{Suits: suits})
	if err != nil {
		t.Fatal(err)
	}
	r := Solve(context.Background(), p, Limits{Nodes: nodes})
	if r.Status != Solved {
		t.Fatalf("status %v", r.Status)
	}
	replay(t, p, r.Moves)
	if len(r.Moves) >= most {
		t.Errorf("%d moves, want fewer than %d", len(r.Moves), most)
	}
}

// TestSolveFullBeamTwoSuits: at 2 suits too, Solve's line comes from the
// full-information beam where it is shorter (deal 5: 138 moves with the
// beams it replaced, measured with bench) and replays as a win. On this
// deal the beam with full4 does not win and the fallback with fullBuild
// does (without the fallback: 138 moves).
func TestSolveFullBeamTwoSuits(t *testing.T) {
	solveShorterThan(t, 5, 2, 5_000_000, 130)
}
