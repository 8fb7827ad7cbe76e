package solver

import (
	"context"
	"testing"

	"cardtable/spider"
)

// deal4 is 4-suit deal 4 of the Spider layout: the line's first beam
// (width 200, full4) wins it in about 700 000 positions with a line of
// 146 moves, where the staged search's line is 245 moves as found
// (measured with bench).
func deal4(tb testing.TB) *spider.Position {
	tb.Helper()
	p, err := spider.NewDeal(4, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// withWide sets the wide beams' start and, unless nil, their schedule
// for one test.
func withWide(tb testing.TB, start int64, beams []fullBeam) {
	oldStart, oldBeams := wideStart, wideBeams
	wideStart = start
	if beams != nil {
		wideBeams = beams
	}
	tb.Cleanup(func() { wideStart, wideBeams = oldStart, oldBeams })
}

// TestWideBeamTakesTurns: once the staged passes have spent wideStart
// nodes a wide beam runs, and its win is the search's verdict; its
// positions count against the node limit. A memory limit too small for
// the beam leaves the staged search alone.
func TestWideBeamTakesTurns(t *testing.T) {
	withWide(t, 0, []fullBeam{{200, &full4}}) // the beam first, as narrow as the line's first beam
	p := deal4(t)
	const limit = 2_000_000
	r := solveShort(context.Background(), p, Limits{Nodes: limit}, false)
	if r.Status != Solved {
		t.Fatalf("status %s", r.Status)
	}
	replay(t, p, r.Moves)
	// The staged search's line is 245 moves as found; the beam's 146.
	if r.Found > 160 {
		t.Errorf("found a line of %d moves: not the beam's", r.Found)
	}
	if r.Nodes > limit || r.Nodes < 500_000 {
		t.Errorf("%d nodes: want the beam's positions counted, within %d", r.Nodes, limit)
	}
	small := solveShort(context.Background(), p, Limits{Nodes: limit, MemoryBytes: 200 * wideBytes / 2}, false)
	if small.Status != Solved {
		t.Fatalf("memory limit: status %s", small.Status)
	}
	if small.Found <= 160 {
		t.Errorf("memory limit: found a line of %d moves: the beam ran", small.Found)
	}
}

// TestSolveLineBeamFirst: at 4 suits Solve starts with the line's first
// beam; where it wins, the verdict and a short line come from it, and the
// further searches stay within the node limit.
func TestSolveLineBeamFirst(t *testing.T) {
	p := deal4(t)
	const limit = 2_000_000
	r := Solve(context.Background(), p, Limits{Nodes: limit})
	if r.Status != Solved {
		t.Fatalf("status %s", r.Status)
	}
	replay(t, p, r.Moves)
	if r.Found > 160 || len(r.Moves) > r.Found {
		t.Errorf("found %d moves, shortened to %d: want the beam's line (146)", r.Found, len(r.Moves))
	}
	if r.Nodes > limit {
		t.Errorf("%d nodes, limit %d", r.Nodes, limit)
	}
	if r.Verdict <= 0 || r.Verdict > r.Elapsed {
		t.Errorf("verdict after %v, the whole solve %v", r.Verdict, r.Elapsed)
	}
}

// TestSolveFirstBeamLostCounts: where the line's first beam loses, the
// staged search decides, and the beam's positions are counted in the
// result.
func TestSolveFirstBeamLostCounts(t *testing.T) {
	p := layout(t, deadEnd, 4)
	alone := solveShort(context.Background(), p, Limits{}, false)
	r := Solve(context.Background(), p, Limits{})
	if alone.Status != Unsolvable || r.Status != Unsolvable {
		t.Fatalf("status %s and %s, want unsolvable", alone.Status, r.Status)
	}
	if r.Nodes <= alone.Nodes {
		t.Errorf("%d nodes with the beam, %d without: the beam's positions are not counted", r.Nodes, alone.Nodes)
	}
}

// TestLongWideBeamSolvesWhatStagedMisses: Spider layout, 4 suits, deal
// 96: the staged search alone does not solve it within 8 million nodes
// (nor in 30 s on a free core); with the wide beams it does, and the
// line replays.
func TestLongWideBeamSolvesWhatStagedMisses(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	p, err := spider.NewDeal(96, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 8_000_000
	r := solveShort(context.Background(), p, Limits{Nodes: limit}, false)
	if r.Status != Solved {
		t.Fatalf("with the wide beams: %s", r.Status)
	}
	replay(t, p, r.Moves)
	withWide(t, 1<<62, nil)
	if r := solveShort(context.Background(), p, Limits{Nodes: limit}, false); r.Status != Unknown {
		t.Errorf("without the wide beams: %s, want unknown within %d nodes", r.Status, limit)
	}
}

// TestWideBeamLast: the beams run in the order of wideBeams; one wider
// than the memory limit holds is skipped, and after the last, or when no
// room is left, none runs again.
func TestWideBeamLast(t *testing.T) {
	p := layout(t, deadEnd, 4)
	last := len(wideBeams) - 1
	for _, c := range []struct {
		name     string
		k        int
		mem      int64
		nodes    int64
		wideLeft bool
		spent    bool
	}{
		{"first", 0, 0, 0, true, true},
		{"widest full4", 2, 0, 0, true, true},
		{"last", last, 0, 0, false, true},
		{"past the last", last + 1, 0, 0, false, false},
		{"skipped for memory", 2, int64(wideBeams[2].width-1) * wideBytes, 0, true, false},
		{"no nodes left", 0, 0, 1, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSearch(context.Background(), p, Limits{MemoryBytes: c.mem, Nodes: c.nodes})
			s.nodes = c.nodes
			s.wide = true
			if s.wideBeam(c.k) {
				t.Fatal("a lost position won")
			}
			if s.wide != c.wideLeft {
				t.Errorf("more beams to come: %v, want %v", s.wide, c.wideLeft)
			}
			if (s.nodes > c.nodes) != c.spent {
				t.Errorf("%d positions spent: want a beam run %v", s.nodes-c.nodes, c.spent)
			}
		})
	}
}

// TestLongWideBeamOtherWeights: Spider layout, 4 suits, deal 210: every
// full4 beam of the schedule loses it, and the fullBuild beam after them
// wins it with a line that replays.
func TestLongWideBeamOtherWeights(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	p, err := spider.NewDeal(210, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(context.Background(), p, Limits{})
	s.wide = true
	for k, b := range wideBeams {
		won := s.wideBeam(k)
		if b.w == &full4 && won {
			t.Fatalf("beam %d (full4, width %d) won: the deal no longer needs the others", k, b.width)
		}
		if won {
			if b.w != &fullBuild {
				t.Errorf("beam %d won, want the fullBuild one", k)
			}
			replay(t, p, s.win)
			return
		}
	}
	t.Fatal("no wide beam won")
}
