package solver

import (
	"cardtable/card"
	"cardtable/spider"
)

// Re-searching the last stage for a shorter win (docs/solver.md, "Shorter
// lines"). After the last deal every card is in play and the line only
// has to win, so that stage can be searched afresh without changing the
// rest. The search found its win best first, by evaluation alone; endgame
// searches that wander are long (a hundred card moves at 4 suits where
// seventy do). lastStage searches it again with a weighted A* search
// whose estimate never exceeds the card moves still needed: the cards
// other than kings that do not lie on the next-higher card of their suit,
// face-down ones included (every card is known). A card move changes what
// one card lies on, the card heading the run it moves, so it settles at
// most one of them. Every path kept is shorter than the one it replaces.

// floor stands for "no card" under a card at the foot of its pile.
const floor = 64

// anode is one position of a stage search: the card move from its parent
// and, when that completed a run, the removal that followed at once.
type anode struct {
	parent int32
	g      int16 // card moves from the stage's start
	mv     spider.Move
	u      spider.Undo
	rm     int8 // pile of the removal after mv, or -1
	ru     spider.Undo
}

type aentry struct {
	f, h int32
	i    int32
}

// stager searches one stage; it is reused from stage to stage.
type stager struct {
	cur   spider.Position
	at    int32
	nodes []anode
	open  []aentry
	seen  gmap
	tmp   []int32
	buf   [256]spider.Move
	h     int32 // the estimate for cur
	gen   int   // positions generated
}

// under is the card under the j-th card of pile k, or floor.
func under(p *spider.Position, k, j int) int {
	if j == 0 {
		return floor
	}
	return int(p.Card(k, j-1))
}

// bad reports whether card c on u is a pair a win must undo: c is no
// king and u is not the next-higher card of its suit.
func bad(c card.Card, u int) bool {
	return c.Rank() != card.King && u != int(c)+1
}

// drop and add keep h as card c leaves u and comes onto u.
func (s *stager) drop(c card.Card, u int) {
	if bad(c, u) {
		s.h--
	}
}

func (s *stager) add(c card.Card, u int) {
	if bad(c, u) {
		s.h++
	}
}

// start makes s a search from p.
func (s *stager) start(p *spider.Position) {
	s.cur, s.at, s.h, s.gen = *p, 0, 0, 0
	s.nodes = append(s.nodes[:0], anode{parent: -1, rm: -1})
	s.open = s.open[:0]
	s.seen.reset()
	for k := range spider.Piles {
		for j := range p.Len(k) {
			s.add(p.Card(k, j), under(p, k, j))
		}
	}
}

// do makes card move m on cur, and the removal it allows, keeping h.
func (s *stager) do(m spider.Move) (u spider.Undo, rm int8, ru spider.Undo) {
	f, t, n := int(m.From), int(m.To), int(m.Count)
	j := s.cur.Len(f) - n
	c := s.cur.Card(f, j)
	s.drop(c, under(&s.cur, f, j))
	s.add(c, under(&s.cur, t, s.cur.Len(t)))
	u = s.cur.Do(m)
	rm = -1
	for _, k := range [2]int{t, f} {
		if !complete(&s.cur, k) {
			continue
		}
		r := spider.RemoveFrom(k)
		n := s.cur.Len(k)
		for j := n - 13; j < n; j++ {
			s.drop(s.cur.Card(k, j), under(&s.cur, k, j))
		}
		rm, ru = int8(k), s.cur.Do(r)
		break
	}
	return u, rm, ru
}

// undo reverses do.
func (s *stager) undo(m spider.Move, u spider.Undo, rm int8, ru spider.Undo) {
	if rm >= 0 {
		s.cur.Undo(spider.RemoveFrom(int(rm)), ru)
		k := int(rm)
		n := s.cur.Len(k)
		for j := n - 13; j < n; j++ {
			s.add(s.cur.Card(k, j), under(&s.cur, k, j))
		}
	}
	s.cur.Undo(m, u)
	f, t, n := int(m.From), int(m.To), int(m.Count)
	j := s.cur.Len(f) - n
	c := s.cur.Card(f, j)
	s.drop(c, under(&s.cur, t, s.cur.Len(t)))
	s.add(c, under(&s.cur, f, j))
}

// goTo moves cur to node i: undo up to the common ancestor, redo down.
func (s *stager) goTo(i int32) {
	s.tmp = s.tmp[:0]
	j := i
	for s.nodes[j].g > s.nodes[s.at].g {
		s.tmp = append(s.tmp, j)
		j = s.nodes[j].parent
	}
	for s.nodes[s.at].g > s.nodes[j].g {
		n := &s.nodes[s.at]
		s.undo(n.mv, n.u, n.rm, n.ru)
		s.at = n.parent
	}
	for s.at != j {
		n := &s.nodes[s.at]
		s.undo(n.mv, n.u, n.rm, n.ru)
		s.at = n.parent
		s.tmp = append(s.tmp, j)
		j = s.nodes[j].parent
	}
	for k := len(s.tmp) - 1; k >= 0; k-- {
		s.do(s.nodes[s.tmp[k]].mv)
	}
	s.at = i
}

