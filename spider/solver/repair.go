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
const repairWidth = 4096

// repairNode is a position the repair search has generated: parent and
// mv lead to it from its parent (parent -1: the start).
type repairNode struct {
	parent int32
	mv     spider.Move
}

type repairItem struct {
	p  spider.Position
	h  int
	id int32
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

// repair searches from p, within nodes nodes, for a position on t: a
// best-first search by the distance to the nearest position of t that p
// could still reach. It returns a winning line from p (the moves that
// reach t, then the rest of t's line) and the nodes it spent, or nil.
func repair(p *spider.Position, t *trajectory, nodes int64) ([]spider.Move, int64) {
	if i, ok := t.at[hashPos(p)]; ok {
		return append([]spider.Move(nil), t.line[i:]...), 0
	}
	var seen hashSet
	seen.add(hashPos(p))
	tree := []repairNode{{parent: -1}}
	open := &repairHeap{{p: *p, h: t.dist(p), id: 0}}
	var buf [256]spider.Move
	var spent int64
	for open.Len() > 0 && spent < nodes {
		cur := heap.Pop(open).(repairItem)
		for _, m := range cur.p.Legal(buf[:0]) {
			if cur.p.Null(m) {
				continue
			}
			spent++
			q := cur.p
			q.Do(m)
			h := hashPos(&q)
			if i, ok := t.at[h]; ok {
				line := []spider.Move{m}
				for j := cur.id; j > 0; j = tree[j].parent {
					line = append(line, tree[j].mv)
				}
				for a, b := 0, len(line)-1; a < b; a, b = a+1, b-1 {
					line[a], line[b] = line[b], line[a]
				}
				line = append(line, t.line[i:]...)
				if !wins(p, line) {
					// A hash collision: the position is not the line's.
					continue
				}
				return line, spent
			}
			if !seen.add(h) {
				continue
			}
			d := t.dist(&q)
			if d < 0 {
				continue // it can reach no position of t
			}
			tree = append(tree, repairNode{parent: cur.id, mv: m})
			heap.Push(open, repairItem{p: q, h: d, id: int32(len(tree) - 1)})
		}
		if open.Len() > repairWidth {
			keepBest(open, repairWidth/2)
		}
	}
	return nil, spent
}

// keepBest cuts h to its n best items.
func keepBest(h *repairHeap, n int) {
	kept := make(repairHeap, 0, n)
	for len(kept) < n && h.Len() > 0 {
		kept = append(kept, heap.Pop(h).(repairItem))
	}
	*h = kept
	heap.Init(h)
}

// dist is the distance from q to the nearest position of t that q could
// still reach (one with no more stock, face-down cards or fewer suits
// removed), or -1 when there is none: for each pile, the cards past the
// part the two positions share.
func (t *trajectory) dist(q *spider.Position) int {
	s, d, r := q.StockLen(), q.FaceDown(), q.NumRemoved()
	best := -1
	for i := range t.pos {
		k := t.keys[i]
		if k[0] > s || k[1] > d || k[2] < r {
			continue
		}
		if x := pileDist(q, &t.pos[i]); best < 0 || x < best {
			best = x
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
