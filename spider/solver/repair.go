package solver

import (
	"container/heap"

	"cardtable/spider"
)

// Line repair (docs/analysis.md, "Line repair"): once a point of a game
// is proven winnable, every position on its winning line is winnable
// too. A later point of the game that can reach one of those positions
// is then winnable as well, with the moves that reach it followed by the
// rest of the line. The player's move often leaves the line usable after
// a few moves (a card put back, a run moved on later anyway), and a
// search guided towards the line finds that in a few hundred nodes where
// the solver, which knows nothing of the line, spent millions and found
// no win.

// trajectory is the positions along a winning line, from its start.
type trajectory struct {
	line []spider.Move     // the winning line from pos[0]
	pos  []spider.Position // pos[i]: after line[:i]
	at   map[uint64]int    // hashPos of pos[i] -> i (the first i)
	keys [][3]int          // stock, face-down, removed of pos[i]
}

// newTrajectory is the trajectory of line from p, or nil when the line
// does not replay as a win from p.
func newTrajectory(p *spider.Position, line []spider.Move) *trajectory {
	if !wins(p, line) {
		return nil
	}
	t := &trajectory{line: line, at: make(map[uint64]int, len(line)+1)}
	q := *p
	for i := 0; ; i++ {
		t.pos = append(t.pos, q)
		t.keys = append(t.keys, [3]int{q.StockLen(), q.FaceDown(), q.NumRemoved()})
		if _, ok := t.at[hashPos(&q)]; !ok {
			t.at[hashPos(&q)] = i
		}
		if i == len(line) {
			return t
		}
		q.Do(line[i])
	}
}

// repairWidth bounds the repair search's open list; the worse half is
// dropped when it is full.
const repairWidth = 2048

// repairTargets bounds the positions of the line a position is measured
// against: the first ones that it could reach with the same stock and
// at most repairFlips more cards turned. A repair that works reaches the
// line within a few moves of its start (measured: steps 2 to 10).
const (
	repairTargets = 48
	repairFlips   = 3
)

// repairDepth bounds the moves a repair adds before the line: a repair
// that works takes a few, and a longer detour would make a long line
// for the searches for a shorter one.
const repairDepth = 24

// repairNode is a position the repair search has generated: parent and
// mv lead to it from its parent (parent -1: the start).
type repairNode struct {
	parent int32
	depth  int32
	mv     spider.Move
}

// repairItem is an open position: its distance, its node and its slot
// in the search's slab of positions.
type repairItem struct {
	h        int
	id, slot int32
}

type repairHeap []repairItem

func (h repairHeap) Len() int { return len(h) }
func (h repairHeap) Less(i, j int) bool {
	if h[i].h != h[j].h {
		return h[i].h < h[j].h
	}
	return h[i].id > h[j].id // newer first: plateaus go depth first
}
func (h repairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *repairHeap) Push(x any)   { *h = append(*h, x.(repairItem)) }
func (h *repairHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// repairSearch is one repair's state: the open positions live in slab,
// and free lists its slots not in use.
type repairSearch struct {
	t    *trajectory
	tree []repairNode
	open repairHeap
	slab []spider.Position
	free []int32
}

func (rs *repairSearch) put(q *spider.Position, h int, id int32) {
	var slot int32
	if n := len(rs.free); n > 0 {
		slot, rs.free = rs.free[n-1], rs.free[:n-1]
		rs.slab[slot] = *q
	} else {
		slot = int32(len(rs.slab))
		rs.slab = append(rs.slab, *q)
	}
	heap.Push(&rs.open, repairItem{h: h, id: id, slot: slot})
}

// line is the moves from the start to node id, then m, then the rest of
// the trajectory's line from its position i.
func (rs *repairSearch) line(id int32, m spider.Move, i int) []spider.Move {
	line := []spider.Move{m}
	for j := id; j > 0; j = rs.tree[j].parent {
		line = append(line, rs.tree[j].mv)
	}
	for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
		line[a], line[b] = line[b], line[a]
	}
	return append(line, rs.t.line[i:]...)
}

