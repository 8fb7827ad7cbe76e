package solver

import (
	"testing"

	"cardtable/spider"
)

// bruteWinnable decides a small position by trying every legal move (no
// pruning, no eager removal), independently of the solver. It gives up
// (ok false) after max positions.
func bruteWinnable(tb testing.TB, p spider.Position, max int) (win, ok bool) {
	tb.Helper()
	return brute(p, max, nil)
}

// isSplit reports a move of part of a same-suit run: fewer cards than the
// run at the bottom of the pile moved from.
func isSplit(p *spider.Position, m spider.Move) bool {
	return m.Kind == spider.MoveCards && int(m.Count) < p.Run(int(m.From))
}

// brute is bruteWinnable over the legal moves that skip does not veto.
func brute(p spider.Position, max int, skip func(*spider.Position, spider.Move) bool) (win, ok bool) {
	seen := map[string]bool{}
	var kb []byte
	var dfs func() bool
	dfs = func() bool {
		if p.Won() {
			return true
		}
		kb = kb[:0]
		for k := range spider.Piles {
			kb = append(kb, byte(p.Down(k)), byte(p.Len(k)))
			for j := range p.Len(k) {
				kb = append(kb, byte(p.Card(k, j)))
			}
		}
		kb = append(kb, byte(p.StockLen()), byte(p.NumRemoved()))
		if seen[string(kb)] || len(seen) > max {
			return false
		}
		seen[string(kb)] = true
		var buf [256]spider.Move
		for _, m := range p.Legal(buf[:0]) {
			if p.Null(m) || (skip != nil && skip(&p, m)) {
				continue
			}
			u := p.Do(m)
			w := dfs()
			p.Undo(m, u)
			if w {
				return true
			}
		}
		return false
	}
	win = dfs()
	return win, win || len(seen) <= max
}
