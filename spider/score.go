package spider

import "cardtable/card"

// Initial face-down cards in every deal: four rows of ten and four more. A
// custom position counts from 44, or from its own face-down cards if it has
// more (docs/rules-spider.md #20).
const initialDown = 44

// Score is the score of a position as the Arachnid Rules count it (section
// 8), which the Spider Help's "Scoring" repeats:
//   - 10 for each initially face-down card turned up;
//   - 15 more for each pile with no face-down cards left;
//   - 2 for each face-up card sitting on the next-higher card of its suit;
//   - 50 in all for each complete K..A run, removed or standing (in place of
//     the 24 its twelve builds would score);
//   - at a win with four or more complete runs still standing, 2 more for
//     each beyond the third.
//
// So 990 at most with every suit removed and 1000 with all eight standing.
type Score struct {
	Turned      int `json:"turned"`      // points for face-down cards turned up
	Columns     int `json:"columns"`     // points for piles with nothing face down
	Builds      int `json:"builds"`      // points for same-suit builds outside complete runs
	Complete    int `json:"complete"`    // points for complete runs, removed or standing
	StandingWin int `json:"standingWin"` // the bonus for finishing with runs standing
	Total       int `json:"total"`
}

// Score counts the position's score.
func (p *Position) Score() Score {
	var s Score
	down := 0
	standing := 0
	for k := range p.piles {
		pl := &p.piles[k]
		down += int(pl.down)
		if pl.down == 0 {
			s.Columns += 15
		}
		complete, builds := pl.runs()
		standing += complete
		s.Builds += 2 * builds
	}
	s.Turned = 10 * max(0, int(p.base)-down)
	s.Complete = 50 * (standing + int(p.nRemoved))
	if standing >= 4 && p.Won() {
		s.StandingWin = 2 * (standing - 3)
	}
	s.Total = s.Turned + s.Columns + s.Builds + s.Complete + s.StandingWin
	return s
}

// Auto finds the move the Amiga help's auto-move makes for the bottom n
// cards of pile k (n = 0: the whole movable run), trying in its order:
//  1. the cards are a complete suit: remove it;
//  2. onto the next-higher card of the same suit;
//  3. onto the next-higher card of any suit;
//  4. into a space.
//
// Within a step the lowest-numbered pile wins (docs/rules-spider.md). A whole
// pile is never moved into a space, which would change nothing.
func (p *Position) Auto(k, n int) (Move, error) {
	if k < 0 || k >= Piles {
		return Move{}, errPiles
	}
	pl := &p.piles[k]
	r := pl.run()
	if r == 0 {
		return Move{}, errEmpty(k)
	}
	if n == 0 {
		n = r
	}
	if n > r {
		return Move{}, errRun(k, r, n)
	}
	top := pl.cards[int(pl.n)-n]
	if n == 13 && p.completeAt(k) {
		return RemoveFrom(k), nil
	}
	for _, sameSuit := range []bool{true, false} {
		for t := range p.piles {
			b := p.piles[t].bottom()
			if t == k || b == card.None || b.Rank() != top.Rank()+1 {
				continue
			}
			if !sameSuit || b.Suit() == top.Suit() {
				return Cards(k, t, n), nil
			}
		}
	}
	if !(pl.down == 0 && n == int(pl.n)) {
		for t := range p.piles {
			if t != k && p.piles[t].n == 0 {
				return Cards(k, t, n), nil
			}
		}
	}
	return Move{}, errNoAuto(k, n)
}

// Location is where a card stands: pile (0-based) and index from underneath.
type Location struct {
	Pile  int `json:"pile"`
	Index int `json:"index"`
}

// Locate lists where copies of c are visible in the tableau: face up, or
// anywhere when open is set (the open variant shows every tableau card).
func (p *Position) Locate(c card.Card, open bool) []Location {
	var out []Location
	for k := range p.piles {
		pl := &p.piles[k]
		from := int(pl.down)
		if open {
			from = 0
		}
		for j := from; j < int(pl.n); j++ {
			if pl.cards[j] == c {
				out = append(out, Location{Pile: k, Index: j})
			}
		}
	}
	return out
}

// Column lists the visible cards of pile k in order from underneath: its
// face-up cards, or all of them when open is set.
func (p *Position) Column(k int, open bool) []card.Card {
	pl := &p.piles[k]
	if open {
		return append([]card.Card(nil), pl.cards[:pl.n]...)
	}
	return append([]card.Card(nil), pl.cards[pl.down:pl.n]...)
}

// The familiar score of Microsoft's Spider (docs/rules-spider.md #24):
// a game starts at WindowsStart, each action costs one point and each
// complete suit earns WindowsSuit.
const (
	WindowsStart = 500
	WindowsSuit  = 100
)

// WindowsScore is that score after actions actions (moves, deals, undos,
// redos and restarts the player made) with suits complete suits, removed or
// standing. It never goes below 0.
func WindowsScore(actions, suits int) int {
	return max(0, WindowsStart-actions+WindowsSuit*suits)
}