// repair searches from p, within nodes nodes, for a position on t: a
// best-first search by the distance to the nearest position of t that p
// could still reach. It returns a winning line from p (the moves that
// reach t, then the rest of t's line) and the nodes it spent, or nil.
func repair(p *spider.Position, t *trajectory, nodes int64) ([]spider.Move, int64) {
	if i, ok := t.at[hashPos(p)]; ok {
		// Replayed as the search's finds are: a hash collision is not
		// the line's position.
		if line := append([]spider.Move(nil), t.line[i:]...); wins(p, line) {
			return line, 0
		}
	}
	d := t.dist(p)
	if d < 0 {
		return nil, 0
	}
	rs := &repairSearch{t: t, tree: []repairNode{{parent: -1}}}
	var seen hashSet
	seen.add(hashPos(p))
	rs.put(p, d, 0)
	var buf [256]spider.Move
	var spent int64
	for rs.open.Len() > 0 && spent < nodes {
		it := heap.Pop(&rs.open).(repairItem)
		cur := rs.slab[it.slot]
		rs.free = append(rs.free, it.slot)
		depth := rs.tree[it.id].depth + 1
		moves := cur.Legal(buf[:0])
		if len(moves) > 0 && moves[0].Kind == spider.Remove {
			// A complete run is removed at once, as the solver does and
			// a game that removes them by itself must: a line that moved
			// past one would not replay there without its removals.
			moves = moves[:1]
		}
		for _, m := range moves {
			if cur.Null(m) {
				continue
			}
			spent++
			q := cur
			q.Do(m)
			h := hashPos(&q)
			if i, ok := t.at[h]; ok {
				if line := rs.line(it.id, m, i); wins(p, line) {
					return line, spent
				}
				continue // a hash collision: not the line's position
			}
			if !seen.add(h) {
				continue
			}
			d := t.dist(&q)
			if d < 0 || depth >= repairDepth {
				continue // it can reach no position of t near its start
			}
			rs.tree = append(rs.tree, repairNode{parent: it.id, depth: depth, mv: m})
			rs.put(&q, d, int32(len(rs.tree)-1))
		}
		if rs.open.Len() > repairWidth {
			rs.keepBest(repairWidth / 2)
		}
	}
	return nil, spent
}

// keepBest cuts the open list to its n best items.
func (rs *repairSearch) keepBest(n int) {
	kept := make(repairHeap, 0, n)
	for len(kept) < n && rs.open.Len() > 0 {
		kept = append(kept, heap.Pop(&rs.open).(repairItem))
	}
	for _, it := range rs.open {
		rs.free = append(rs.free, it.slot)
	}
	rs.open = kept
	heap.Init(&rs.open)
}

// dist is the distance from q to the nearest of the first repairTargets
// positions of t that q could reach with the same stock and at most
// repairFlips more cards turned, or -1 when there is none: for each
// pile, the cards past the part the two positions share.
func (t *trajectory) dist(q *spider.Position) int {
	s, d, r := q.StockLen(), q.FaceDown(), q.NumRemoved()
	best, n := -1, 0
	for i := range t.pos {
		k := t.keys[i]
		if k[0] != s || k[1] > d || k[1] < d-repairFlips || k[2] < r {
			continue
		}
		if x := pileDist(q, &t.pos[i]); best < 0 || x < best {
			best = x
		}
		if n++; n == repairTargets {
			break
		}
	}
	return best
}

// pileDist counts, pile by pile, the cards of q and of u past the
// longest start the two piles share (the same cards, face down alike).
func pileDist(q, u *spider.Position) int {
	n := 0
	for k := range spider.Piles {
		a, b := q.Len(k), u.Len(k)
		i := 0
		for i < a && i < b && q.Card(k, i) == u.Card(k, i) && (i < q.Down(k)) == (i < u.Down(k)) {
			i++
		}
		n += a - i + b - i
	}
	return n
}
