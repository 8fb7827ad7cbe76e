package solver

import (
	"context"
	"slices"
	"time"

	"cardtable/card"
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
	g      uint8  // its group in a beam per stage (rows left in the stock after mv), else 0
	lazy   bool   // h was computed by hashOf, which left the two piles' terms in ft
	h      uint64 // its hash, or 0 until hashOf computes it
}

// beamer holds a beam search's arrays, reused from level to level.
type beamer struct {
	ctx      context.Context
	deadline time.Time // zero: none
	w        *evalWeights
	fw       *fullWeights // when set, the full-information evaluation (beam4.go) instead of w
	perStage bool         // keep width positions for each number of rows left in the stock
	// maxLevels, when not zero, ends the search after that many levels:
	// a beam that has not won by then would find a line longer than the
	// one it is to beat (measured: lines that wander so long barely
	// shorten, and a beam that wanders spends its whole budget).
	maxLevels int
	stock     int32 // what each card still in the stock costs the evaluation
	levels    [][]bnode
	cur       []spider.Position
	next      []spider.Position
	// terms and pe hold, for each position of cur, its piles' terms of
	// the hash (pileTerm) and of the evaluation (pile); nextTerms and
	// nextPe the same for next. A child differs from its parent in the
	// piles its move touches only, so only those are computed again.
	terms, nextTerms [][spider.Piles]uint64
	pe, nextPe       [][spider.Piles]int32
	cands            []bcand
	order            []int32 // the candidates' indexes, best first (sortCands)
	count            []int32 // sortCands' buckets
	keys             []uint64
	kept             []int32     // indexes of the candidates that may join the next level
	ft               [][2]uint64 // per candidate: its move's piles' terms after it (hashOf)
	slot             []uint64    // lookAhead's reads of seen
	cut              []int32     // per group: the least evaluation kept, once cnt reaches the cut
	cnt              []int       // per group: candidates kept so far
	limit            int         // positions the search may generate
	seen             hashSet
	buf              [256]spider.Move
	gen              int
}

// full is the beam's evaluation of p, computed afresh.
func (b *beamer) full(p *spider.Position) int32 {
	var e int32
	for k := range spider.Piles {
		e += b.pile(p, k)
	}
	e = b.eval(p, e)
	if b.fw != nil {
		e += landFull(p, b.fw)
	}
	return e
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
	b.terms = append(b.terms[:0], [spider.Piles]uint64{})
	b.pe = append(b.pe[:0], [spider.Piles]int32{})
	for k := range spider.Piles {
		b.terms[0][k], b.pe[0][k] = pileTerm(p, k), b.pile(p, k)
	}
	b.levels = append(b.levels[:0], []bnode{{parent: -1, rm: -1}})
	b.seen.reset()
	b.seen.add(hashPos(p))
	groups := 1
	if b.perStage {
		groups = (p.StockLen()+spider.Piles-1)/spider.Piles + 1
	}
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
		b.choose(2*width, groups)
		b.nextLevel(width, groups)
		b.cur, b.next = b.next, b.cur
		b.terms, b.nextTerms = b.nextTerms, b.terms
		b.pe, b.nextPe = b.nextPe, b.pe
	}
	return nil, false
}

// nextLevel makes the next level from the candidates choose kept, best
// first: at most width of them (width of each group in a beam per
// stage), each a position not met before.
func (b *beamer) nextLevel(width, groups int) {
	per := b.cnt[:groups]
	clear(per)
	lv := make([]bnode, 0, min(width, len(b.kept)))
	b.next, b.nextTerms, b.nextPe = b.next[:0], b.nextTerms[:0], b.nextPe[:0]
	for _, i := range b.kept {
		c := &b.cands[i]
		if !b.perStage && len(lv) >= width {
			break
		}
		if b.perStage && per[c.g] >= width {
			continue
		}
		if !b.seen.add(b.hashOf(i)) {
			continue
		}
		per[c.g]++
		parent := &b.cur[c.parent]
		var lost, turned, et int32
		f, to, n := int(c.mv.From), int(c.mv.To), int(c.mv.Count)
		if b.fw != nil && c.mv.Kind == spider.MoveCards {
			lost, turned = leaveFull(parent, f, n, b.fw)
			et = arriveFull(parent, f, to, n, b.pe[c.parent][to], b.fw)
		}
		b.next = append(b.next, *parent)
		q := &b.next[len(b.next)-1]
		rm := b.step(q, c.mv)
		lv = append(lv, bnode{parent: c.parent, mv: c.mv, rm: rm})
		b.nextTerms = append(b.nextTerms, b.terms[c.parent])
		b.nextPe = append(b.nextPe, b.pe[c.parent])
		t, e := &b.nextTerms[len(b.nextTerms)-1], &b.nextPe[len(b.nextPe)-1]
		switch {
		case c.mv.Kind == spider.Deal:
			for k := range spider.Piles {
				t[k], e[k] = pileTerm(q, k), b.pile(q, k)
			}
		case rm >= 0 || !c.lazy || b.fw == nil:
			// A removal after a card move is from one of its piles.
			for _, k := range [2]int{f, to} {
				t[k], e[k] = pileTerm(q, k), b.pile(q, k)
			}
		default:
			// As expand and hashOf found them.
			t[f], t[to] = b.ft[i][0], b.ft[i][1]
			e[f], e[to] = e[f]-lost+turned, et
			if q.Len(f) == 0 {
				e[f] = b.fw.space
			}
		}
	}
	b.levels = append(b.levels, lv)
}

