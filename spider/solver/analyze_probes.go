package solver

import (
	"context"
	"time"
)

// The search over an analysis's points (Analyze): which position to
// solve next, within what limits, and what each verdict implies for the
// others, given a solve function (the proofs' in Analyze, stand-ins in
// the tests).

// solveFunc solves the position after k moves within l; prove asks for
// the search that proves losses (the prover), for a point believed lost.
type solveFunc func(ctx context.Context, k int, l Limits, prove bool) Result

// extendFunc follows a point k proven winnable up the game, below hi,
// within l (a probe's limits: line repair, repair.go): it returns the
// last point it proved winnable (k for none) and that point's result,
// whose Nodes are all it spent.
type extendFunc func(ctx context.Context, k, hi int, l Limits) (int, Result)

// analysis is the state of analyze's search over points 0..n.
type analysis struct {
	n      int
	res    []*Result // res[k]: the last solve of point k, nil if not solved
	at     []int     // at[k]: the last round point k was solved in (-1: none)
	atLost []int     // atLost[k]: the same for its solves as a lost point
	lo, hi int       // largest proven winnable (-1: none), smallest proven lost (n+1: none)
	// round is the deepening round: its solves get 2^round times
	// Position's limits (deepen).
	round int
	// lostTurn: in the deepening rounds the two frontiers take turns,
	// so that the time left is spent on both sides of the boundary; the
	// lost frontier's is next.
	lostTurn bool
}

// analyze finds the verdicts of points 0..n with solve, probing them in
// probeOrder, then again with doubled limits each round (deepen), until
// the boundary is exact, a limit stops it or the rounds run out.
func analyze(ctx context.Context, n int, solve solveFunc, lim AnalyzeLimits) *Analysis {
	return analyzeWith(ctx, n, solve, nil, lim)
}

// analyzeWith is analyze with extend (nil: none) tried after each point
// proven winnable.
func analyzeWith(ctx context.Context, n int, solve solveFunc, extend extendFunc, lim AnalyzeLimits) *Analysis {
	start := time.Now()
	s := &analysis{n: n, res: make([]*Result, n+1), at: make([]int, n+1), atLost: make([]int, n+1), lo: -1, hi: n + 1}
	for k := range s.at {
		s.at[k], s.atLost[k] = -1, -1
	}
	a := &Analysis{Moves: n}
	for {
		k, prove := s.probe()
		if k < 0 {
			if s.deepen(lim) {
				continue
			}
			break
		}
		l, stop := s.budget(lim, float64(uint64(1)<<s.round), time.Since(start), a.Nodes)
		if stop != NoLimit {
			a.StoppedBy = stop
			break
		}
		if ctx.Err() != nil {
			a.StoppedBy = Cancelled
			break
		}
		r := solve(ctx, k, l, prove)
		a.Nodes += r.Nodes
		if r.StoppedBy == Cancelled {
			// A solve cut by the context says nothing of its position:
			// it stays as it was.
			a.StoppedBy = Cancelled
			break
		}
		a.Solves++
		s.note(k, r, prove)
		if extend != nil && r.Status == Solved && k == s.lo && k+1 < s.hi {
			el, stop := s.budget(lim, float64(uint64(1)<<s.round), time.Since(start), a.Nodes)
			if stop != NoLimit {
				continue // the loop's next budget says so and stops
			}
			j, rj := extend(ctx, k, s.hi, el)
			a.Nodes += rj.Nodes
			if j > k {
				a.Solves++
				s.note(j, rj, false)
			}
		}
	}
	a.Elapsed = time.Since(start)
	a.Rounds = s.round
	s.fill(a)
	return a
}

// budget is the limits of the next solve: Position's times scale, cut to
// what is left of Total. It reports the total limit that has run out, if
// one has. The deepening rounds leave lineReserve of the total time to
// the searches for a shorter line made after them.
func (s *analysis) budget(lim AnalyzeLimits, scale float64, spent time.Duration, nodes int64) (Limits, Limit) {
	l := lim.Position
	l.Time = time.Duration(float64(l.Time) * scale)
	l.Nodes = int64(float64(l.Nodes) * scale)
	if t := lim.Total.Time; t > 0 {
		if s.round > 0 {
			t -= time.Duration(float64(t) * lineReserve)
		}
		t -= lim.Total.Time / timeSlack
		left := t - spent
		if left <= 0 {
			return l, TimeLimit
		}
		if l.Time == 0 || left < l.Time {
			l.Time = left
		}
	}
	if t := lim.Total.Nodes; t > 0 {
		left := t - nodes
		if left <= 0 {
			return l, NodeLimit
		}
		if l.Nodes == 0 || left < l.Nodes {
			l.Nodes = left
		}
	}
	return l, NoLimit
}

// note records the solve of point k and moves the frontiers.
func (s *analysis) note(k int, r Result, prove bool) {
	s.res[k] = &r
	s.lostTurn = !prove
	if prove {
		s.atLost[k] = s.round
	} else {
		s.at[k] = s.round
	}
	switch r.Status {
	case Solved:
		s.lo = max(s.lo, k)
	case Unsolvable:
		s.hi = min(s.hi, k)
	}
}

