package solver

import (
	"cardtable/card"
	"cardtable/spider"
)

// fullWeights are the weights of the full-information evaluation of the
// beam at 4 suits (docs/solver.md, "Shorter lines"): every card is known,
// face-down ones too, so a break can be counted where it lies.
type fullWeights struct {
	brk     int32 // a card not on the next-higher card of its suit (a king at the foot of a pile is not)
	rankBrk int32 // a face-up card on the next-higher card of another suit
	down    int32 // each card still face down, on top of its break
	space   int32 // each empty pile
	removed int32 // each complete suit removed
	stock   int32 // each card still in the stock
	land    int32 // each pile the next row's card will land on in suit (landFull)
}

// full4 counts a card on the next-higher card of another suit as worse
// than a plain break (12 against 10): such a build looks like progress but
// must be undone, and the beam that preferred it (5, until 26 November
// 07:10 UTC) built across suits and undid it later. On 4-suit deals 1-24
// (width 300, 8 million positions, beam alone) 5 won 18 with a median
// line of 173, 12 won 21 with 138 (docs/solver.md, "Shorter lines", 6).
var full4 = fullWeights{brk: 10, rankBrk: 12, down: 3, space: 10, removed: 0, stock: 10}

// full4Strict counts such a build as worse still (15): on the same deals
// as a beam of width 300 it won 19 with a median of 136, and beside a
// beam of width 200 with full4 it gave 4-suit deals 1-40 a median line of
// 137 against 140 for two beams with full4, in less time.
var full4Strict = fullWeights{brk: 10, rankBrk: 15, down: 3, space: 10, removed: 0, stock: 10}

// full1 is full4 with a credit of 10 for each pile the next row's card
// lands on in suit (landFull), for 1 suit: on 1-suit deals 1-40 (width
// 100, 3 million positions, the beam alone) it took the median line from
// 102 to 96; at 2 and 4 suits it changed little (2 suits deals 1-20: 115
// both; 4 suits deals 1-24 at width 300: 138 both, mean 142.2 → 138.1,
// one deal fewer won), so they keep full4 as measured.
var full1 = fullWeights{brk: 10, rankBrk: 12, down: 3, space: 10, removed: 0, stock: 10, land: 10}

// fullBuild is full4 as it was, a cross-suit build at half a break: it
// wins some deals full4 does not (2-suit deal 5), so it is the fallback
// when no other beam has won.
var fullBuild = fullWeights{brk: 10, rankBrk: 5, down: 3, space: 10, removed: 0, stock: 10}

// landFull is the credit for the piles whose top card is the next-higher
// card of its suit to the card the next row deals onto them: that card
// will not have to move. Without it a position only learns how well the
// row lands once it has dealt, and the beam of 1 suit dealt onto tops
// that left most dealt cards to move (docs/solver.md, "Shorter lines", 6).
func landFull(p *spider.Position, w *fullWeights) int32 {
	if w.land == 0 || p.StockLen() == 0 {
		return 0
	}
	var st [50]card.Card
	row := p.Stock(st[:0])
	var e int32
	for k := range spider.Piles {
		if n := p.Len(k); n > 0 && row[k]+1 == p.Card(k, n-1) {
			e += w.land
		}
	}
	return e
}

// pileFull is pile k's part of the full-information evaluation. Its rule
// for a break is written again, for speed, in fullCard, arriveFull and the
// beam's dealtInFull: a change here goes there too (TestAfterMoveAgrees
// and TestBeamMatchesReference compare them).
func pileFull(p *spider.Position, k int, w *fullWeights) int32 {
	n, d := p.Len(k), p.Down(k)
	if n == 0 {
		return w.space
	}
	e := -int32(d) * w.down
	prev := p.Card(k, 0)
	if prev.Rank() != card.King {
		e -= w.brk
	}
	for j := 1; j < n; j++ {
		c := p.Card(k, j)
		switch {
		case c+1 == prev:
		case j > d && c.Rank()+1 == prev.Rank():
			e -= w.rankBrk
		default:
			e -= w.brk
		}
		prev = c
	}
	return e
}

// fullCard is the j-th card of pile k's part of pileFull, the pile
// having d cards face down: its break, if any (the face-down charge
// aside).
func fullCard(p *spider.Position, k, j, d int, w *fullWeights) int32 {
	c := p.Card(k, j)
	if j == 0 {
		if c.Rank() != card.King {
			return -w.brk
		}
		return 0
	}
	prev := p.Card(k, j-1)
	switch {
	case c+1 == prev:
		return 0
	case j > d && c.Rank()+1 == prev.Rank():
		return -w.rankBrk
	}
	return -w.brk
}

// leaveFull prepares pileFull of pile f after n cards leave it (p before
// the move): what those cards counted, and what turning the card they
// uncover gives back (its face-down charge). While the pile is not
// empty, its new pileFull is the old one less lost plus turned.
func leaveFull(p *spider.Position, f, n int, w *fullWeights) (lost, turned int32) {
	l, d := p.Len(f), p.Down(f)
	for j := l - n; j < l; j++ {
		lost += fullCard(p, f, j, d, w)
	}
	if l-n == d && d > 0 {
		turned = w.down
	}
	return lost, turned
}
