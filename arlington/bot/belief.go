package bot

import (
	"cardtable/arlington"
	"cardtable/card"
)

// A belief over deals: instead of taking the searches' worlds as they
// come (worlds.go), the master level weighs each sampled world by how likely the opponents'
// observed actions of this hand were in it, and keeps a world with that
// probability (rejection sampling: the worlds kept follow the uniform
// deal times the weight). The evidence is what a seat did not do:
//
//   - it passed on a set it could have killed with the S2 (more telling
//     the more the set was worth),
//   - it passed on a set it could have beaten in the round's spectrum,
//   - it played to a trick without taking it while holding a higher card
//     of the suit led.
//
// Every card of an opponent's hand that nobody has seen was dealt to it
// and has been there all hand (a card taken in a trick or a picked-up
// joker is public), so the cards a world deals an opponent were in its
// hand at each of its earlier decisions of the hand. The evidence reads
// only the public event log of the seat's view.

// evKind is what an opponent declined.
type evKind uint8

const (
	evPass evKind = iota // passed on the active set
	evDuck               // played to a trick without taking it
)

// evidence is one opponent decision of the hand.
type evidence struct {
	kind   evKind
	seat   int
	active arlington.Set      // evPass: the active set passed on
	spec   arlington.Spectrum // evPass: the round's spectrum
	pts    int                // evPass: what the active set scored
	best   card.Card          // evDuck: the card taking the trick then
}

// weights are how likely a seat that could have done better did what it
// did, against one that could not (1 would be no evidence), by the value
// of the set passed on where it matters. They were fitted to expert's
// play (docs/bots.md, "master"): counted over expert's own decisions in
// games of expert against expert, 48 with 2 players and 8 with 4, and
// rounded toward 1 where the count was small. With 2 players expert
// kills even a 2-point set with the S2 and seldom lets a trick go; with
// more it leaves cheap sets to the others and takes what it can. They
// stay soft: a person may keep the S2 for a bigger set, or hold a set back.
type weights struct {
	kill  [2]float64 // passed holding the S2 on a set worth 2, 3 or more (less: no evidence)
	raise [2]float64 // passed holding a higher set in the spectrum, on a set worth up to 2, 3 or more
	duck  float64    // did not take a trick it could take
}

var (
	weights2 = weights{kill: [2]float64{0.35, 0.3}, raise: [2]float64{0.2, 0.1}, duck: 0.5}
	weightsN = weights{kill: [2]float64{0.9, 0.5}, raise: [2]float64{0.35, 0.8}, duck: 0.2}
)

// weightsFor is the evidence weights of a table of players.
func weightsFor(players int) weights {
	if players <= 2 {
		return weights2
	}
	return weightsN
}

// belief is the evidence of a view and the cards known to be in each
// hand, read once per decision and shared read-only by the search.
type belief struct {
	v     arlington.View
	known []arlington.Set
	ev    []evidence
}

// newBelief reads the evidence of v's hand from its event log (what part
// of the log the view carries: a view cut short gives less evidence).
func newBelief(v arlington.View) belief {
	b := belief{v: v, known: make([]arlington.Set, v.Players)}
	for i, k := range v.Known {
		if i < len(b.known) {
			b.known[i], _ = arlington.SetOf(k)
		}
	}
	var (
		active arlington.Set
		spec   arlington.Spectrum
		led    card.Card
		best   card.Card
		inPlay bool // a trick is in play and can be taken
	)
	for _, e := range v.Events {
		if e.Hand != v.HandNumber {
			continue
		}
		if e.Kind == arlington.EventTake {
			inPlay = false
			continue
		}
		if e.Kind != arlington.EventMove || e.Seat < 0 || e.Seat >= v.Players {
			continue // a seat the table lacks: no evidence about anyone
		}
		a := e.Action
		switch a.Kind {
		case arlington.PlaySet:
			active, spec = a.Set, a.Spectrum
		case arlington.Pass:
			if e.Seat != v.Seat && active != 0 {
				b.ev = append(b.ev, evidence{kind: evPass, seat: e.Seat, active: active, spec: spec, pts: arlington.Points(active)})
			}
		case arlington.LeadCard:
			led, best, inPlay = a.Card, a.Card, a.Card != card.Joker
		case arlington.PlayCard:
			if !inPlay {
				continue
			}
			takes := a.Card != card.Joker && a.Card.Suit() == led.Suit() && arlington.Higher(a.Card, best)
			if takes {
				best = a.Card
			} else if e.Seat != v.Seat {
				b.ev = append(b.ev, evidence{kind: evDuck, seat: e.Seat, best: best})
			}
		}
	}
	return b
}

// weight is how likely the evidence is in world s, from 0 to 1.
func (b belief) weight(s *arlington.State) float64 {
	wt := weightsFor(b.v.Players)
	w := 1.0
	for _, e := range b.ev {
		hidden := s.Hand(e.seat).Minus(b.known[e.seat])
		switch e.kind {
		case evPass:
			if e.pts >= 2 && hidden.Has(arlington.S2) {
				w *= wt.kill[min(e.pts, 3)-2]
			}
			if arlington.Beats(hidden, e.spec, e.active) {
				w *= wt.raise[min(max(e.pts, 2), 3)-2]
			}
		case evDuck:
			if higherOfSuit(hidden, e.best) {
				w *= wt.duck
			}
		}
	}
	return w
}

// higherOfSuit reports whether hand holds a card of c's suit above c.
func higherOfSuit(hand arlington.Set, c card.Card) bool {
	for _, x := range hand.Cards() {
		if x != card.Joker && x.Suit() == c.Suit() && arlington.Higher(x, c) {
			return true
		}
	}
	return false
}

// beliefTries bounds the worlds drawn for one kept: past it the most
// likely of those drawn is kept, so a view whose evidence no deal fits
// well still answers in bounded time.
const beliefTries = 24

// sample deals a world from the belief: the searches' worlds (sample,
// worlds.go: uniform but for an unseen S2, placed as a kept card) kept
// with their weight's probability.
func (b belief) sample(r *arlington.Rand) (*arlington.State, error) {
	var best *arlington.State
	bestW := -1.0
	for range beliefTries {
		s, err := sample(b.v, r)
		if err != nil {
			return nil, err
		}
		w := b.weight(s)
		if w >= 1 || unit(r) < w {
			return s, nil
		}
		if w > bestW {
			best, bestW = s, w
		}
	}
	return best, nil
}

// unit is a uniform draw in [0, 1).
func unit(r *arlington.Rand) float64 { return float64(r.Uint64()>>11) / (1 << 53) }
