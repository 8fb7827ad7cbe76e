package solver

import (
	"fmt"
	"math/rand/v2"

	"cardtable/card"
	"cardtable/spider"
)

// The worlds the fair player thinks in: positions built from what the
// player sees, with the unseen cards dealt at random (see fair.go).

// visibleHash hashes what the player sees: face-up cards, face-down and
// stock counts and the suits removed (and in the open variant, the cards
// face down too).
func visibleHash(p *spider.Position, open bool) uint64 {
	h := uint64(p.StockLen())*0x9e3779b97f4a7c15 ^ uint64(p.NumRemoved())<<56
	for k := range spider.Piles {
		n, d := p.Len(k), p.Down(k)
		ph := uint64(n)<<8 | uint64(d)
		from := d
		if open {
			from = 0
		}
		for j := from; j < n; j++ {
			ph = (ph ^ uint64(p.Card(k, j))) * 0x100000001b3
		}
		h += mix(ph ^ uint64(k+1)*0xc2b2ae3d27d4eb4f)
	}
	return mix(h)
}

// unseen lists the cards the player cannot see, in a fixed order.
func unseen(p *spider.Position, open bool) []card.Card {
	count := map[card.Card]int{}
	for _, c := range card.SpiderDeck(p.Suits()) {
		count[c]++
	}
	for k := range spider.Piles {
		from := p.Down(k)
		if open {
			from = 0
		}
		for j := from; j < p.Len(k); j++ {
			count[p.Card(k, j)]--
		}
	}
	for _, s := range p.Removed(nil) {
		for r := card.Ace; r <= card.King; r++ {
			count[card.New(r, s)]--
		}
	}
	var out []card.Card
	for _, c := range card.SpiderDeck(p.Suits()) {
		if count[c] > 0 {
			out = append(out, c)
			count[c]--
		}
	}
	return out
}

// scramble returns a position that looks the same to the player as p, with
// the unseen cards shuffled into the unseen places by rng.
func scramble(p *spider.Position, open bool, rng *rand.Rand) (spider.Position, error) {
	cs := unseen(p, open)
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	var hidden [spider.Piles][]card.Card
	for k := range spider.Piles {
		d := p.Down(k)
		if open {
			hidden[k] = p.Cards(nil, k)[:d]
			continue
		}
		if len(cs) < d {
			return spider.Position{}, fmt.Errorf("solver: %d unseen cards cannot fill the face-down places", len(cs))
		}
		hidden[k], cs = cs[:d], cs[d:]
	}
	if len(cs) != p.StockLen() {
		return spider.Position{}, fmt.Errorf("solver: %d unseen cards left for a stock of %d", len(cs), p.StockLen())
	}
	return p.WithHidden(&hidden, cs)
}

// sample appends n worlds scrambled from view to worlds: n arrangements of
// the unseen cards that look the same to the player.
func sample(worlds []spider.Position, view *spider.Position, open bool, n int, rng *rand.Rand) ([]spider.Position, error) {
	for range n {
		w, err := scramble(view, open, rng)
		if err != nil {
			return nil, err
		}
		worlds = append(worlds, w)
	}
	return worlds, nil
}

// The fair player plans from one point where it learns something to the
// next: a line of moves that ends with the first move that turns a card
// face up or deals a row (or wins). Every move before that changes only
// what the player can already see, so the line is decided by visible
// cards alone; then the player looks again.
//
// plan (determinized sampling with the full solver): the player samples
// Samples worlds (arrangements of the unseen cards that fit what it sees)
// and solves each with the full-information solver for Nodes nodes. Every
// world that is won proposes its winning line, cut after its first event.
// A proposal scores voteWeight for each world that proposed the same line
// plus the fair evaluation of the position just before the event, which
// depends on visible cards only. A world's solver sees that world's cards,
// so its lines can lean on knowledge the player lacks (a tangle it knows it
// can undo); the evaluation term prefers, among lines that win somewhere,
// the one that leaves the tidiest position, which is what a player who
// cannot see ahead needs. When no world is won, stagePlan decides.
//
// stagePlan (the closure): from the view it searches the positions reached
// without turning a card or dealing, collects the frontier (the moves that
// end it), and judges the best few by short greedy rollouts in the sampled
// worlds; a deal is chosen only when no card can be turned.
