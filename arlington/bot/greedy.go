package bot

import (
	"cardtable/arlington"
	"cardtable/card"
)

// Greedy plays as a casual player would: it takes the points in front of
// it. With the lead it adds to its own sets when that scores more, kills
// or raids an opponent's best set, leads its best-scoring set, and
// otherwise leads a card it has no use for. In a set round it kills a
// valuable opposing set with the S2, else answers with its best-scoring
// higher set, else passes. In a trick it takes with its lowest winning
// card of the led suit, else throws its least useful card. It looks one
// action ahead and never at the future.
type Greedy struct{ r *arlington.Rand }

// NewGreedy returns a greedy bot; seed breaks ties.
func NewGreedy(seed uint64) *Greedy { return &Greedy{r: arlington.NewRand(seed)} }

// Name is "greedy".
func (*Greedy) Name() string { return "greedy" }

// Act chooses the best-scoring legal action by the heuristic.
func (g *Greedy) Act(v arlington.View) arlington.Action {
	legal := v.Legal()
	if len(legal) == 0 {
		return arlington.Action{}
	}
	hand, _ := arlington.SetOf(v.Hand)
	best, bestScore, ties := legal[0], -1<<30, 0
	for _, a := range legal {
		sc := g.score(v, hand, a)
		switch {
		case sc > bestScore:
			best, bestScore, ties = a, sc, 1
		case sc == bestScore:
			// Reservoir sampling among equals, so ties do not always go
			// the same way.
			ties++
			if g.r.Intn(ties) == 0 {
				best = a
			}
		}
	}
	return best
}

// score rates a in hundredths of a point, roughly.
func (g *Greedy) score(v arlington.View, hand arlington.Set, a arlington.Action) int {
	me := v.Seat
	switch a.Kind {
	case arlington.LeadCard:
		// Leading a card we cannot use is the fallback; a high one may take
		// the trick and bring in the others' cards.
		if useful(hand, a.Card) {
			return -500 + rankOf(a.Card)
		}
		return rankOf(a.Card)
	case arlington.PlayCard:
		return g.trickScore(v, hand, a.Card)
	case arlington.PlaySet:
		pts := arlington.Points(a.Set)
		sc := pts*100 - a.Set.Jokers()*60 // jokers can be picked up by others
		if v.Phase == arlington.PhaseRound {
			// Replacing the active set also sends it to the graveyard.
			if v.Round != nil && v.Round.Owner != me {
				sc += activePoints(v) * 50
			}
			return sc + 100
		}
		if pts < 2 && hand.Len() > a.Set.Len()+2 {
			sc -= 150 // a one-point set is not worth leading while there are cards to play
		}
		return sc
	case arlington.Pass:
		return 0
	case arlington.Kill:
		p := activePoints(v)
		if v.Round != nil && v.Round.Owner == me {
			return -1000
		}
		return p*100 - 250 // keep the S2 for sets worth it
	case arlington.PlayS2:
		t := v.Set(a.Seat, a.Index)
		p := arlington.Points(t)
		if a.Seat == me {
			return -1000
		}
		return p*100 - 250
	case arlington.AddCard:
		t := v.Set(a.Seat, a.Index)
		u, _ := t.With(a.Card)
		gain := arlington.Points(u) - arlington.Points(t)
		if a.Seat == me {
			if gain <= 0 {
				return -50
			}
			return gain*100 + 50
		}
		return -gain*100 - 100
	case arlington.PickUp:
		t := v.Set(a.Seat, a.Index)
		u, _ := t.Without(card.Joker)
		u, _ = u.With(a.Card)
		delta := arlington.Points(u) - arlington.Points(t)
		if a.Seat != me {
			delta = -delta
		}
		return delta*100 + 150 // a joker in hand is worth having
	}
	return -1 << 20
}

func (g *Greedy) trickScore(v arlington.View, hand arlington.Set, c card.Card) int {
	if len(v.Trick) == 0 {
		return 0
	}
	led := v.Trick[0].Card
	keep := 0
	if useful(hand, c) {
		keep = -300
	}
	if led != card.Joker && c != card.Joker && c.Suit() == led.Suit() {
		top := led
		for _, p := range v.Trick {
			if p.Card != card.Joker && p.Card.Suit() == led.Suit() && arlington.Higher(p.Card, top) {
				top = p.Card
			}
		}
		if arlington.Higher(c, top) {
			// Take with the lowest winning card: it goes to the graveyard.
			return 400 - rankOf(c) + keep/3
		}
	}
	return keep - rankOf(c)
}

// activePoints is what the active set of the round in play would score.
func activePoints(v arlington.View) int {
	if v.Round == nil {
		return 0
	}
	tab := v.Tables[v.Round.Owner]
	if len(tab) == 0 {
		return 0
	}
	return tab[len(tab)-1].Points
}

// rankOf is 0 (C2) to 51 (SA), jokers 60.
func rankOf(c card.Card) int {
	if c == card.Joker {
		return 60
	}
	return arlington.Index(c)
}

// useful reports whether c could go into a set with the rest of hand, or
// is special (a joker, the S2, an ace, the H2).
func useful(hand arlington.Set, c card.Card) bool {
	if c == card.Joker || c == arlington.S2 || c.Rank() == card.Ace || c == card.New(card.Two, card.Hearts) {
		return true
	}
	for _, o := range hand.Cards() {
		if o == c {
			continue
		}
		if o == card.Joker {
			return true
		}
		if o.Rank() == c.Rank() {
			return true
		}
		d := rankOf(o)/4 - rankOf(c)/4
		if o.Suit() == c.Suit() && d >= -2 && d <= 2 {
			return true
		}
		r1, r2 := min(o.Rank(), c.Rank()), max(o.Rank(), c.Rank())
		if (r1 == card.Queen && r2 == card.King) || (r1 == card.Jack && r2 == card.Queen) {
			return true
		}
	}
	return false
}
