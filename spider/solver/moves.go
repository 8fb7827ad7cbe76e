package solver

import (
	"math/bits"

	"cardtable/card"
	"cardtable/spider"
)

// searchMoves appends to dst the moves the beam and the stage search of
// the last stage make from p: the legal card moves and the deal, in the
// order of p.Legal, without removals (they are made at once), null moves
// (p.Null) and pointless ones (pointless). It gives the same moves as
// filtering p.Legal, in a fraction of the time: each pile's length, run
// and bottom card are read once, not once for every other pile, and a
// run looks only at the piles whose bottom card it may go onto.
func searchMoves(p *spider.Position, dst []spider.Move) []spider.Move {
	var n, down, run [spider.Piles]int
	var bottom [spider.Piles]card.Card
	var byRank [card.King + 1]uint16 // the piles whose bottom card has that rank
	space := -1                      // the first space
	for k := range spider.Piles {
		n[k] = p.Len(k)
		if n[k] == 0 {
			if space < 0 {
				space = k
			}
			continue
		}
		down[k], run[k], bottom[k] = p.Down(k), p.Run(k), p.Bottom(k)
		byRank[bottom[k].Rank()] |= 1 << k
	}
	// upTo[r] is the piles whose bottom card has rank r or lower: a pile
	// has one bottom card, so the piles of ranks a+1 to b are
	// upTo[b] ^ upTo[a].
	var upTo [card.King + 1]uint16
	for rank := card.Ace; rank <= card.King; rank++ {
		upTo[rank] = upTo[rank-1] ^ byRank[rank]
	}
	for s := range spider.Piles {
		r := run[s]
		if r == 0 {
			continue
		}
		// The piles a run of s may go onto, in the order of the piles: a
		// bottom card up to r ranks above s's (never s itself), or the
		// first space (into another one is pointless).
		low := int(bottom[s].Rank())
		onto := upTo[min(low+r, int(card.King))] ^ upTo[low]
		if space >= 0 {
			onto |= 1 << space
		}
		for ; onto != 0; onto &= onto - 1 {
			t := bits.TrailingZeros16(onto)
			if t == space {
				for c := r; c >= 1; c-- {
					// Not a whole pile with nothing face down (null).
					if down[s] != 0 || c != n[s] {
						dst = append(dst, spider.Cards(s, t, c))
					}
				}
				continue
			}
			c := int(bottom[t].Rank()) - low
			if top := n[s] - c; top > down[s] {
				// pointless: a run moved from one parent to another of
				// the same rank, joining no suit and completing none.
				parent, head := p.Card(s, top-1), p.Card(s, top)
				if parent.Rank() == head.Rank()+1 && !(bottom[t] == head+1 && (parent != head+1 || run[t]+c >= 13)) {
					continue
				}
			}
			dst = append(dst, spider.Cards(s, t, c))
		}
	}
	if p.StockLen() > 0 && (space < 0 || p.Relaxed()) {
		dst = append(dst, spider.DealMove)
	}
	return dst
}
