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
	// nbEndDepth is how much deeper the positions after the last deal
	// are searched: there the graph has one node for positions that
	// differ only by the order of their piles, and most shortcuts found
	// are there (measured, docs/solver.md).
	nbEndDepth = 1
	// nbRoot bounds the positions one root's search may generate at one
	// depth, so that a few positions with many moves cannot take the
	// budget of the rest of the line.
	nbRoot = 20_000
)

// wonKey is the key of every won position, whether its last run was
// removed or not (a position's hash is never taken as it: a chance of one
// in 2⁶⁴).
const wonKey = 0x5eed_0f_a11_5017e5

// nedge is an edge of the graph: a step from node from leads to node to.
type nedge struct{ from, to int32 }

// nbGraph is the neighbourhood graph of a line and the search that grows
// it.
type nbGraph struct {
	ctx      context.Context
	deadline time.Time // zero: none
	slots    []int32   // index of the nodes by key (node)
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
// generated, at most limit. The result replays as a win. It is
// deterministic, except where ctx or the deadline cut it short.
func neighbors(ctx context.Context, deadline time.Time, p *spider.Position, line []spider.Move, limit int) ([]spider.Move, int64) {
	if !wins(p, line) {
		return line, 0
	}
	g := &nbGraph{ctx: ctx, deadline: deadline, limit: limit, won: -1}
	g.bufs = make([][256]spider.Move, nbDepth+nbEndDepth+1)
	for d := 1; d <= nbDepth && !g.spent(); d++ {
		for !g.spent() {
			cand, ok := g.round(p, line, d)
			if !ok {
				break
			}
			// The path may leave out what cutting cannot, and open cuts
			// of its own.
			cand = cutLine(p, cand)
			if len(cand) >= len(line) || !wins(p, cand) {
				break
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

// nbLine is a line's part of the graph: its positions and their nodes.
type nbLine struct {
	prefix []spider.Move // the removals the line starts with
	pos    []spider.Position
	nodes  []int32
}

// addLine adds the positions of line, a winning line from p, and its
// steps to the graph.
func (g *nbGraph) addLine(p *spider.Position, line []spider.Move) nbLine {
	q := *p
	var l nbLine
	// Runs complete at the start are removed first, as in the line.
	i := 0
	for i < len(line) && line[i].Kind == spider.Remove {
		q.Do(line[i])
		l.prefix = append(l.prefix, line[i])
		i++
	}
	prev := g.node(hashPos(&q))
	l.nodes = append(l.nodes, prev)
	l.pos = append(l.pos, q)
	for i < len(line) {
		q.Do(line[i])
		i++
		for i < len(line) && line[i].Kind == spider.Remove {
			q.Do(line[i])
			i++
		}
		x := g.node(hashPos(&q))
		if q.Won() {
			// With the last run standing or removed: one node.
			x = g.node(wonKey)
			g.won = x
		}
		g.edges = append(g.edges, nedge{prev, x})
		l.nodes = append(l.nodes, x)
		l.pos = append(l.pos, q)
		prev = x
	}
	return l
}

// round searches to depth d around every position of line (a winning
// line from p), nbEndDepth more after the last deal, and returns the
// shortest line through the graph, if it has one.
func (g *nbGraph) round(p *spider.Position, line []spider.Move, d int) ([]spider.Move, bool) {
	l := g.addLine(p, line)
	for k := range l.nodes {
		if g.spent() {
			break
		}
		if l.pos[k].Won() {
			break // nothing to search past a win
		}
		g.rootEnd = min(g.gen+nbRoot, g.limit)
		r := d
		if l.pos[k].StockLen() == 0 {
			r += nbEndDepth
		}
		g.expand(&l.pos[k], l.nodes[k], r)
	}
	path := g.shortest(l.nodes[0])
	if path == nil {
		return nil, false
	}
	keepLast := len(line) > 0 && line[len(line)-1].Kind == spider.Remove
	return rebuild(&l.pos[0], path, g.keys, l.prefix, keepLast)
}

// expand searches r steps deep from q, whose node is x: depth first, each
// node again only when it is reached with more depth left than before.
// The first search of a node adds its edges (where a root's cap cut that
// search short, the edges found so far). It makes its moves on q and
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
		if m.Kind == spider.Remove || q.Null(m) || laterSpace(q, m) {
			continue
		}
		if g.gen >= g.rootEnd || g.stopped {
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
		g.child(q, x, movedKey(q, &terms, sum, f, t), first, r)
		q.Undo(m, u)
	}
}

// movedKey is hashPos(q) after a card move from pile f to pile t, given
// the pile terms before it and their sum (TestNeighborsMovedKey).
func movedKey(q *spider.Position, terms *[spider.Piles]uint64, sum uint64, f, t int) uint64 {
	return mix(sum - terms[f] - terms[t] + pileTerm(q, f) + pileTerm(q, t) + hashBase(q))
}

// child notes the step from node x to c, whose key is key, and searches
// on from c with r-1 steps left.
func (g *nbGraph) child(c *spider.Position, x int32, key uint64, first bool, r int) {
	won := c.StockLen() == 0 && c.NumRemoved()*13 == 104
	if won {
		key = wonKey
	}
	y := g.node(key)
	if first {
		g.edges = append(g.edges, nedge{x, y})
	}
	if won {
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
// it allows) whose result has the next node's key; the last node is the
// won one. The removals after the winning move are made only if keepLast
// (as in the line it replaces: the game is won with the last run standing
// too). It reports false if some node has no such move (a hash
// collision).
func rebuild(start *spider.Position, path []int32, keys []uint64, out []spider.Move, keepLast bool) ([]spider.Move, bool) {
	q := *start
	var buf [256]spider.Move
	for i, y := range path[1:] {
		last := i == len(path)-2
		found := false
		for _, m := range q.Legal(buf[:0]) {
			if m.Kind == spider.Remove {
				continue
			}
			c := q
			stepRemove(&c, m, nil)
			if last && c.StockLen() == 0 && c.NumRemoved()*13 == 104 || !last && hashPos(&c) == keys[y] {
				out = append(out, m)
				if last && !keepLast {
					q.Do(m)
				} else {
					stepRemove(&q, m, &out)
				}
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

// node returns the node of key, adding it if new. The index is open
// addressing over node numbers (plus one: zero is an empty slot), the
// keys themselves being in g.keys: 4 bytes a slot.
func (g *nbGraph) node(key uint64) int32 {
	if 4*(len(g.keys)+1) > 3*len(g.slots) {
		g.grow()
	}
	m := uint64(len(g.slots) - 1)
	i := key & m
	for ; g.slots[i] != 0; i = (i + 1) & m {
		if x := g.slots[i] - 1; g.keys[x] == key {
			return x
		}
	}
	x := int32(len(g.keys))
	g.keys = append(g.keys, key)
	g.rem = append(g.rem, -1)
	g.slots[i] = x + 1
	return x
}

// grow doubles the index.
func (g *nbGraph) grow() {
	n := max(2*len(g.slots), 1<<12)
	g.slots = make([]int32, n)
	m := uint64(n - 1)
	for x, key := range g.keys {
		i := key & m
		for g.slots[i] != 0 {
			i = (i + 1) & m
		}
		g.slots[i] = int32(x) + 1
	}
}

// laterSpace reports whether m moves cards into a space when an earlier
// pile is a space too and the stock is empty: then the two moves lead to
// positions that differ only by the order of the piles, one node.
func laterSpace(q *spider.Position, m spider.Move) bool {
	if m.Kind != spider.MoveCards || q.StockLen() > 0 || q.Len(int(m.To)) > 0 {
		return false
	}
	for k := range int(m.To) {
		if q.Len(k) == 0 && k != int(m.From) {
			return true
		}
	}
	return false
}
