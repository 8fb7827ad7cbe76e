package solver

import "cardtable/spider"

// fillSpaces fills every space of p so that a row can be dealt: while a
// pile is empty it makes the move into a space that leaves the best
// evaluation, from a pile that keeps a face-up card (so no card is turned
// and no pile merely changes place). It appends the
// moves to dst and reports whether every space was filled; p is left where
// the moves lead.
//
// The searches need it because they score a space highly: from a position
// with spaces and many cards free to move, a best-first search can spend
// its whole budget among positions that keep their spaces and never reach
// one it may deal from (a 1-suit position with two spaces and 40 cards in
// the stock went unsolved after 44 million nodes; filled by hand, it was
// solved in 0.05 s).
func fillSpaces(p *spider.Position, dst []spider.Move) ([]spider.Move, bool) {
	var buf [256]spider.Move
	for p.Spaces() > 0 {
		best, bestEval := spider.Move{}, int32(0)
		found := false
		for _, m := range p.Legal(buf[:0]) {
			if m.Kind != spider.MoveCards || p.Len(int(m.To)) != 0 || p.Len(int(m.From))-int(m.Count) <= p.Down(int(m.From)) {
				continue
			}
			u := p.Do(m)
			e := evaluate(p)
			p.Undo(m, u)
			if !found || e > bestEval {
				best, bestEval, found = m, e, true
			}
		}
		if !found {
			return dst, false
		}
		p.Do(best)
		dst = append(dst, best)
	}
	return dst, true
}