// search looks for a win from p in fewer than bound card moves,
// generating at most limit positions. It returns the line, removals
// included, and whether it found one.
func (s *stager) search(p *spider.Position, bound, limit int) ([]spider.Move, bool) {
	s.start(p)
	if int(s.h) >= bound {
		return nil, false
	}
	s.push(0, s.h)
	for len(s.open) > 0 && s.gen < limit {
		i := s.pop().i
		g := s.nodes[i].g
		s.goTo(i)
		if s.h == 0 && s.cur.FaceDown() == 0 && s.cur.Won() {
			return s.path(i), true
		}
		// A move settles at most one card: a child needs g+1 moves and
		// h-1 more at least, and must stay under bound.
		if int(g)+int(s.h) >= bound || int(g)+1 >= bound {
			continue
		}
		// A child's hash is its parent's with the terms of the two piles
		// its move changes (a removal is from one of them).
		var terms [spider.Piles]uint64
		var sum uint64
		for k := range spider.Piles {
			terms[k] = pileTerm(&s.cur, k)
			sum += terms[k]
		}
		for _, m := range searchMoves(&s.cur, s.buf[:0]) {
			if m.Kind != spider.MoveCards {
				continue // the stock is empty: never
			}
			s.gen++
			u, rm, ru := s.do(m)
			if h := s.h; int(g)+1+int(h) < bound {
				// The stock is empty: the hash ignores the piles' order.
				f, t := int(m.From), int(m.To)
				key := mix(sum - terms[f] + pileTerm(&s.cur, f) + pileTerm(&s.cur, t) - terms[t] + hashBase(&s.cur))
				if old, ok := s.seen.get(key); !ok || old > g+1 {
					s.seen.set(key, g+1)
					s.nodes = append(s.nodes, anode{parent: i, g: g + 1, mv: m, u: u, rm: rm, ru: ru})
					s.push(int32(len(s.nodes)-1), h)
				}
			}
			s.undo(m, u, rm, ru)
		}
	}
	return nil, false
}

// path lists the moves from the start to node i, removals included.
func (s *stager) path(i int32) []spider.Move {
	var out []spider.Move
	for ; i > 0; i = s.nodes[i].parent {
		n := &s.nodes[i]
		if n.rm >= 0 {
			out = append(out, spider.RemoveFrom(int(n.rm)))
		}
		out = append(out, n.mv)
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// astarWeight weighs the estimate against the moves made (f = g + w·h):
// above 1 the search finds a path sooner, not always the shortest. A
// variable so that measurements can search with 1 (measure_test.go).
var astarWeight int32 = 2

func (s *stager) push(i int32, h int32) {
	e := aentry{f: int32(s.nodes[i].g) + astarWeight*h, h: h, i: i}
	s.open = append(s.open, e)
	j := len(s.open) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !aless(s.open[j], s.open[p]) {
			break
		}
		s.open[j], s.open[p] = s.open[p], s.open[j]
		j = p
	}
}

// aless orders the open list: lower f, then lower h, then newer.
func aless(a, b aentry) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.h != b.h {
		return a.h < b.h
	}
	return a.i > b.i
}

func (s *stager) pop() aentry {
	top := s.open[0]
	last := len(s.open) - 1
	s.open[0] = s.open[last]
	s.open = s.open[:last]
	j := 0
	for {
		l := 2*j + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && aless(s.open[r], s.open[l]) {
			c = r
		}
		if !aless(s.open[c], s.open[j]) {
			break
		}
		s.open[j], s.open[c] = s.open[c], s.open[j]
		j = c
	}
	return top
}

// lastStage returns the winning line from p with its last stage (the moves
// after its last deal) replaced by a shorter win, if a search of at most
// limit positions finds one.
func lastStage(p *spider.Position, moves []spider.Move, limit int) []spider.Move {
	i := len(moves)
	for i > 0 && moves[i-1].Kind != spider.Deal {
		i--
	}
	// The removals right after the deal stay: the search starts after
	// them.
	for i < len(moves) && moves[i].Kind == spider.Remove {
		i++
	}
	cardMoves := 0
	for _, m := range moves[i:] {
		if m.Kind == spider.MoveCards {
			cardMoves++
		}
	}
	q := *p
	for _, m := range moves[:i] {
		q.Do(m)
	}
	var s stager
	better, ok := s.search(&q, cardMoves, limit)
	if !ok {
		return moves
	}
	return append(moves[:i:i], better...)
}

// gmap maps the hashes of the positions a stage search met to the fewest
// card moves it reached them in: a map[uint64]int16 with open addressing,
// which the search's many look-ups read faster.
type gmap struct {
	keys  []uint64 // 0: empty
	vals  []int16
	n     int
	zero  bool // whether key 0 is in the map, with value zeroV
	zeroV int16
}

func (m *gmap) reset() {
	clear(m.keys)
	m.n, m.zero = 0, false
}

func (m *gmap) get(key uint64) (int16, bool) {
	if key == 0 {
		return m.zeroV, m.zero
	}
	if len(m.keys) == 0 {
		return 0, false
	}
	mask := uint64(len(m.keys) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case key:
			return m.vals[i], true
		case 0:
			return 0, false
		}
	}
}

func (m *gmap) set(key uint64, v int16) {
	if key == 0 {
		m.zero, m.zeroV = true, v
		return
	}
	if 4*(m.n+1) > 3*len(m.keys) {
		m.grow()
	}
	mask := uint64(len(m.keys) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case key:
			m.vals[i] = v
			return
		case 0:
			m.keys[i], m.vals[i] = key, v
			m.n++
			return
		}
	}
}

func (m *gmap) grow() {
	keys, vals := m.keys, m.vals
	n := max(2*len(keys), 1<<12)
	m.keys, m.vals, m.n = make([]uint64, n), make([]int16, n), 0
	for i, k := range keys {
		if k != 0 {
			m.set(k, vals[i])
		}
	}
}
