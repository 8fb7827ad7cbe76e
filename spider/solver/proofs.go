package solver

import (
	"context"

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
}

// lostShare is the share of a solve's memory limit the table of lost
// positions may hold; without a limit it holds up to lostMax positions.
const (
	lostShare = 4
	lostMax   = 1 << 26
)

func newProofs(w *walker, last int, memory int64) *proofs {
	n := lostMax
	if memory > 0 {
		// A set is at least a quarter full after it grows (3 in 4 at
		// most before): a position takes at most 22 bytes of slots.
		n = int(min(int64(n), memory/lostShare/24))
	}
	return &proofs{w: w, n: last, lost: &lostTable{max: n}, memory: memory}
}

// solve is the analysis's solveFunc: a point believed lost goes to the
// prover, carried on from the last round's when it is the same point;
// the others to the solver, which finds wins.
func (pf *proofs) solve(ctx context.Context, k int, l Limits, lost bool) Result {
	if pf.memory > 0 {
		held := pf.lost.set.bytes()
		if pf.pr != nil && !(lost && pf.k == k) {
			held += pf.pr.bytes()
		}
		if l.MemoryBytes = pf.memory - held; l.MemoryBytes <= 0 {
			pf.pr = nil // the kept proof gives way
			l.MemoryBytes = max(pf.memory-pf.lost.set.bytes(), 1)
		}
	}
	p := pf.w.at(k)
	if !lost && k == pf.n && p.StockLen() == 0 && l.Nodes > 0 {
		return pf.end(ctx, p, l)
	}
	if !lost {
		return solveMode(ctx, p, l, false, false)
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
