package solver

import (
	"context"
	"math"
	"slices"
	"time"

	"cardtable/spider"
)

// A beam search for short winning lines (docs/solver.md, "Shorter lines").
//
// The staged search finds its win best first: the path to the winning node
// is long wherever the search wandered before it found the position it
// dealt from. A beam search goes level by level instead: from every
// position of the beam (w of them) it makes every move, and keeps the w
// best new positions by evaluation as the next level. Every position of a
// level is reached in the same number of steps, so the evaluation alone
// decides which survive, and the first win it meets is as short as the
// beam allows. It is not complete (a beam drops positions for good), so
// Solve runs it only after the staged search has found a win, and keeps
// whichever line is shorter.

// bnode is one position kept in the beam: the step from its parent in
// the level before (a card move or a deal, and the removal that followed
// at once, if any).
type bnode struct {
	parent int32
	mv     spider.Move
	rm     int8 // pile of the removal after mv, or -1
}

// bcand is a child considered for the next level.
type bcand struct {
	parent int32
	mv     spider.Move
	eval   int32
	h      uint64
}

// beamer holds a beam search's arrays, reused from level to level.
type beamer struct {
	ctx      context.Context
	deadline time.Time // zero: none
	w        *evalWeights
	fw       *fullWeights // when set, the full-information evaluation (beam4.go) instead of w
	perStage bool         // keep width positions for each number of rows left in the stock
	per      []int        // positions kept at this level for each number of rows left
	// maxLevels, when not zero, ends the search after that many levels:
	// a beam that has not won by then would find a line longer than the
	// one it is to beat (measured: lines that wander so long barely
	// shorten, and a beam that wanders spends its whole budget).
	maxLevels int
	stock     int32 // what each card still in the stock costs the evaluation
	levels    [][]bnode
	cur       []spider.Position
	next      []spider.Position
	cands     []bcand
	evals     []int32
	limit     int // positions the search may generate
	seen      hashSet
	buf       [256]spider.Move
	gen       int
}

// full is the beam's evaluation of p, computed afresh.
func (b *beamer) full(p *spider.Position) int32 {
	var e int32
	for k := range spider.Piles {
		e += b.pile(p, k)
	}
	return b.eval(p, e)
}

// pile is pile k's part of the beam's evaluation.
func (b *beamer) pile(p *spider.Position, k int) int32 {
	if b.fw != nil {
		return pileFull(p, k, b.fw)
	}
	return pileEvalW(p, k, b.w)
}

// beamStock is what each card still in the stock costs a position's
// evaluation in the beam: positions of one level may have dealt different
// numbers of rows, and a row dealt adds ten face-up cards, most of them
// breaks. Without the charge a position that deals looks worse than one
// that does not, however little the latter can still do.
const beamStock = 10

// beamSearch looks for a win from p with a beam of width w, generating at
// most limit positions. It returns the line, removals included, and
// whether it found one.
func beamSearch(p *spider.Position, width, limit int) ([]spider.Move, bool) {
	if p.Won() {
		return nil, true
	}
	b := &beamer{w: &weightSets[0], stock: beamStock}
	return b.run(p, width, limit)
}

// eval is the beam's evaluation of p given the sum of its piles' terms.
func (b *beamer) eval(p *spider.Position, piles int32) int32 {
	if b.fw != nil {
		return piles + int32(p.NumRemoved())*b.fw.removed - int32(p.StockLen())*b.fw.stock
	}
	return piles + int32(p.NumRemoved())*b.w.removed - int32(p.StockLen())*b.stock
}

// run is beamSearch with b's weights, ctx and deadline. Its memory is
// small and bounded: two levels of positions (width of them, about a
// kilobyte each), the candidates of a level, a move a position kept and
// the hashes of the positions kept.
func (b *beamer) run(p *spider.Position, width, limit int) ([]spider.Move, bool) {
	b.limit = limit
	b.cur = append(b.cur[:0], *p)
	b.levels = append(b.levels[:0], []bnode{{parent: -1, rm: -1}})
	b.seen.reset()
	b.seen.add(hashPos(p))
	for len(b.cur) > 0 && b.gen < limit && (b.maxLevels == 0 || len(b.levels) <= b.maxLevels) {
		if b.ctx != nil && b.ctx.Err() != nil || !b.deadline.IsZero() && time.Now().After(b.deadline) {
			return nil, false
		}
		b.cands = b.cands[:0]
		for i := range b.cur {
			if won := b.expand(int32(i)); won >= 0 {
				return b.line(b.cands[won]), true
			}
			if b.gen >= b.limit {
				return nil, false
			}
		}
		if len(b.cands) == 0 {
			return nil, false
		}
		if b.fw != nil {
			// Positions met before (at this level or an earlier one)
			// are left out before the cut, so that a beam on a plateau
			// keeps its width instead of dying out.
			kept := b.cands[:0]
			for _, c := range b.cands {
				if !b.seen.has(c.h) {
					kept = append(kept, c)
				}
			}
			b.cands = kept
		}
		if b.perStage {
			b.per = append(b.per[:0], make([]int, (p.StockLen()+spider.Piles-1)/spider.Piles+1)...)
			b.bestPer(2 * width)
		} else {
			b.best(2 * width)
		}
		lv := make([]bnode, 0, min(width, len(b.cands)))
		b.next = b.next[:0]
		for _, c := range b.cands {
			if !b.perStage && len(lv) >= width {
				break
			}
			var g int
			if b.perStage {
				g = b.group(c)
				if b.per[g] >= width {
					continue
				}
			}
			if !b.seen.add(c.h) {
				continue
			}
			if b.perStage {
				b.per[g]++
			}
			q := b.cur[c.parent]
			rm := b.step(&q, c.mv)
			lv = append(lv, bnode{parent: c.parent, mv: c.mv, rm: rm})
			b.next = append(b.next, q)
		}
		b.levels = append(b.levels, lv)
		b.cur, b.next = b.next, b.cur
	}
	return nil, false
}

