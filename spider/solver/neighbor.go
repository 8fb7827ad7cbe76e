package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// Shortcuts through the neighbourhood of a winning line (docs/solver.md,
// "Shorter lines", 7), after plan neighbourhood graph search (Nakhost and
// Müller, 2010). Every position of the line is the root of a small search:
// every move from it, every move from those, to depth d. All the positions
// met go into one graph, one node per position, with an edge for every move
// made; the line's own steps are edges too. A shortest path in that graph
// from the line's start to the won position is a line at most as long as
// the one it came from, and shorter wherever a few moves from one position
// of the line reach a position the line meets only later: a detour that
// cutting single moves (cutLine) cannot remove, such as two moves that one
// does, or a deal that can come sooner.
//
// A step is a card move or a deal and the removals it allows, made at once
// as in the search. Every winning line from a position removes the same
// suits and deals the same rows, so the fewest steps is the fewest card
// moves, and the fewest moves in both of the counts of docs/solver.md.
//
// A node is keyed by hashPos, which ignores the order of the piles once
// the stock is empty: there the rules treat every pile alike, so two
// positions that differ only by that order have the same futures, with the
// piles renamed. The graph keeps no move, only which node leads to which:
// the line is rebuilt from the concrete start by finding, at each node of
// the path, the legal move whose result has the next node's key. That
// renames the piles where needed, and the line is then replayed with the
// engine's checked moves.

// Knobs of the pass, variables so that experiments can vary them.
var (
	// nbDepth is the deepest neighbourhood searched: depth 1 around every
	// position of the line first, then 2, and so on while the budget
	// lasts; the line is spliced after each depth.
	nbDepth = 3
	// nbRoot bounds the positions one root's search may generate at one
	// depth, so that a few positions with many moves cannot take the
	// budget of the rest of the line.
	nbRoot = 20_000
)

var nbCut = true

var nbTrace func(d, gen int, old, new []spider.Move)

// nedge is an edge of the graph: a step from node from leads to node to.
type nedge struct{ from, to int32 }

// nbGraph is the neighbourhood graph of a line and the search that grows
// it.
type nbGraph struct {
	ctx      context.Context
	deadline time.Time // zero: none
	index    hashIndex // node of each key
	keys     []uint64  // key of each node
	rem      []int8    // depth each node was searched to from it, -1 none
	edges    []nedge
	won      int32 // the won node, or -1
	limit    int   // positions the pass may generate
	gen      int   // positions generated
	rootEnd  int   // gen at which the current root's search stops
	stopped  bool  // the context or deadline ended the pass
	bufs     [][256]spider.Move
}

// neighbors returns a line from p at most as long as line (a winning line
// from p), shortened through its neighbourhood graph, and the positions
// generated, at most limit. The result replays as a win.
func neighbors(ctx context.Context, deadline time.Time, p *spider.Position, line []spider.Move, limit int) ([]spider.Move, int64) {
	g := &nbGraph{ctx: ctx, deadline: deadline, limit: limit, won: -1}
	g.bufs = make([][256]spider.Move, nbDepth+1)
	for d := 1; d <= nbDepth && !g.spent(); d++ {
		for !g.spent() {
			cand, ok := g.round(p, line, d)
			if ok && nbCut {
				cand = cutLine(p, cand)
			}
			if !ok || len(cand) >= len(line) || !wins(p, cand) {
				break
			}
			if nbTrace != nil {
				nbTrace(d, g.gen, line, cand)
			}
			line = cand
			// The new line's positions are in the graph already;
			// searched to depth d around them, they may open more.
		}
	}
	return line, int64(g.gen)
}

// spent reports whether the pass must stop: its budget is spent, or the
// context or deadline ended it.
func (g *nbGraph) spent() bool {
	return g.gen >= g.limit || g.stopped
}

