package solver

import (
	"cardtable/card"
	"cardtable/spider"
)

// evalWeights are the weights of an evaluation (higher is better).
type evalWeights struct {
	faceDown, downPile, breakSuit, breakRank, space, removed int32
	kingBlock, upOnDown                                      int32
}

// Evaluation weights, tuned on deals 1-50 (docs/solver.md).
var weights = evalWeights{
	faceDown:  12, // each card still face down
	downPile:  4,  // each pile that still has face-down cards
	breakSuit: 10, // a face-up card not on the next-higher card at all
	breakRank: 4,  // a face-up card on the next-higher card of another suit
	space:     14, // each empty pile
	removed:   60, // each complete suit removed
	kingBlock: 0,  // a king directly on face-down cards
	upOnDown:  0,  // each face-up card on a pile with face-down cards
}

// evaluate scores a position for the search: higher is better. It counts
// what stands in the way of a win: face-down cards, and "breaks" where a
// face-up card does not continue a same-suit run.
func evaluate(p *spider.Position) int32 {
	return evaluateW(p, &weights)
}

// evaluateW is evaluate with the weights w.
func evaluateW(p *spider.Position, w *evalWeights) int32 {
	e := int32(p.NumRemoved()) * w.removed
	for k := range spider.Piles {
		e += pileEvalW(p, k, w)
	}
	return e
}

// pileEvalW is pile k's part of evaluateW.
func pileEvalW(p *spider.Position, k int, w *evalWeights) int32 {
	n, d := p.Len(k), p.Down(k)
	if n == 0 {
		return w.space
	}
	var e int32
	prev := p.Card(k, d)
	if d > 0 {
		e -= int32(d)*w.faceDown + w.downPile + int32(n-d)*w.upOnDown
		if prev.Rank() == card.King {
			e -= w.kingBlock
		}
	}
	for j := d + 1; j < n; j++ {
		c := p.Card(k, j)
		switch {
		case c+1 == prev: // same suit, one lower
		case c.Rank()+1 == prev.Rank():
			e -= w.breakRank
		default:
			e -= w.breakSuit
		}
		prev = c
	}
	return e
}

// hashPos hashes what matters of a position for the search: piles (their
// face-down counts and cards), the stock dealt so far and the suits removed.
// Once the stock is empty the order of the piles no longer matters, and the
// hash ignores it, so positions that differ only by it count as one. It is
// a sum of per-pile terms so that a move can update it from two piles.
func hashPos(p *spider.Position) uint64 {
	h := hashBase(p)
	for k := range spider.Piles {
		h += pileTerm(p, k)
	}
	return mix(h)
}

func hashBase(p *spider.Position) uint64 {
	return uint64(p.StockLen())*0x9e3779b97f4a7c15 ^ uint64(p.NumRemoved())<<56
}

// pileTerm is pile k's part of hashPos (before the final mix).
func pileTerm(p *spider.Position, k int) uint64 {
	return prefixTerm(p, k, p.Len(k), p.Down(k))
}

// prefixTerm is pileTerm of pile k cut to its first n cards, d of them
// face down: what the pile is once cards leave it (termLeave).
func prefixTerm(p *spider.Position, k, n, d int) uint64 {
	ph := uint64(n)<<8 | uint64(d)
	for j := range n {
		ph = (ph ^ uint64(p.Card(k, j))) * 0x100000001b3
	}
	if p.StockLen() > 0 {
		ph ^= uint64(k+1) * 0xc2b2ae3d27d4eb4f
	}
	return mix(ph)
}

func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashSet is an open-addressing set of nonzero 64-bit hashes. A collision
// of two positions' 64-bit hashes would prune one wrongly; with the few
// million positions a search holds the chance is below one in a million.
type hashSet struct {
	slots []uint64
	n     int
}

func (s *hashSet) reset() {
	clear(s.slots)
	s.n = 0
}

func (s *hashSet) bytes() int64 { return int64(len(s.slots)) * 8 }

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	if h == 0 {
		h = 1
	}
	if len(s.slots) == 0 {
		return false
	}
	m := uint64(len(s.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// home is what h's first slot holds (0 for an empty set): with it, hasAt
// answers has(h) without reading the set again when it holds h or
// nothing, the common cases.
func (s *hashSet) home(h uint64) uint64 {
	if h == 0 {
		h = 1
	}
	if len(s.slots) == 0 {
		return 0
	}
	return s.slots[h&uint64(len(s.slots)-1)]
}

// hasAt is has(h), given home(h) read since the set last changed.
func (s *hashSet) hasAt(h, home uint64) bool {
	if h == 0 {
		h = 1
	}
	switch home {
	case h:
		return true
	case 0:
		return false
	}
	return s.has(h)
}

// add inserts h and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	if h == 0 {
		h = 1
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	m := uint64(len(s.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

func (s *hashSet) grow() {
	old := s.slots
	n := 2 * len(old)
	if n == 0 {
		n = 1 << 12
	}
	s.slots = make([]uint64, n)
	m := uint64(n - 1)
	for _, h := range old {
		if h == 0 {
			continue
		}
		i := h & m
		for s.slots[i] != 0 {
			i = (i + 1) & m
		}
		s.slots[i] = h
	}
}