// rows is the number of rows in a stock of left cards.
func rows(left int) uint8 {
	return uint8((left + spider.Piles - 1) / spider.Piles)
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
// candidates; it returns the index of a child that wins, or -1. A card
// move's child is evaluated from its parent's pile terms and the two
// piles it changes, and hashed only if choose needs it (hashOf).
func (b *beamer) expand(i int32) int {
	p, pe := &b.cur[i], &b.pe[i]
	var sumE int32
	for _, e := range pe {
		sumE += e
	}
	var land int32                   // landFull(p), for a card move's child
	var next [spider.Piles]card.Card // the next row, when land counts
	if b.fw != nil {
		land = landFull(p, b.fw)
		if b.fw.land != 0 && p.StockLen() > 0 {
			var st [50]card.Card
			copy(next[:], p.Stock(st[:0]))
		}
	}
	var g, gDeal uint8
	if b.perStage {
		left := p.StockLen()
		g, gDeal = rows(left), rows(left-min(left, spider.Piles))
	}
	for _, m := range searchMoves(p, b.buf[:0]) {
		if b.gen >= b.limit {
			return -1
		}
		b.gen++
		if m.Kind == spider.Deal {
			b.cands = append(b.cands, b.dealt(i, m, gDeal))
			continue
		}
		f, t, n := int(m.From), int(m.To), int(m.Count)
		if b.fw != nil && !completesAfter(p, f, t, n) {
			// The child is its parent with two piles changed: evaluate
			// those without making the move.
			lost, turned := leaveFull(p, f, n, b.fw)
			ef, et := pe[f]-lost+turned, arriveFull(p, f, t, n, pe[t], b.fw)
			if p.Len(f) == n {
				ef = b.fw.space
			}
			e := b.eval(p, sumE-pe[f]+ef+et-pe[t])
			if b.fw.land != 0 {
				e += land + b.landMoved(p, &next, f, t, n)
			}
			b.cands = append(b.cands, bcand{parent: i, mv: m, eval: e, g: g})
			continue
		}
		u := p.Do(m)
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
			h, e = nonzero(hashPos(&q)), b.full(&q)
			if q.StockLen() == 0 && q.FaceDown() == 0 && q.Won() {
				p.Undo(m, u)
				b.cands = append(b.cands, bcand{parent: i, mv: m, eval: e, g: g, h: h})
				return len(b.cands) - 1
			}
		} else {
			e = b.eval(p, sumE-pe[f]+b.pile(p, f)+b.pile(p, t)-pe[t])
			if b.fw != nil {
				e += landFull(p, b.fw)
			}
		}
		p.Undo(m, u)
		b.cands = append(b.cands, bcand{parent: i, mv: m, eval: e, g: g, h: h})
	}
	return -1
}

// landMoved is what moving the n cards at the end of pile f onto pile t
// changes in landFull(p), row being p's next row: the two piles' tops
// change.
func (b *beamer) landMoved(p *spider.Position, row *[spider.Piles]card.Card, f, t, n int) int32 {
	if p.StockLen() == 0 {
		return 0
	}
	on := func(k int, top card.Card) int32 {
		if row[k]+1 == top {
			return b.fw.land
		}
		return 0
	}
	lf, lt := p.Len(f), p.Len(t)
	d := -on(f, p.Card(f, lf-1)) + on(t, p.Card(f, lf-1))
	if lf > n {
		d += on(f, p.Card(f, lf-n-1))
	}
	if lt > 0 {
		d -= on(t, p.Card(t, lt-1))
	}
	return d
}

// dealt is the candidate of the deal m from the i-th position of the
// beam, in group g. Without a removal after it, the full-information
// evaluation is its parent's with a card on each pile, read without
// dealing, and its hash waits for hashOf.
func (b *beamer) dealt(i int32, m spider.Move, g uint8) bcand {
	p, pe := &b.cur[i], &b.pe[i]
	if b.fw != nil {
		var st [50]card.Card
		row := p.Stock(st[:0])
		var es int32
		for k := range spider.Piles {
			c := row[k]
			if p.Len(k) == 0 {
				// A relaxed deal onto a space.
				if c.Rank() != card.King {
					es -= b.fw.brk
				}
				continue
			}
			es += pe[k]
			switch u := p.Bottom(k); {
			case c+1 == u:
				if c.Rank() == card.Ace && p.Run(k)+1 >= 13 {
					return b.dealtInFull(i, m, g) // a removal follows
				}
			case c.Rank()+1 == u.Rank():
				es -= b.fw.rankBrk
			default:
				es -= b.fw.brk
			}
		}
		e := es + int32(p.NumRemoved())*b.fw.removed - int32(p.StockLen()-spider.Piles)*b.fw.stock
		if b.fw.land != 0 && len(row) > spider.Piles {
			// landFull after the deal: the row dealt is the tops, the
			// row after it lands on them.
			for k := range spider.Piles {
				if row[spider.Piles+k]+1 == row[k] {
					e += b.fw.land
				}
			}
		}
		return bcand{parent: i, mv: m, eval: e, g: g}
	}
	u := p.Do(m)
	for k := range spider.Piles {
		if complete(p, k) {
			p.Undo(m, u)
			return b.dealtInFull(i, m, g)
		}
	}
	var es int32
	for k := range spider.Piles {
		es += b.pile(p, k)
	}
	e := b.eval(p, es)
	p.Undo(m, u)
	return bcand{parent: i, mv: m, eval: e, g: g}
}

// dealtInFull is dealt's candidate evaluated and hashed afresh.
func (b *beamer) dealtInFull(i int32, m spider.Move, g uint8) bcand {
	q := b.cur[i]
	b.step(&q, m)
	return bcand{parent: i, mv: m, eval: b.full(&q), g: g, h: nonzero(hashPos(&q))}
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
