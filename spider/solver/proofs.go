package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// proofs is what the solves of one analysis share: the table of
// positions proven lost (lostTable), and the proof of the point next to
// the first proven loss, kept between rounds so that the next round
// carries it on instead of starting it again.
type proofs struct {
	w    *walker
	n    int // the game's last point
	lost *lostTable
	// memory is Position's memory limit: the prover kept between rounds
	// and the table count against the solves' (0: no limit).
	memory int64
	k      int     // the point pr proves
	pr     *prover // nil: none kept
	// traj is the winning line of point trajK, the largest point proven
	// winnable so far (nil: none), which later points try to reach
	// (repair).
	traj  *trajectory
	trajK int
}

// lostShare is the share of a solve's memory limit the table of lost
// positions may hold; without a limit it holds up to lostMax positions.
// baseShare is the share the base proof's verdicts may hold (without a
// limit, baseStatesMax states): the limit alone sets their cap, as a
// band point can need more than 65 536 states (deal 3's greedy point 30
// took 149 000) and a sixteenth of the command line's 1 GB holds 279 620
// while a sixteenth of the server's 256 MiB, 69 905, costs it what the
// former fixed cap did. A larger share is held back from every solve,
// as the verdicts count at their cap.
const (
	lostShare = 4
	lostMax   = 1 << 26
	baseShare = 16
)

func newProofs(w *walker, last int, memory int64) *proofs {
	n, bases := lostMax, baseStatesMax
	if memory > 0 {
		// A set is at least a quarter full after it grows (3 in 4 at
		// most before): a position takes at most 22 bytes of slots.
		n = int(min(int64(n), memory/lostShare/24))
		bases = int(memory / baseShare / baseStateBytes)
	}
	return &proofs{w: w, n: last, lost: &lostTable{max: n, bases: newBaseProofs(bases)}, memory: memory}
}

// held is what the table and the base proof's verdicts hold against the
// memory limit: the verdicts at their cap, as they grow within a solve
// without the solve's memory check seeing them.
func (t *lostTable) held() int64 {
	return t.set.bytes() + int64(t.bases.max)*baseStateBytes
}

// solve is the analysis's solveFunc: a point believed lost goes to the
// prover, carried on from the last round's when it is the same point;
// the others to line repair (repair), then to the solver, which finds
// wins.
func (pf *proofs) solve(ctx context.Context, k int, l Limits, lost bool) Result {
	if pf.memory > 0 {
		held := pf.lost.held()
		if pf.pr != nil && !(lost && pf.k == k) {
			held += pf.pr.bytes()
		}
		if l.MemoryBytes = pf.memory - held; l.MemoryBytes <= 0 {
			pf.pr = nil // the kept proof gives way
			l.MemoryBytes = max(pf.memory-pf.lost.held(), 1)
		}
	}
	p := pf.w.at(k)
	if !lost {
		r, ok := pf.repair(p, k, repairBudget(l))
		if ok {
			return r
		}
		l = without(l, r)
		if k == pf.n && p.StockLen() == 0 && l.Nodes > 0 {
			r = add(pf.end(ctx, p, l), r)
		} else {
			r = add(solveMode(ctx, p, l, false, false), r)
		}
		pf.learn(p, k, r)
		return r
	}
	if pf.pr == nil || pf.k != k {
		pf.k, pf.pr = k, newProver(p, pf.lost)
	}
	r := pf.pr.resume(ctx, l)
	if r.Status != Unknown || r.StoppedBy == MemoryLimit || r.StoppedBy == Cancelled {
		pf.pr = nil
	}
	if r.Status == Solved {
		// A depth-first line wanders: shortened as the solver's are.
		r.Moves = shorten(p, r.Moves, shortenLimit(r.Nodes))
	}
	return r
}

// endShare is the share of its node limit the game's end gives the
// prover first (a quarter).
const endShare = 4

