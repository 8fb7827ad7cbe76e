package solver

import (
	"context"
	"fmt"
	"testing"

	"cardtable/spider"
)

// TestBeamWins runs the beam search on 1-suit deals: every line it finds
// replays as a win, and it finds one on most of them (measured: 20 of
// deals 1-20 with this width).
func TestBeamWins(t *testing.T) {
	won := 0
	for n := uint64(1); n <= 3; n++ {
		t.Run(fmt.Sprintf("deal%d", n), func(t *testing.T) {
			p, err := spider.NewDeal(n, spider.Spider, spider.Rules{Suits: 1})
			if err != nil {
				t.Fatal(err)
			}
			line, ok := beamSearch(p, 100, 1_000_000)
			if !ok {
				return
			}
			replay(t, p, line)
			won++
		})
	}
	if won < 2 {
		t.Errorf("the beam won %d of 3 deals, want at least 2", won)
	}
}

// TestBeamStops: a cancelled context, an exhausted budget and a lost
// position each end the beam search without a line.
func TestBeamStops(t *testing.T) {
	p, err := spider.NewDeal(1, spider.Spider, spider.Rules{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := &beamer{ctx: ctx, w: &weights, stock: beamStock}
	if _, ok := b.run(p, 100, 1_000_000); ok || b.gen != 0 {
		t.Errorf("cancelled: ok %v after %d positions", ok, b.gen)
	}
	b = &beamer{w: &weights, stock: beamStock}
	if _, ok := b.run(p, 100, 500); ok || b.gen > 500 {
		t.Errorf("budget 500: ok %v after %d positions", ok, b.gen)
	}
	lost := layout(t, deadEnd, 4)
	if _, ok := beamSearch(lost, 100, 1_000_000); ok {
		t.Error("a lost position won")
	}
}

// TestLongSolveLinesShorter: Solve's further searches make its lines on
// 1-suit deals shorter than the search and its shortening alone
// (solveShort without them), and every line still wins.
func TestLongSolveLinesShorter(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	var with, without int
	for n := uint64(1); n <= 3; n++ {
		p, err := spider.NewDeal(n, spider.Spider, spider.Rules{Suits: 1})
		if err != nil {
			t.Fatal(err)
		}
		a := solveShort(context.Background(), p, Limits{Nodes: 5_000_000}, false)
		b := Solve(context.Background(), p, Limits{Nodes: 5_000_000})
		if a.Status != Solved || b.Status != Solved {
			t.Fatalf("deal %d: %s and %s", n, a.Status, b.Status)
		}
		replay(t, p, b.Moves)
		if len(b.Moves) > len(a.Moves) {
			t.Fatalf("deal %d: %d moves, %d without the further searches", n, len(b.Moves), len(a.Moves))
		}
		if b.Found != a.Found || b.Nodes < a.Nodes {
			t.Fatalf("deal %d: found %d and %d, nodes %d and %d: the first search must be the same", n, b.Found, a.Found, b.Nodes, a.Nodes)
		}
		with += len(b.Moves)
		without += len(a.Moves)
	}
	// Measured: about a sixth shorter (docs/solver.md).
	if with*10 > without*9 {
		t.Errorf("%d moves in all against %d without the further searches, want a tenth fewer at least", with, without)
	}
}

// TestSolveFurtherSearchesWithinNodeLimit: the further searches spend
// only what the node limit leaves, and shorten the line when it leaves
// enough.
func TestSolveFurtherSearchesWithinNodeLimit(t *testing.T) {
	p, err := spider.NewDeal(2, spider.Spider, spider.Rules{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	first := solveShort(context.Background(), p, Limits{}, false)
	for _, lim := range []int64{first.Nodes + 2_000, 8 * first.Nodes} {
		r := Solve(context.Background(), p, Limits{Nodes: lim})
		if r.Status != Solved {
			t.Fatalf("limit %d: %s", lim, r.Status)
		}
		replay(t, p, r.Moves)
		if r.Nodes > lim {
			t.Errorf("limit %d: %d nodes", lim, r.Nodes)
		}
		// With room to spare the further searches find a shorter line
		// (the beam: 112 moves against 118 on this deal).
		if lim > 2*first.Nodes && len(r.Moves) >= len(first.Moves) {
			t.Errorf("limit %d: %d moves, as many as the search's %d", lim, len(r.Moves), len(first.Moves))
		}
	}
}
