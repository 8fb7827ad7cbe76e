package solver

import (
	"cardtable/card"
	"cardtable/spider"
)

// What a card move of n cards from pile f to pile t would make of the
// two piles, read from the position before it, so that the beam can
// evaluate and hash a child without making the move and taking it back.
// Each agrees with making the move and computing afresh
// (TestAfterMoveAgrees).

// moved is the j-th card (from 0) that the move of n cards from f takes.
func moved(p *spider.Position, f, n, j int) card.Card {
	return p.Card(f, p.Len(f)-n+j)
}

// completesAfter reports whether the move leaves a complete run at the
// foot of t or of f (complete after p.Do).
func completesAfter(p *spider.Position, f, t, n int) bool {
	// At t: the run moved, on the run of t if it continues it.
	if p.Bottom(f).Rank() == card.Ace {
		run := n
		if p.Len(t) > 0 && moved(p, f, n, 0)+1 == p.Bottom(t) {
			run += p.Run(t)
		}
		if run >= 13 {
			return true
		}
	}
	// At f: a complete run the moved cards covered.
	l := p.Len(f) - n
	if l < 13 || p.Card(f, l-1).Rank() != card.Ace {
		return false
	}
	// (Were the ace face down, it would turn face up alone: no run.)
	i, down := l-1, p.Down(f)
	for i > down && p.Card(f, i-1) == p.Card(f, i)+1 {
		i--
	}
	return l-i >= 13
}

// termLeave is pileTerm of f after n cards leave it.
func termLeave(p *spider.Position, f, n int) uint64 {
	l, d := p.Len(f)-n, p.Down(f)
	if l == d && d > 0 {
		d--
	}
	return prefixTerm(p, f, l, d)
}

// termArrive is pileTerm of t after n cards of f come onto it.
func termArrive(p *spider.Position, f, t, n int) uint64 {
	l := p.Len(t)
	ph := uint64(l+n)<<8 | uint64(p.Down(t))
	for j := range l {
		ph = (ph ^ uint64(p.Card(t, j))) * 0x100000001b3
	}
	for j := range n {
		ph = (ph ^ uint64(moved(p, f, n, j))) * 0x100000001b3
	}
	if p.StockLen() > 0 {
		ph ^= uint64(t+1) * 0xc2b2ae3d27d4eb4f
	}
	return mix(ph)
}

// arriveFull is pileFull of t after n cards of f come onto it, from was,
// its pileFull before.
func arriveFull(p *spider.Position, f, t, n int, was int32, w *fullWeights) int32 {
	l, d := p.Len(t), p.Down(t)
	e := was
	prev := p.Bottom(t)
	if l == 0 {
		e = 0 // was a space
	}
	for j := range n {
		c := moved(p, f, n, j)
		switch {
		case l+j == 0:
			if c.Rank() != card.King {
				e -= w.brk
			}
		case c+1 == prev:
		case l+j > d && c.Rank()+1 == prev.Rank():
			e -= w.rankBrk
		default:
			e -= w.brk
		}
		prev = c
	}
	return e
}