// end solves the game's end when the stock is dealt: the prover first,
// with a quarter of the node limit, as the end is mostly lost and often
// proven so at once where the solver would spend its whole limit (deal
// 1's greedy 4-suit game: 0.2 million nodes against a million left
// unknown); then, if that did not decide it, the solver with the rest,
// as a depth-first search is slow to find a win. The proof is kept for
// the lost frontier to carry on.
func (pf *proofs) end(ctx context.Context, p *spider.Position, l Limits) Result {
	pf.k, pf.pr = pf.n, newProver(p, pf.lost)
	first := l
	first.Nodes = l.Nodes / endShare
	r := pf.pr.resume(ctx, first)
	if r.Status == Solved {
		r.Moves = shorten(p, r.Moves, shortenLimit(r.Nodes))
	}
	if r.Status != Unknown || r.StoppedBy == Cancelled {
		pf.pr = nil
		return r
	}
	if r.StoppedBy == MemoryLimit {
		pf.pr = nil
	}
	rest := l
	rest.Nodes -= r.Nodes
	if rest.Time > 0 {
		rest.Time = max(rest.Time-r.Elapsed, 1)
	}
	s := solveMode(ctx, p, rest, false, false)
	s.Nodes += r.Nodes
	s.Elapsed += r.Elapsed
	return s
}

// repairShare and repairMax bound a repair attempt: a fiftieth of the
// probe's node limit, at most repairMax nodes. A repair that succeeds
// mostly does so in a few hundred nodes (docs/analysis.md).
const (
	repairShare = 50
	repairMax   = 20_000
)

func repairBudget(l Limits) int64 {
	if l.Nodes == 0 {
		return repairMax
	}
	return min(l.Nodes/repairShare, repairMax)
}

// repair tries to prove point k (at p) winnable by reaching the winning
// line of a point below it, within nodes. It reports the result (its
// nodes, and the line when it succeeded) and whether it did.
func (pf *proofs) repair(p *spider.Position, k int, nodes int64) (Result, bool) {
	if pf.traj == nil || k <= pf.trajK || nodes <= 0 {
		return Result{}, false
	}
	start := time.Now()
	line, spent := repair(p, pf.traj, nodes)
	r := Result{Nodes: spent, Elapsed: time.Since(start)}
	if line == nil {
		r.StoppedBy = NodeLimit
		return r, false
	}
	r.Status, r.Moves, r.Found = Solved, line, len(line)
	pf.learn(p, k, r)
	return r, true
}

// learn keeps the winning line of point k as the one later points try
// to reach, when k is the largest point proven winnable.
func (pf *proofs) learn(p *spider.Position, k int, r Result) {
	if r.Status != Solved || (pf.traj != nil && k <= pf.trajK) {
		return
	}
	if t := newTrajectory(p, r.Moves); t != nil {
		pf.traj, pf.trajK = t, k
	}
}

// extend follows a winnable point k up the game: it tries to repair
// k+1, k+2, ... below hi, each within a repair's share of l's nodes,
// and goes on past a point it could not repair to up to extendMisses
// more (a point proven winnable implies the ones before it). It stops
// when l's time or nodes are spent. It returns the last point proven so
// (k when none) and its result, whose Nodes count every attempt.
func (pf *proofs) extend(ctx context.Context, k, hi int, l Limits) (int, Result) {
	start := time.Now()
	var last Result
	var spent int64
	j := k
	for i, misses := k+1, 0; i < hi && misses <= extendMisses && ctx.Err() == nil; i++ {
		if l.Time > 0 && time.Since(start) >= l.Time {
			break
		}
		nodes := repairBudget(l)
		if l.Nodes > 0 {
			if nodes = min(nodes, l.Nodes-spent); nodes <= 0 {
				break
			}
		}
		r, ok := pf.repair(pf.w.at(i), i, nodes)
		spent += r.Nodes
		if !ok {
			misses++
			continue
		}
		j, last, misses = i, r, 0
	}
	last.Nodes = spent
	return j, last
}

// extendMisses is how many points in a row extend tries past one it
// could not repair.
const extendMisses = 2

// without is l with r's nodes and time taken off (at least one of each
// left where l has a limit).
func without(l Limits, r Result) Limits {
	if l.Nodes > 0 {
		l.Nodes = max(l.Nodes-r.Nodes, 1)
	}
	if l.Time > 0 {
		l.Time = max(l.Time-r.Elapsed, 1)
	}
	return l
}

// add is s with r's nodes and time added.
func add(s, r Result) Result {
	s.Nodes += r.Nodes
	s.Elapsed += r.Elapsed
	return s
}
