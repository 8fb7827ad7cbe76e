package solver

import (
	"cardtable/spider"
)

// PlayGreedy plays g on with a simple greedy strategy until it is won or
// the strategy has no move, or after maxSteps steps: the lost games that
// `spider analyze bench` and BenchmarkAnalyze analyse, made quickly and
// the same way every time. It is no player to learn from: each step it
// takes the card move that leaves the best position by the fair
// evaluation (it sees the card a move turns up, one card of
// clairvoyance), if that is better than the position before and not seen
// before; otherwise it deals; if it may not deal because of a space, it
// fills the space with the best move into it. It returns the number of
// steps played.
func PlayGreedy(g *spider.Game, maxSteps int) int {
	seen := map[uint64]bool{hashPos(g.Pos()): true}
	var buf [256]spider.Move
	played := 0
	for played < maxSteps && !g.Won() {
		p := g.Position()
		cur := fairEval(&p)
		best, bestEval, found := spider.Move{}, int32(0), false
		var into spider.Move // the best move into a space, if a deal is refused
		intoEval, intoFound := int32(0), false
		for _, m := range p.Legal(buf[:0]) {
			if m.Kind == spider.Deal || p.Null(m) {
				continue
			}
			u := p.Do(m)
			e, h := fairEval(&p), hashPos(&p)
			p.Undo(m, u)
			if seen[h] {
				continue
			}
			if e > cur && (!found || e > bestEval) {
				best, bestEval, found = m, e, true
			}
			if m.Kind == spider.MoveCards && p.Len(int(m.To)) == 0 && (!intoFound || e > intoEval) {
				into, intoEval, intoFound = m, e, true
			}
		}
		switch {
		case found:
		case p.CheckMove(spider.DealMove) == nil:
			best = spider.DealMove
		case intoFound && p.StockLen() > 0:
			best = into
		default:
			return played
		}
		if g.Play(best) != nil {
			return played
		}
		seen[hashPos(g.Pos())] = true
		played++
	}
	return played
}