// round searches to depth d around every position of line (a winning line
// from p) and returns the shortest line through the graph, if it has one.
func (g *nbGraph) round(p *spider.Position, line []spider.Move, d int) ([]spider.Move, bool) {
	q := *p
	var out []spider.Move
	// Runs complete at the start are removed first, as in the line.
	i := 0
	for i < len(line) && line[i].Kind == spider.Remove {
		q.Do(line[i])
		out = append(out, line[i])
		i++
	}
	start := q
	prev := g.node(hashPos(&q))
	roots := []int32{prev}
	rootPos := []spider.Position{q}
	for i < len(line) {
		q.Do(line[i])
		i++
		for i < len(line) && line[i].Kind == spider.Remove {
			q.Do(line[i])
			i++
		}
		x := g.node(hashPos(&q))
		g.edges = append(g.edges, nedge{prev, x})
		if q.Won() {
			g.won = x
		}
		roots = append(roots, x)
		rootPos = append(rootPos, q)
		prev = x
	}
	for k := range roots {
		if g.spent() {
			break
		}
		g.rootEnd = min(g.gen+nbRoot, g.limit)
		g.expand(&rootPos[k], roots[k], d)
	}
	path := g.shortest(roots[0])
	if path == nil {
		return nil, false
	}
	return rebuild(&start, path, g.keys, out)
}

// node returns the node of key, adding it if new.
func (g *nbGraph) node(key uint64) int32 {
	x, ok := g.index.get(key)
	if !ok {
		x = int32(len(g.keys))
		g.keys = append(g.keys, key)
		g.rem = append(g.rem, -1)
		g.index.put(key, x)
	}
	return x
}

// expand searches r steps deep from q, whose node is x: depth first, each
// node again only when it is reached with more depth left than before.
// The first search of a node adds its edges. It makes its moves on q and
// takes them back, so q is as it was when it returns.
func (g *nbGraph) expand(q *spider.Position, x int32, r int) {
	if int(g.rem[x]) >= r || g.gen >= g.rootEnd || g.stopped {
		return
	}
	first := g.rem[x] < 0
	g.rem[x] = int8(r)
	// The key is a sum of pile terms: a card move changes two of them.
	var terms [spider.Piles]uint64
	var sum uint64
	for k := range spider.Piles {
		terms[k] = pileTerm(q, k)
		sum += terms[k]
	}
	for _, m := range q.Legal(g.bufs[r][:0]) {
		if m.Kind == spider.Remove || q.Null(m) || pointless(q, m) {
			continue
		}
		if g.gen >= g.rootEnd {
			return
		}
		g.gen++
		if g.gen%1024 == 0 && (g.ctx != nil && g.ctx.Err() != nil || !g.deadline.IsZero() && time.Now().After(g.deadline)) {
			g.stopped = true
			return
		}
		if m.Kind == spider.Deal {
			c := *q
			stepRemove(&c, m, nil)
			g.child(&c, x, hashPos(&c), first, r)
			continue
		}
		f, t := int(m.From), int(m.To)
		u := q.Do(m)
		if complete(q, f) || complete(q, t) {
			// Rare: a run is removed after the move.
			q.Undo(m, u)
			c := *q
			stepRemove(&c, m, nil)
			g.child(&c, x, hashPos(&c), first, r)
			continue
		}
		key := mix(sum - terms[f] - terms[t] + pileTerm(q, f) + pileTerm(q, t) + hashBase(q))
		g.child(q, x, key, first, r)
		q.Undo(m, u)
	}
}

// child notes the step from node x to c, whose key is key, and searches
// on from c with r-1 steps left.
func (g *nbGraph) child(c *spider.Position, x int32, key uint64, first bool, r int) {
	y := g.node(key)
	if first {
		g.edges = append(g.edges, nedge{x, y})
	}
	if c.StockLen() == 0 && c.NumRemoved()*13 == 104 {
		g.won = y
		return
	}
	if r > 1 {
		g.expand(c, y, r-1)
	}
}

