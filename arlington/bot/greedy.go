package bot

import (
	"context"
	"fmt"
	"math"

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
func (g *Greedy) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	if err := ctx.Err(); err != nil {
		return arlington.Action{}, err
	}
	p, err := posOfView(v)
	if err != nil {
		return arlington.Action{}, err
	}
	a, ok := g.choose(p, v.Legal())
	if !ok {
		return a, fmt.Errorf("%w: seat %d", ErrNoAction, v.Seat)
	}
	return a, nil
}

// pos is what the greedy heuristic reads: a view's or a state's position
// from seat me's side, so rollouts on a State need no View.
type pos struct {
	me     int
	phase  arlington.Phase
	hand   arlington.Set
	tables [][]arlington.Set
	owner  int // the round's active set's owner, -1 outside a set round
	trick  []arlington.Played
}

func posOfView(v arlington.View) (pos, error) {
	hand, err := arlington.SetOf(v.Hand)
	if err != nil {
		return pos{}, err
	}
	p := pos{me: v.Seat, phase: v.Phase, hand: hand, owner: -1, tables: make([][]arlington.Set, len(v.Tables))}
	for i, tab := range v.Tables {
		p.tables[i] = make([]arlington.Set, len(tab))
		for k := range tab {
			p.tables[i][k] = v.Set(i, k)
		}
	}
	if v.Round != nil {
		p.owner = v.Round.Owner
	}
	for _, t := range v.Trick {
		p.trick = append(p.trick, arlington.Played(t))
	}
	return p, nil
}

func posOfState(s *arlington.State, seat int) pos {
	return pos{me: seat, phase: s.Phase(), hand: s.Hand(seat), tables: s.Tables(), owner: s.RoundOwner(), trick: s.Trick()}
}

// activePoints is what the active set of the round in play would score.
func (p pos) activePoints() int {
	if p.owner < 0 || len(p.tables[p.owner]) == 0 {
		return 0
	}
	tab := p.tables[p.owner]
	return arlington.Points(tab[len(tab)-1])
}

// choose is the best-scoring of legal, ties broken at random.
func (g *Greedy) choose(p pos, legal []arlington.Action) (arlington.Action, bool) {
	if len(legal) == 0 {
		return arlington.Action{}, false
	}
	best, bestScore, ties := legal[0], -1<<30, 0
	for _, a := range legal {
		sc := g.score(p, a)
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
	return best, true
}

// policy is the play-out's action for seat in s among legal (not
// empty): greedy play's best with temp 0, else chooseSoft's draw.
func (g *Greedy) policy(s *arlington.State, seat int, legal []arlington.Action, temp int) arlington.Action {
	if temp > 0 {
		a, _ := g.chooseSoft(posOfState(s, seat), legal, temp)
		return a
	}
	a, _ := g.choose(posOfState(s, seat), legal)
	return a
}

// chooseSoft draws one of legal with weight exp(score/temp) relative to
// the best score; actions more than 8 temperatures below the best are
// never drawn.
func (g *Greedy) chooseSoft(p pos, legal []arlington.Action, temp int) (arlington.Action, bool) {
	if len(legal) == 0 {
		return arlington.Action{}, false
	}
	var buf [64]int
	sc := buf[:0]
	best := -1 << 30
	for _, a := range legal {
		x := g.score(p, a)
		sc = append(sc, x)
		best = max(best, x)
	}
	var wbuf [64]float64
	w := wbuf[:0]
	total := 0.0
	for _, x := range sc {
		d := best - x
		e := 0.0
		if d <= 8*temp {
			e = math.Exp(-float64(d) / float64(temp))
		}
		w = append(w, e)
		total += e
	}
	u := unit(g.r) * total
	for i, e := range w {
		if u < e {
			return legal[i], true
		}
		u -= e
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return legal[i], true
		}
	}
	return legal[0], true
}

// score rates a in hundredths of a point, roughly.
func (g *Greedy) score(p pos, a arlington.Action) int {
	me, hand := p.me, p.hand
	switch a.Kind {
	case arlington.LeadCard:
		// Leading a card we cannot use is the fallback; a high one may take
		// the trick and bring in the others' cards.
		if useful(hand, a.Card) {
			return -500 + rankOf(a.Card)
		}
		return rankOf(a.Card)
	case arlington.PlayCard:
		return trickScore(p, a.Card)
	case arlington.PlaySet:
		pts := arlington.Points(a.Set)
		sc := pts*100 - a.Set.Jokers()*60 // jokers can be picked up by others
		if p.phase == arlington.PhaseRound {
			// Replacing the active set also sends it to the graveyard.
			if p.owner >= 0 && p.owner != me {
				sc += p.activePoints() * 50
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
		if p.owner == me {
			return -1000
		}
		return p.activePoints()*100 - p.s2Reserve()
	case arlington.PlayS2:
		t := p.tables[a.Seat][a.Index]
		if a.Seat == me {
			return -1000
		}
		return arlington.Points(t)*100 - p.s2Reserve()
	case arlington.AddCard:
		t := p.tables[a.Seat][a.Index]
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
		t := p.tables[a.Seat][a.Index]
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

// s2Reserve is what holding on to the S2 is worth, in the score's
// hundredths: kept, it can kill a set worth more later. As the last card
// in hand it has no later (it can only be thrown into someone's trick,
// and a kill with it ends the hand), so any opposing set is worth it.
func (p pos) s2Reserve() int {
	if p.hand.Len() == 1 {
		return 0
	}
	return 250
}

func trickScore(p pos, c card.Card) int {
	if len(p.trick) == 0 {
		return 0
	}
	led := p.trick[0].Card
	keep := 0
	if useful(p.hand, c) {
		keep = -300
	}
	if led != card.Joker && c != card.Joker && c.Suit() == led.Suit() {
		top := led
		for _, t := range p.trick {
			if t.Card != card.Joker && t.Card.Suit() == led.Suit() && arlington.Higher(t.Card, top) {
				top = t.Card
			}
		}
		if arlington.Higher(c, top) {
			// Take with the lowest winning card: it goes to the graveyard.
			return 400 - rankOf(c) + keep/3
		}
	}
	return keep - rankOf(c)
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
