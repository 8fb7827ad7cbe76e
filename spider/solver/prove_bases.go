package solver

import (
	"cardtable/card"
	"cardtable/spider"
)

// The base proof: a loss proof that covers every arrangement of a
// position's loose face-up cards at once (docs/analysis.md, "The base
// proof"). With the stock dealt, a card move only ever puts a run on a
// card one rank higher or on an empty pile, and no card is turned back
// down. So each pile splits into its base, which only moves can shrink
// that cannot be taken back (its face-down cards and its face-up cards up
// to the last one that does not sit on a card one rank higher), and
// loose cards above it, each on a card one rank higher or on the floor
// of a pile whose base is empty. The base proof forgets where the loose
// cards are and keeps only which: a state is the bases, the multiset of
// loose cards and the suits removed. It takes every arrangement of the
// loose cards as possible that has room on the piles (each card one rank
// higher holds one card, each empty base one), and it follows only the
// moves that change the state: a base's top card leaving (alone or under
// a run of its suit) for a bare card one rank higher or an empty floor,
// and a suit removed. Every real move either keeps a position's state or
// is one of those, so a state none of whose moves leads to a win is a
// state whose every position is lost. The states are few (tens to
// hundreds for a position with 25 cards face down) where the positions
// are millions.

// baseState is a state of the base proof.
type baseState struct {
	base    [spider.Piles][]card.Card
	down    [spider.Piles]int
	loose   [card.King + 1][4]int // by rank and suit
	removed int
}

// baseOf is the state of p, whose stock is dealt.
func baseOf(p *spider.Position) *baseState {
	s := &baseState{removed: p.NumRemoved()}
	for k := range spider.Piles {
		s.base[k] = p.Cards(nil, k)
		s.down[k] = p.Down(k)
		s.cut(k)
	}
	return s
}

// cut ends pile k at its base, and counts the cards above it as loose;
// when no face-up card is left it turns the top face-down one first.
func (s *baseState) cut(k int) {
	b, d := s.base[k], s.down[k]
	if len(b) == d && d > 0 {
		d--
		s.down[k] = d
		if d > 0 {
			return // the card turned lies on a face-down one: the base's top
		}
	}
	top := -1 // the base's last card; -1: the base is empty
	for i := len(b) - 1; i >= d; i-- {
		// The first face-up card on a face-down one is in the base, and
		// so is a card on one not one rank higher; a card on the floor is
		// not.
		if (i == d && d > 0) || (i > d && b[i].Rank() != b[i-1].Rank()-1) {
			top = i
			break
		}
	}
	for _, c := range b[top+1:] {
		s.loose[c.Rank()][c.Suit()]++
	}
	s.base[k] = b[:top+1]
}

// key is s as a map key.
func (s *baseState) key() string {
	b := make([]byte, 0, 128)
	for k := range s.base {
		b = append(b, byte(s.down[k]), byte(len(s.base[k])))
		for _, c := range s.base[k] {
			b = append(b, byte(c))
		}
	}
	for r := card.Ace; r <= card.King; r++ {
		for x := range 4 {
			b = append(b, byte(s.loose[r][x]))
		}
	}
	return string(append(b, byte(s.removed)))
}

func (s *baseState) clone() *baseState {
	t := *s
	for k := range t.base {
		t.base[k] = append([]card.Card(nil), s.base[k]...)
	}
	return &t
}

// room is what an arrangement of the loose cards may use: need[r] loose
// cards of rank r to seat, supply[r] cards of rank r that can hold one,
// floors empty bases.
type room struct {
	need, supply [card.King + 2]int
	floors       int
}

func (s *baseState) room() room {
	var m room
	for r := card.Ace; r <= card.King; r++ {
		for x := range 4 {
			m.need[r] += s.loose[r][x]
		}
		m.supply[r] = m.need[r]
	}
	for k := range s.base {
		if n := len(s.base[k]); n == 0 {
			m.floors++
		} else {
			m.supply[s.base[k][n-1].Rank()]++
		}
	}
	return m
}

// fits reports whether the loose cards can be seated: a card of rank r
// on any card of rank r+1 not holding one, the rest on empty floors (a
// card of one rank and one of another never compete for a seat).
func (m *room) fits() bool {
	if m.floors < 0 {
		return false
	}
	over := 0
	for r := card.Ace; r <= card.King; r++ {
		if m.need[r] < 0 || m.supply[r] < 0 {
			return false
		}
		over += max(0, m.need[r]-m.supply[r+1])
	}
	return over <= m.floors
}

// chain takes from m a run of n cards from rank top down, seated on one
// another, its top card free (top itself is counted, as a base's top or
// a loose card, by the caller's choice of need).
func (m *room) chain(top card.Rank, n int, topLoose bool) {
	for i := range n {
		r := top - card.Rank(i)
		m.supply[r]--
		if i > 0 || topLoose {
			m.need[r]--
		}
	}
}