// Deepening: once a round has nothing left to probe and points between
// the frontiers are still unknown, the next round probes that band again
// with twice the limits, up to maxRounds rounds (2^maxRounds times
// Position's limits) and within the total limits. On lost 4-suit games
// the default million nodes a position left long bands unknown that 8
// million decided (docs/analysis.md). A doubling wastes at most the
// half of the nodes spent on the rounds before the last, which is
// cheaper than guessing the budget a position needs.
//
// The lost frontier's probes use the search that proves losses: every
// pass unpruned (search.exhOnly). A loss is proven only by an unpruned
// pass that nothing cut, and a normal solve gives those passes one node
// in eight: on the last position of a lost 4-suit game (greedy play,
// Spider layout, deal 1) the proving search proved the loss in 3.2
// million nodes where a normal solve had not within 4 million.
const (
	maxRounds   = 8
	lineReserve = 0.1
)

// timeSlack: a search checks its time every so often, and a loaded
// machine can leave it waiting, so the probes and the search for a
// shorter line keep a timeSlack-th of the total time (a fortieth) for
// that.
const timeSlack = 40

// deepen starts the next round if one can decide more: the boundary is
// not exact, Position has a limit to double, and rounds are left.
func (s *analysis) deepen(lim AnalyzeLimits) bool {
	if s.hi == s.lo+1 || s.round >= maxRounds || (lim.Position.Nodes == 0 && lim.Position.Time == 0) {
		return false
	}
	s.round++
	return true
}

// tried reports a point solved in this round, as a lost point when lost
// is set, or one that a larger budget would not decide (its solve ran out
// of memory, which a larger node or time limit does not change).
func (s *analysis) tried(k int, lost bool) bool {
	r := s.res[k]
	switch {
	case r == nil:
		return false
	case r.StoppedBy == MemoryLimit, s.atLost[k] == s.round:
		return true
	}
	return !lost && s.at[k] == s.round
}

// probe is the point to probe next in this round, or -1; lost reports a
// probe of the lost frontier, made with the search that proves losses.
func (s *analysis) probe() (k int, lost bool) {
	// probeOrder: along a game the positions winnable form a prefix
	// 0..t (a position one move before a winnable one is winnable), so
	// the points are probed as in a binary search for t, with two
	// frontiers because a solve can end unknown:
	//
	//  1. The last position first: if it is winnable (the game was won,
	//     or abandoned still winnable) one solve decides every point.
	//  2. The winnable frontier: between lo (the largest point proven
	//     winnable, -1 for none) and b, the smallest point above it that
	//     was tried this round and is unknown or lost (hi when none is),
	//     probe the middle. An unknown point counts as lost here: most
	//     unknowns are lost positions whose loss is too large to prove.
	//  3. The lost frontier: once 2 has nothing left, the point just
	//     below hi, with the prover (lostProbe), and again below each
	//     loss it proves, until one is left unknown. This narrows the
	//     band of points left unknown from above.
	//
	// In the first round 3 waits for 2 to have nothing left; in the
	// deepening rounds, with larger limits, they take turns, so that a
	// total running out still leaves both sides tried.
	//
	// A winnable point found in 3 moves lo above the unknowns below it
	// (they are then implied winnable) and 2 resumes from there. The
	// winnable frontier takes about log2 of its interval in solves; both
	// end next to their proven point (lo+1, hi-1): a round tries both
	// sides of the boundary. The round ends when both have nothing left; points
	// strictly between the two bands of unknowns may stay not solved, and
	// are reported unknown.
	if s.res[s.n] == nil {
		return s.n, false
	}
	w, l := s.winProbe(), s.lostProbe()
	if k := s.hi - 1; l < 0 && w >= 0 && s.round > 0 && s.lostTurn && k > s.lo && s.res[k].StoppedBy != MemoryLimit {
		// The proof of hi-1 is carried on, not started again (proofs):
		// it takes its turn after each of the winnable frontier's
		// probes, so that both sides get the same share of a round.
		l = k
	}
	switch {
	case w >= 0 && (l < 0 || s.round == 0 || !s.lostTurn):
		return w, false
	case l >= 0:
		return l, true
	}
	return -1, false
}

// winProbe is the winnable frontier's next point this round, or -1.
func (s *analysis) winProbe() int {
	b := s.hi
	for k := s.lo + 1; k < s.hi; k++ {
		if s.tried(k, false) {
			b = k
			break
		}
	}
	if b-s.lo >= 2 {
		return (s.lo + b) / 2 // lo >= -1 and b > lo+1: the sum is at least 0
	}
	return -1
}

// lostProbe is the lost frontier's next point this round, or -1: the
// point just below hi, until it has been tried this round. The prover
// keeps the positions of each loss it proves (proofs), so proving hi-1
// after hi costs only what hi-1 reaches beyond hi; a point further down
// reaches all hi-1 does, so once hi-1 is left unknown the points below
// it would cost more and wait for the next round.
func (s *analysis) lostProbe() int {
	k := s.hi - 1
	if k <= s.lo || s.tried(k, true) {
		return -1
	}
	return k
}

// fill writes the points: each solved one with its verdict, the others
// implied where a solve implies them.
func (s *analysis) fill(a *Analysis) {
	a.Points = make([]Point, s.n+1)
	a.LastWinnable = s.lo
	for k := range a.Points {
		p := Point{Move: k, Solve: s.res[k]}
		if p.Solve != nil {
			p.Basis = BySolve
			if k == s.lo {
				a.Line = p.Solve.Moves
			}
			r := *p.Solve
			r.Moves = nil
			p.Solve = &r
		}
		switch {
		case k <= s.lo:
			p.Verdict = Winnable
		case k >= s.hi:
			p.Verdict = Lost
		}
		if p.Verdict != Undecided && (p.Solve == nil || p.Solve.Status == Unknown) {
			p.Basis = Implied
		}
		a.Points[k] = p
	}
}