// stepRemove makes m on q and removes every complete run it forms (where
// a card move lands or leaves, anywhere after a deal), appending the
// removals to out when out is not nil.
func stepRemove(q *spider.Position, m spider.Move, out *[]spider.Move) {
	q.Do(m)
	for k := range spider.Piles {
		if m.Kind == spider.MoveCards && k != int(m.To) && k != int(m.From) {
			continue
		}
		if complete(q, k) {
			r := spider.RemoveFrom(k)
			q.Do(r)
			if out != nil {
				*out = append(*out, r)
			}
		}
	}
}

// shortest is a shortest path in the graph from node s to the won node,
// as the list of its nodes, or nil if the graph has none.
func (g *nbGraph) shortest(s int32) []int32 {
	if g.won < 0 {
		return nil
	}
	n := len(g.keys)
	// The edges by node, in the order added (so that the path is the
	// same on every run).
	first := make([]int32, n+1)
	for _, e := range g.edges {
		first[e.from+1]++
	}
	for i := range n {
		first[i+1] += first[i]
	}
	to := make([]int32, len(g.edges))
	fill := make([]int32, n)
	copy(fill, first[:n])
	for _, e := range g.edges {
		to[fill[e.from]] = e.to
		fill[e.from]++
	}
	parent := fill // reused: the node each was first reached from
	for i := range parent {
		parent[i] = -1
	}
	parent[s] = s
	queue := []int32{s}
	for len(queue) > 0 && parent[g.won] < 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range to[first[x]:first[x+1]] {
			if parent[y] < 0 {
				parent[y] = x
				queue = append(queue, y)
			}
		}
	}
	if parent[g.won] < 0 {
		return nil
	}
	var path []int32
	for x := g.won; x != s; x = parent[x] {
		path = append(path, x)
	}
	path = append(path, s)
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return path
}

// rebuild turns a path of nodes from start into moves, appended to out:
// at each node the legal move (a card move or the deal, with the removals
// it allows) whose result has the next node's key. It reports false if
// some node has no such move (a hash collision).
func rebuild(start *spider.Position, path []int32, keys []uint64, out []spider.Move) ([]spider.Move, bool) {
	q := *start
	var buf [256]spider.Move
	for _, y := range path[1:] {
		found := false
		for _, m := range q.Legal(buf[:0]) {
			if m.Kind == spider.Remove {
				continue
			}
			c := q
			stepRemove(&c, m, nil)
			if hashPos(&c) == keys[y] {
				out = append(out, m)
				stepRemove(&q, m, &out)
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return out, q.Won()
}

// hashIndex maps nonzero 64-bit keys to node numbers (open addressing).
type hashIndex struct {
	keys []uint64
	vals []int32
	n    int
}

func (h *hashIndex) get(k uint64) (int32, bool) {
	if k == 0 {
		k = 1
	}
	if len(h.keys) == 0 {
		return 0, false
	}
	m := uint64(len(h.keys) - 1)
	for i := k & m; ; i = (i + 1) & m {
		switch h.keys[i] {
		case k:
			return h.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// put adds k, which must not be in the index yet.
func (h *hashIndex) put(k uint64, v int32) {
	if k == 0 {
		k = 1
	}
	if 4*(h.n+1) > 3*len(h.keys) {
		h.grow()
	}
	m := uint64(len(h.keys) - 1)
	i := k & m
	for h.keys[i] != 0 {
		i = (i + 1) & m
	}
	h.keys[i], h.vals[i] = k, v
	h.n++
}

func (h *hashIndex) grow() {
	oldK, oldV := h.keys, h.vals
	n := 2 * len(oldK)
	if n == 0 {
		n = 1 << 12
	}
	h.keys, h.vals = make([]uint64, n), make([]int32, n)
	m := uint64(n - 1)
	for j, k := range oldK {
		if k == 0 {
			continue
		}
		i := k & m
		for h.keys[i] != 0 {
			i = (i + 1) & m
		}
		h.keys[i], h.vals[i] = k, oldV[j]
	}
}