// moves are the states s's moves lead to.
func (s *baseState) moves() []*baseState {
	var out []*baseState
	m0 := s.room()
	for k := range s.base {
		n := len(s.base[k])
		if n == 0 || n == s.down[k] {
			continue
		}
		u := s.base[k][n-1]
		if s.topCanLeave(k, &m0) {
			t := s.clone()
			t.base[k] = t.base[k][:n-1]
			t.loose[u.Rank()][u.Suit()]++
			t.cut(k)
			out = append(out, t)
		}
		if u.Rank() == card.King && s.suitAbove(u.Suit(), card.Queen) {
			m := m0
			m.chain(card.King, 13, false)
			if m.fits() {
				t := s.removal(u.Suit(), card.Queen)
				t.base[k] = t.base[k][:n-1]
				t.cut(k)
				out = append(out, t)
			}
		}
	}
	for x := range card.Suit(4) {
		if !s.suitAbove(x, card.King) {
			continue
		}
		m := m0
		m.chain(card.King, 13, true)
		m.floors-- // the king's
		if m.fits() {
			out = append(out, s.removal(x, card.King))
		}
	}
	return out
}

// topCanLeave reports whether pile k's base top can leave in some
// arrangement: under a run of loose cards of its suit (none or more),
// for a bare card one rank higher or an empty floor.
func (s *baseState) topCanLeave(k int, m0 *room) bool {
	u := s.base[k][len(s.base[k])-1]
	r, x := u.Rank(), u.Suit()
	for n := 1; n <= int(r); n++ {
		if n > 1 && s.loose[r-card.Rank(n-1)][x] == 0 {
			return false
		}
		m := *m0
		m.chain(r, n, false)
		m.floors--
		if m.fits() {
			return true
		}
		m.floors++
		if r < card.King {
			m.supply[r+1]-- // the card it goes onto stays bare
			if m.fits() {
				return true
			}
		}
	}
	return false
}

// suitAbove reports whether every card of suit x from top down to the
// ace is loose.
func (s *baseState) suitAbove(x card.Suit, top card.Rank) bool {
	for r := card.Ace; r <= top; r++ {
		if s.loose[r][x] == 0 {
			return false
		}
	}
	return true
}

// removal is s with a suit removed whose cards from top down are loose
// (the caller cuts a king from a base).
func (s *baseState) removal(x card.Suit, top card.Rank) *baseState {
	t := s.clone()
	for r := card.Ace; r <= top; r++ {
		t.loose[r][x]--
	}
	t.removed++
	return t
}

// baseProofs are the verdicts of the base proof, shared by the proofs of
// one analysis. It holds at most max states; past that it proves
// nothing more (what it holds stays true).
type baseProofs struct {
	lost map[string]bool // a state's verdict: true lost, false not proven
	max  int
}

func newBaseProofs(max int) *baseProofs {
	return &baseProofs{lost: map[string]bool{}, max: max}
}

// baseCall is one call's stop check, apart from the shared verdicts so
// that one proof's stop never reaches another's call. stop, when not
// nil, is asked at every state: true ends the call, which then proves
// nothing and keeps no verdict. The calls measured visit at most some
// thousands of states, under 0.1 s, but only the cap bounds one:
// 279 620 states at 1 GB, seconds (docs/analysis.md).
type baseCall struct {
	stop    func() bool
	stopped bool
}

// proves reports whether p, whose stock is dealt, is lost by the base
// proof; stop (nil: none) is asked at every state and ends the call,
// which then reports false.
func (b *baseProofs) proves(p *spider.Position, stop func() bool) bool {
	if b == nil {
		return false
	}
	c := &baseCall{stop: stop}
	return b.state(baseOf(p), c) && !c.stopped
}

// state reports whether every position of s is lost, within call c. The
// states a move leads to have fewer cards face down, or a smaller base,
// or fewer cards: the search meets no state twice on a line.
func (b *baseProofs) state(s *baseState, c *baseCall) bool {
	if s.removed == 8 {
		return false
	}
	key := s.key()
	if v, ok := b.lost[key]; ok {
		return v
	}
	if len(b.lost) >= b.max || c.stopped {
		return false
	}
	if c.stop != nil && c.stop() {
		c.stopped = true
		return false
	}
	v := true
	for _, t := range s.moves() {
		if !b.state(t, c) {
			v = false
			break
		}
	}
	if len(b.lost) < b.max && !c.stopped {
		b.lost[key] = v
	}
	return v
}

// cutsBase reports whether m, a move of p, can change p's base-proof
// state: a deal, a removal, or a card move whose run leaves a pile's base
// top (the others keep the state, so its verdict).
func cutsBase(p *spider.Position, m spider.Move) bool {
	if m.Kind != spider.MoveCards {
		return true
	}
	k := int(m.From)
	i, d := p.Len(k)-int(m.Count), p.Down(k)
	return (i == d && d > 0) || (i > d && p.Card(k, i).Rank() != p.Card(k, i-1).Rank()-1)
}

// baseStatesMax bounds the states whose verdicts a baseProofs keeps
// without a memory limit (about 250 MB at baseStateBytes; with a limit,
// a share of it sets the bound: newProofs); baseStateBytes is what one
// holds, key and map slot (65 536 states of deal 1's greedy game took
// 14.0 MB of heap, keys of 153 bytes on average, up to 177).
const (
	baseStatesMax  = 1 << 20
	baseStateBytes = 240
)
