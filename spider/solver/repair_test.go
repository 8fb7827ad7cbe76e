package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"cardtable/spider"
)

// winningGame is a game on a random small 4-suit position with a stock
// row that the solver wins, which plays the first moves of the solver's
// line (up to half of it, and at most 12): every point of it is
// winnable. It also returns the line from the start.
func winningGame(tb testing.TB, r *rand.Rand) (*spider.Game, []spider.Move) {
	tb.Helper()
	for {
		p := layout(tb, randomStock(r), 4)
		res := solveShort(context.Background(), p, Limits{Nodes: 200_000}, false)
		if res.Status != Solved || len(res.Moves) < 6 {
			continue
		}
		g, err := spider.NewGameAt(p, spider.Options{Suits: 4})
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range res.Moves[:min(len(res.Moves)/2, 12)] {
			if err := g.Play(m); err != nil {
				tb.Fatal(err)
			}
		}
		return g, res.Moves
	}
}

// TestRepairSound: a repaired line from a position one random move away
// from a winning line's start replays as a win from there; repairs do
// succeed; a position on the line needs no search.
func TestRepairSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	var found, tried int
	var buf [256]spider.Move
	games := 12
	if testing.Short() {
		games = 3
	}
	for range games {
		g, line := winningGame(t, r)
		start := g.Start()
		tr := newTrajectory(&start, line)
		if tr == nil {
			t.Fatal("the solver's line does not replay")
		}
		if got, nodes := repair(g.Pos(), tr, 1000); nodes != 0 || len(got) != len(line)-g.MovesPlayed() {
			t.Fatalf("a position on the line: %d moves in %d nodes, want %d in 0", len(got), nodes, len(line)-g.MovesPlayed())
		}
		for _, m := range start.Legal(buf[:0]) {
			if start.Null(m) || m == line[0] {
				continue
			}
			q := start
			q.Do(m)
			tried++
			got, _ := repair(&q, tr, 5_000)
			if got == nil {
				continue
			}
			found++
			replay(t, &q, got)
			removedAtOnce(t, &q, got)
		}
	}
	t.Logf("%d of %d positions repaired", found, tried)
	if found == 0 {
		t.Fatal("no repair succeeded")
	}
}

// TestLostProbesNeverLoseAWin: the lost frontier's search (the
// prover) never proves lost a point of a game that
// follows a winning line, and line repair proves those points winnable
// from the opening's line alone (the analysis's extend).
func TestLostProbesNeverLoseAWin(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	ctx := context.Background()
	games, nodes := 3, int64(30_000)
	if testing.Short() {
		games, nodes = 1, 10_000
	}
	for range games {
		g, line := winningGame(t, r)
		n := g.MovesPlayed()
		pf := newProofs(&walker{g: g.Clone()}, n, 64<<20)
		for k := n; k >= 0; k-- {
			if res := pf.solve(ctx, k, Limits{Nodes: nodes}, true); res.Status == Unsolvable {
				t.Fatalf("point %d of %d, on a winning line, proven lost", k, n)
			}
		}
		pf = newProofs(&walker{g: g.Clone()}, n, 64<<20)
		start := g.Start()
		pf.learn(&start, 0, Result{Status: Solved, Moves: line})
		j, res := pf.extend(ctx, 0, n+1, Limits{Nodes: 500_000})
		if j != n || res.Status != Solved {
			t.Fatalf("extend reached point %d (%s), want %d", j, res.Status, n)
		}
		replayLine(t, g, n, res.Moves)
	}
}

// TestRepairCollision: a position whose hash a line's position shares
// without being it gets no line from the table of the line's positions
// (the line is replayed first).
func TestRepairCollision(t *testing.T) {
	g, line := winningGame(t, rand.New(rand.NewPCG(5, 1)))
	start := g.Start()
	tr := newTrajectory(&start, line)
	var buf [256]spider.Move
	for _, m := range start.Legal(buf[:0]) {
		if start.Null(m) || m == line[0] {
			continue
		}
		q := start
		q.Do(m)
		if wins(&q, line) || wins(&q, line[1:]) {
			continue
		}
		tr.at[hashPos(&q)] = 0 // as if q's hash were the start's
		if got, _ := repair(&q, tr, 0); got != nil {
			t.Fatalf("after %s: a %d-move line from the collision", m, len(got))
		}
		return
	}
	t.Fatal("no move off the line to try")
}

// removedAtOnce fails unless line, from p, removes each complete run
// before any other move, as a game that removes them by itself does.
func removedAtOnce(tb testing.TB, p *spider.Position, line []spider.Move) {
	tb.Helper()
	q := *p
	var buf [256]spider.Move
	for i, m := range line {
		if ms := q.Legal(buf[:0]); len(ms) > 0 && ms[0].Kind == spider.Remove && m.Kind != spider.Remove {
			tb.Fatalf("move %d %s made with a complete run left on the table", i+1, m)
		}
		q.Do(m)
	}
}