// best sorts the candidates best first, ties in the order met (so that
// the search is deterministic), keeping only about the n best: sorting
// them all took most of the beam's time.
func (b *beamer) best(n int) {
	if len(b.cands) > n {
		b.evals = b.evals[:0]
		for _, c := range b.cands {
			b.evals = append(b.evals, c.eval)
		}
		slices.Sort(b.evals)
		cut := b.evals[len(b.evals)-n]
		kept := b.cands[:0]
		for _, c := range b.cands {
			if c.eval >= cut {
				kept = append(kept, c)
			}
		}
		b.cands = kept
	}
	slices.SortStableFunc(b.cands, func(x, y bcand) int { return int(y.eval) - int(x.eval) })
}

// group is the beam a candidate joins in a beam per stage: the number of
// rows left in the stock after its move.
func (b *beamer) group(c bcand) int {
	left := b.cur[c.parent].StockLen()
	if c.mv.Kind == spider.Deal {
		left -= min(left, spider.Piles)
	}
	return (left + spider.Piles - 1) / spider.Piles
}

// bestPer is best for a beam per stage: it keeps about the n best
// candidates of each group and sorts them best first, ties in the order
// met.
func (b *beamer) bestPer(n int) {
	cut := make([]int32, len(b.per))
	for g := range b.per {
		b.evals = b.evals[:0]
		for _, c := range b.cands {
			if b.group(c) == g {
				b.evals = append(b.evals, c.eval)
			}
		}
		cut[g] = math.MinInt32
		if len(b.evals) > n {
			slices.Sort(b.evals)
			cut[g] = b.evals[len(b.evals)-n]
		}
	}
	kept := b.cands[:0]
	for _, c := range b.cands {
		if c.eval >= cut[b.group(c)] {
			kept = append(kept, c)
		}
	}
	b.cands = kept
	slices.SortStableFunc(b.cands, func(x, y bcand) int { return int(y.eval) - int(x.eval) })
}

// step makes mv on q and the removal it allows, and reports the pile of
// that removal, or -1.
func (b *beamer) step(q *spider.Position, mv spider.Move) int8 {
	q.Do(mv)
	for k := range spider.Piles {
		if mv.Kind == spider.MoveCards && k != int(mv.To) && k != int(mv.From) {
			continue
		}
		if complete(q, k) {
			q.Do(spider.RemoveFrom(k))
			return int8(k)
		}
	}
	return -1
}

// expand adds the children of the i-th position of the beam to the
// candidates; it returns the index of a child that wins, or -1.
func (b *beamer) expand(i int32) int {
	p := &b.cur[i]
	var terms [spider.Piles]uint64
	var evals [spider.Piles]int32
	var sumT uint64
	var sumE int32
	for k := range spider.Piles {
		terms[k], evals[k] = pileTerm(p, k), b.pile(p, k)
		sumT += terms[k]
		sumE += evals[k]
	}
	for _, m := range p.Legal(b.buf[:0]) {
		if m.Kind == spider.Remove || p.Null(m) || pointless(p, m) {
			continue
		}
		if b.gen >= b.limit {
			return -1
		}
		b.gen++
		if m.Kind == spider.Deal {
			q := *p
			b.step(&q, m)
			b.cands = append(b.cands, bcand{parent: i, mv: m, eval: b.full(&q), h: hashPos(&q)})
			continue
		}
		u := p.Do(m)
		f, t := int(m.From), int(m.To)
		var h uint64
		var e int32
		if complete(p, t) || complete(p, f) {
			// A removal follows: evaluate the position after it in full.
			q := *p
			k := t
			if !complete(p, t) {
				k = f
			}
			q.Do(spider.RemoveFrom(k))
			h, e = hashPos(&q), b.full(&q)
			if q.StockLen() == 0 && q.FaceDown() == 0 && q.Won() {
				p.Undo(m, u)
				b.cands = append(b.cands, bcand{parent: i, mv: m, eval: e, h: h})
				return len(b.cands) - 1
			}
		} else {
			hs := sumT - terms[f] + pileTerm(p, f) + pileTerm(p, t) - terms[t]
			es := sumE - evals[f] + b.pile(p, f) + b.pile(p, t) - evals[t]
			h, e = mix(hs+hashBase(p)), b.eval(p, es)
		}
		p.Undo(m, u)
		b.cands = append(b.cands, bcand{parent: i, mv: m, eval: e, h: h})
	}
	return -1
}

// line lists the moves from the start to the candidate c (which is not
// yet in a level), removals included.
func (b *beamer) line(c bcand) []spider.Move {
	q := b.cur[c.parent]
	rm := b.step(&q, c.mv)
	var out []spider.Move
	if rm >= 0 {
		out = append(out, spider.RemoveFrom(int(rm)))
	}
	out = append(out, c.mv)
	i := c.parent
	for lv := len(b.levels) - 1; lv > 0; lv-- {
		n := b.levels[lv][i]
		if n.rm >= 0 {
			out = append(out, spider.RemoveFrom(int(n.rm)))
		}
		out = append(out, n.mv)
		i = n.parent
	}
	slices.Reverse(out)
	return out
}
