package solver

import (
	"slices"

	"cardtable/spider"
)

// The stage search: from the position after a deal, a best-first search
// over the stage's card moves and removals (local), then the best end
// positions dealt onto in turn (docs/solver.md).

// node is one position of a stage's local search, kept as the move from its
// parent so that memory stays small; positions are rebuilt by walking the
// tree from the current one.
type node struct {
	parent int32
	depth  int32
	eval   int32
	mv     spider.Move
	u      spider.Undo
}

const nodeBytes = 20

// stage searches from p, the position just after a deal (or the root): a
// best-first search over card moves and removals inside the stage, then the
// best end positions are dealt onto and searched in turn. It reports whether
// it found a win (in s.win).
func (s *search) stage(p *spider.Position) bool {
	if !s.roots.add(hashPos(p)) {
		return false
	}
	// A stage costs work beyond the nodes it generates (its arrays, the
	// deal candidates): a node limit charges it as stageCost nodes, so
	// that the limit bounds the time of a search that opens many tiny
	// stages (a small lost position searched pass after pass took
	// seconds within 200 000 nodes). The charge counts against the limit
	// only: the schedule of passes and Result.Nodes stay as they were.
	s.staged += stageCost
	if s.lim.Nodes > 0 && s.nodes+s.staged >= s.lim.Nodes {
		s.halt(NodeLimit)
		return false
	}
	loc := newLocal(s, p)
	defer func() { s.account(-loc.bytes()) }()
	if loc.run() {
		return true
	}
	if s.stop || p.StockLen() == 0 {
		return false
	}
	cands := loc.candidates(s.att.cands)
	base := len(s.path)
	for _, c := range cands {
		if s.stop || s.attNodes > s.att.total {
			s.cut = true
			return false
		}
		loc.goTo(c)
		q := loc.cur
		q.Do(spider.DealMove)
		s.path = append(s.path[:base], loc.pathTo(c)...)
		s.path = append(s.path, spider.DealMove)
		if s.stage(&q) {
			return true
		}
	}
	s.path = s.path[:base]
	return false
}

// local is one stage's best-first search.
type local struct {
	s      *search
	root   spider.Position
	cur    spider.Position
	at     int32 // index of the node cur holds
	nodes  []node
	open   nodeHeap
	buf    [256]spider.Move
	tmp    []int32
	acct   int64
	budget int
}

func newLocal(s *search, p *spider.Position) *local {
	l := &local{}
	l.reset(s, p)
	return l
}

// reset makes l a new local search from p, keeping its arrays.
func (l *local) reset(s *search, p *spider.Position) {
	*l = local{s: s, root: *p, cur: *p, budget: s.att.local, nodes: l.nodes[:0], open: nodeHeap{l.open.idx[:0]}, tmp: l.tmp[:0]}
	if p.StockLen() == 0 {
		l.budget *= finalFactor
	}
	l.nodes = append(l.nodes, node{parent: -1, eval: evaluateW(p, s.att.weightsOf())})
	s.seen.add(hashPos(p))
	l.open.push(0, l.nodes)
}

func (l *local) bytes() int64 {
	return l.acct
}

func (l *local) reaccount() {
	b := int64(cap(l.nodes))*nodeBytes + int64(cap(l.open.idx))*4 + 3*2200
	if b != l.acct {
		l.s.account(b - l.acct)
		l.acct = b
	}
}

// goTo moves cur to node i by undoing up to the common ancestor and doing
// the moves down to i.
func (l *local) goTo(i int32) {
	j := i
	l.tmp = l.tmp[:0]
	for l.nodes[j].depth > l.nodes[l.at].depth {
		l.tmp = append(l.tmp, j)
		j = l.nodes[j].parent
	}
	for l.nodes[l.at].depth > l.nodes[j].depth {
		n := &l.nodes[l.at]
		l.cur.Undo(n.mv, n.u)
		l.at = n.parent
	}
	for l.at != j {
		n := &l.nodes[l.at]
		l.cur.Undo(n.mv, n.u)
		l.at = n.parent
		l.tmp = append(l.tmp, j)
		j = l.nodes[j].parent
	}
	for k := len(l.tmp) - 1; k >= 0; k-- {
		l.cur.Do(l.nodes[l.tmp[k]].mv)
	}
	l.at = i
}

// pathTo lists the moves from the stage root to node i.
func (l *local) pathTo(i int32) []spider.Move {
	var out []spider.Move
	for ; i > 0; i = l.nodes[i].parent {
		out = append(out, l.nodes[i].mv)
	}
	slices.Reverse(out)
	return out
}

