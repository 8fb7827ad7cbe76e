package bot

import (
	"slices"

	"cardtable/arlington"
	"cardtable/card"
)

// sample deals a world consistent with v as arlington.Sample does, but
// places an unseen S2 as the card players keep that it is: whoever was
// dealt it holds it until they kill with it, so each other seat with an
// unseen card holds it with the odds of the deal (eight cards in the 46
// the seat did not see), not with those of one card among the unseen. A
// uniform deal all but clears a seat down to its last card of the S2
// (1 chance in 40 or so with two players, instead of 8 in 46), and the
// search then leads sets into a kill that ends the hand.
func sample(v arlington.View, r *arlington.Rand) (*arlington.State, error) {
	if !s2Unseen(v) {
		return arlington.Sample(v, r)
	}
	// Weights: each other seat with an unseen card, then the graveyard's
	// face-down part (the cards dealt to it; none join it unseen).
	n := len(v.HandSizes)
	weights := make([]int, n+1)
	total := 0
	for i, size := range v.HandSizes {
		if i != v.Seat && i < len(v.Known) && size > len(v.Known[i]) {
			weights[i] = arlington.HandSize
		}
	}
	weights[n] = max(0, v.Graveyard-len(v.GraveKnown))
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return arlington.Sample(v, r) // an inconsistent view: Sample says why
	}
	k := r.Intn(total)
	at := 0
	for k >= weights[at] {
		k -= weights[at]
		at++
	}
	// Tell the sampler where the S2 is, on a copy of the view.
	if at == n {
		v.GraveKnown = append(slices.Clone(v.GraveKnown), arlington.S2)
	} else {
		v.Known = slices.Clone(v.Known)
		v.Known[at] = append(slices.Clone(v.Known[at]), arlington.S2)
	}
	return arlington.Sample(v, r)
}

// s2Unseen reports whether v's seat has not seen where the S2 is.
func s2Unseen(v arlington.View) bool {
	has := func(cs []card.Card) bool { return slices.Contains(cs, arlington.S2) }
	if has(v.Hand) || has(v.GraveKnown) {
		return false
	}
	for _, k := range v.Known {
		if has(k) {
			return false
		}
	}
	for _, tab := range v.Tables {
		for _, t := range tab {
			if has(t.Cards) {
				return false
			}
		}
	}
	for _, t := range v.Trick {
		if t.Card == arlington.S2 {
			return false
		}
	}
	return true
}
