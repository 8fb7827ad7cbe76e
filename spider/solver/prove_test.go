package solver

import (
	"context"
	"testing"
	"time"

	"cardtable/spider"
)

// TestProveKnown: on the known small positions brute force decides
// (solver_test.go), the prover's verdict is brute force's, and its wins
// replay.
func TestProveKnown(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		suits int
		want  Status
	}{
		{"one move", oneMove, 1, Solved},
		{"dead end", deadEnd, 4, Unsolvable},
		{"jams", jams, 4, Unsolvable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := layout(t, tc.text, tc.suits)
			r := prove(context.Background(), p, Limits{Nodes: 1_000_000}, nil)
			if r.Status != tc.want {
				t.Fatalf("status %s after %d nodes, want %s", r.Status, r.Nodes, tc.want)
			}
			if r.Status == Solved {
				replay(t, p, r.Moves)
			}
			if win, ok := bruteWinnable(t, *p, 100_000); !ok || win != (tc.want == Solved) {
				t.Errorf("brute force says winnable=%v (decided: %v)", win, ok)
			}
		})
	}
}

// TestProveAgreesWithSolver: along the end of a lost 4-suit game the
// prover and the solver's own loss-proving search (its unpruned passes,
// which share no code with it but the engine) prove the same points lost.
func TestProveAgreesWithSolver(t *testing.T) {
	g := greedyGame(t, 2)
	n := g.MovesPlayed()
	w := &walker{g: g.Clone()}
	lt := &lostTable{max: 1 << 20}
	for k := n; k > n-6; k-- {
		pr := prove(context.Background(), w.at(k), Limits{Nodes: 2_000_000}, lt)
		st := solveMode(context.Background(), w.at(k), Limits{Nodes: 2_000_000}, false, true)
		if pr.Status != Unsolvable || st.Status != Unsolvable {
			t.Fatalf("point %d: prover %s (%d nodes), solver %s (%d nodes); want both unsolvable", k, pr.Status, pr.Nodes, st.Status, st.Nodes)
		}
	}
}

// provePlain is prove without the base proof (prove_bases.go), which
// proves the greedy games' last points lost at once: the tests of the
// search itself need its long proofs.
func provePlain(ctx context.Context, p *spider.Position, lim Limits, lost *lostTable) Result {
	return newProverWith(p, lost, nil).resume(ctx, lim)
}

// TestProveResumes: a proof stopped by its node limit and resumed ends as
// the same proof made at once, with the same nodes in all.
func TestProveResumes(t *testing.T) {
	g := greedyGame(t, 2)
	p := (&walker{g: g}).at(g.MovesPlayed() - 5)
	whole := provePlain(context.Background(), p, Limits{}, nil)
	if whole.Status != Unsolvable || whole.Nodes < 10_000 {
		t.Fatalf("a lost point of a greedy game: %s in %d nodes, want unsolvable in 10 000 or more", whole.Status, whole.Nodes)
	}
	pr := newProverWith(p, nil, nil)
	var nodes int64
	runs := 0
	for {
		r := pr.resume(context.Background(), Limits{Nodes: whole.Nodes / 5})
		nodes += r.Nodes
		runs++
		if r.Status != Unknown {
			if r.Status != whole.Status {
				t.Fatalf("resumed: %s, at once: %s", r.Status, whole.Status)
			}
			break
		}
		if r.StoppedBy != NodeLimit || r.Nodes != whole.Nodes/5 {
			t.Fatalf("run %d stopped by %s after %d nodes, want the node limit after %d", runs, r.StoppedBy, r.Nodes, whole.Nodes/5)
		}
	}
	if nodes != whole.Nodes || runs < 5 {
		t.Errorf("resumed %d times for %d nodes; at once %d nodes", runs, nodes, whole.Nodes)
	}
}

// TestProveSharesLosses: the table of positions proven lost settles a
// position reached from a later one (a move that turns no card can be
// taken back) at once, and makes the proof of an earlier point cheaper.
func TestProveSharesLosses(t *testing.T) {
	g := greedyGame(t, 2)
	n := g.MovesPlayed()
	w := &walker{g: g.Clone()}
	lt := &lostTable{max: 1 << 20}
	for k := n; k > n-3; k-- {
		if r := prove(context.Background(), w.at(k), Limits{Nodes: 2_000_000}, lt); r.Status != Unsolvable {
			t.Fatalf("point %d: %s, want unsolvable", k, r.Status)
		}
	}
	if lt.set.n == 0 {
		t.Fatal("the table holds nothing after three proofs")
	}
	k := n - 3
	alone := provePlain(context.Background(), w.at(k), Limits{Nodes: 2_000_000}, nil)
	shared := prove(context.Background(), w.at(k), Limits{Nodes: 2_000_000}, lt)
	if alone.Status != shared.Status {
		t.Fatalf("point %d: %s alone, %s with the table", k, alone.Status, shared.Status)
	}
	if shared.Nodes >= alone.Nodes {
		t.Errorf("point %d: %d nodes with the table, %d without", k, shared.Nodes, alone.Nodes)
	}
	// Every position the table holds is lost: reached again, the prover
	// stops at once.
	q := w.at(n)
	var buf [256]spider.Move
	for _, m := range q.Legal(buf[:0]) {
		c := *q
		c.Do(m)
		if r := prove(context.Background(), &c, Limits{}, lt); r.Status != Unsolvable || r.Nodes != 0 {
			t.Errorf("after %s from the last point: %s in %d nodes, want lost at once", m, r.Status, r.Nodes)
		}
	}
}

// greedyGame is PlayGreedy's 4-suit Spider-layout game of deal d.
func greedyGame(tb testing.TB, d uint64) *spider.Game {
	tb.Helper()
	g, err := spider.NewGame(d, spider.Options{Variant: spider.Spider, Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	PlayGreedy(g, 2000)
	return g
}

// TestProveLimits: the memory limit, the time limit and the context stop
// a proof, each named.
func TestProveLimits(t *testing.T) {
	g := greedyGame(t, 2)
	p := (&walker{g: g}).at(g.MovesPlayed() - 5)
	if r := provePlain(context.Background(), p, Limits{MemoryBytes: 64 << 10}, nil); r.Status != Unknown || r.StoppedBy != MemoryLimit || r.PeakBytes <= 64<<10 {
		t.Errorf("memory: %s, stopped by %s, peak %d bytes", r.Status, r.StoppedBy, r.PeakBytes)
	}
	if r := provePlain(context.Background(), p, Limits{Time: time.Nanosecond}, nil); r.Status != Unknown || r.StoppedBy != TimeLimit {
		t.Errorf("time: %s, stopped by %s", r.Status, r.StoppedBy)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := provePlain(ctx, p, Limits{}, nil); r.Status != Unknown || r.StoppedBy != Cancelled {
		t.Errorf("cancelled: %s, stopped by %s", r.Status, r.StoppedBy)
	}
}