// run expands nodes best first until the stage is exhausted, the local
// budget runs out or a win turns up.
func (l *local) run() bool {
	s := l.s
	expanded := 0
	for l.open.len() > 0 {
		if expanded >= l.budget {
			s.cut = true
			return false
		}
		i := l.open.pop(l.nodes)
		l.goTo(i)
		expanded++
		s.attNodes++
		if s.attNodes > s.att.total {
			s.cut = true
			return false
		}
		moves := l.cur.Legal(l.buf[:0])
		// A complete run is removed at once (docs/solver.md).
		for _, m := range moves {
			if m.Kind == spider.Remove {
				moves = append(moves[:0], m)
				break
			}
		}
		// Per-pile hash and evaluation terms: a move changes two piles.
		var terms [spider.Piles]uint64
		var evals [spider.Piles]int32
		var sumT uint64
		var sumE int32
		w := s.att.weightsOf()
		for k := range spider.Piles {
			terms[k], evals[k] = pileTerm(&l.cur, k), pileEvalW(&l.cur, k, w)
			sumT += terms[k]
			sumE += evals[k]
		}
		for _, m := range moves {
			if m.Kind == spider.Deal || l.cur.Null(m) {
				continue
			}
			if s.att.prune && pointless(&l.cur, m) {
				continue
			}
			if !s.tick() {
				return false
			}
			u := l.cur.Do(m)
			f, t := int(m.From), int(m.To)
			hs := sumT - terms[f] + pileTerm(&l.cur, f)
			es := sumE - evals[f] + pileEvalW(&l.cur, f, w)
			if m.Kind == spider.MoveCards {
				hs += pileTerm(&l.cur, t) - terms[t]
				es += pileEvalW(&l.cur, t, w) - evals[t]
			}
			h := mix(hs + hashBase(&l.cur))
			if s.seen.add(h) {
				// FaceDown first: it is cheap, and a won position has none.
				if l.cur.StockLen() == 0 && l.cur.FaceDown() == 0 && l.cur.Won() {
					s.win = append(append(append([]spider.Move(nil), s.path...), l.pathTo(i)...), m)
					return true
				}
				e := es + int32(l.cur.NumRemoved())*w.removed - s.depthPen*(l.nodes[i].depth+1)
				if s.att.noise > 0 {
					e += int32(mix(h^s.att.seed) % uint64(s.att.noise))
				}
				l.nodes = append(l.nodes, node{parent: i, depth: l.nodes[i].depth + 1, eval: e, mv: m, u: u})
				k := int32(len(l.nodes) - 1)
				l.open.push(k, l.nodes)
				if s.keepBest {
					s.noteBest(l, k, &l.cur, e)
				}
			}
			l.cur.Undo(m, u)
		}
		l.reaccount()
		if s.stop {
			return false
		}
	}
	return false
}

// candidates picks up to n nodes to deal from: the best by evaluation after
// the known next row is dealt. Only positions without a space may deal
// (unless the rules are relaxed).
func (l *local) candidates(n int) []int32 {
	var pool []int32
	for i := range l.nodes {
		pool = append(pool, int32(i))
	}
	// Sort by evaluation first to bound the work of dealing.
	slices.SortStableFunc(pool, func(a, b int32) int { return int(l.nodes[b].eval - l.nodes[a].eval) })
	type scored struct {
		i int32
		e int32
	}
	var sc []scored
	var spaced []int32 // the best nodes that may not deal for their spaces
	for _, i := range pool {
		if len(sc) >= 4*n+8 && n < 1<<20 {
			break
		}
		l.goTo(i)
		if l.cur.Spaces() > 0 && !l.cur.Relaxed() {
			if len(spaced) < fillCands {
				spaced = append(spaced, i)
			}
			continue
		}
		q := l.cur
		q.Do(spider.DealMove)
		sc = append(sc, scored{i, l.s.lookahead(&q)})
	}
	// Too few positions may deal: fill the spaces of the best that may not
	// (fillSpaces), so that a stage rich in free cards and spaces still
	// deals. The fill moves become nodes of the stage's tree.
	if len(sc) < n {
		for _, i := range spaced {
			l.goTo(i)
			q := l.cur
			moves, ok := fillSpaces(&q, nil)
			if !ok {
				continue
			}
			for _, m := range moves {
				u := l.cur.Do(m)
				l.nodes = append(l.nodes, node{parent: l.at, depth: l.nodes[l.at].depth + 1, eval: evaluateW(&l.cur, l.s.att.weightsOf()), mv: m, u: u})
				l.at = int32(len(l.nodes) - 1)
			}
			q = l.cur
			q.Do(spider.DealMove)
			sc = append(sc, scored{l.at, l.s.lookahead(&q)})
		}
		l.reaccount()
	}
	if len(sc) < len(pool) && len(sc) > n {
		l.s.cut = true
	}
	slices.SortStableFunc(sc, func(a, b scored) int { return int(b.e - a.e) })
	if len(sc) > n {
		sc = sc[:n]
		l.s.cut = true
	}
	out := make([]int32, len(sc))
	for k, c := range sc {
		out[k] = c.i
	}
	return out
}

// lookahead scores a position just dealt: the best evaluation a short
// best-first search of the new stage reaches (s.att.look expansions),
// so that candidates are judged by what the row dealt onto them allows.
func (s *search) lookahead(q *spider.Position) int32 {
	if s.att.look == 0 {
		return evaluateW(q, s.att.weightsOf())
	}
	// The lookahead's search and arrays are kept for the next candidate:
	// there are many, and allocating each afresh kept the collector busy.
	t := s.la
	if t == nil {
		t = &search{ctx: s.ctx, start: s.start, deadline: s.deadline, laLocal: new(local), depthPen: s.depthPen}
		s.la = t
	}
	t.root, t.nodes, t.stop, t.stopBy, t.live, t.attNodes = *q, 0, false, NoLimit, 0, 0
	t.seen.reset()
	t.att = attempt{local: s.att.look, cands: 1, total: 1 << 62, prune: true, w: s.att.w}
	l := t.laLocal
	l.reset(t, q)
	won := l.run()
	s.nodes += t.nodes
	if won {
		return 1 << 30
	}
	best := l.nodes[0].eval
	for i := range l.nodes {
		best = max(best, l.nodes[i].eval)
	}
	return best
}

// noteBest remembers the line to the most advanced position seen, scored
// by stage and evaluation, for Hint when nothing wins within its budget.
func (s *search) noteBest(l *local, k int32, p *spider.Position, e int32) {
	sc := int64(50-p.StockLen())*dealCredit + int64(e)
	if sc <= s.bestScore {
		return
	}
	s.bestScore = sc
	s.bestLine = append(append(s.bestLine[:0], s.path...), l.pathTo(k)...)
}
