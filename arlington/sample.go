package arlington

import (
	"encoding/json"
	"errors"
	"fmt"

	"cardtable/card"
)

// ErrView is wrapped by Sample's errors: the view is not one a State
// could have given.
var ErrView = errors.New("inconsistent view")

// Sample deals a world consistent with what v's seat knows, for search
// (OpenSpiel's resampling from an information state). The seat's own hand,
// the tables, the trick, the round, the scores and the cards known to be
// in each hand or the graveyard are as in v; every other card is dealt at
// random from r among the other hands (to their sizes) and the graveyard.
// The world's later deals come from a fresh seed drawn from r, never the
// real game's, so no search sees the next hand. It has no history or
// event log before this point (they are public, and search needs neither).
func Sample(v View, r *Rand) (*State, error) {
	n := v.Players
	if n < 2 || n > MaxSeats || v.Seat < 0 || v.Seat >= n || len(v.HandSizes) != n ||
		len(v.Tables) != n || len(v.Totals) != n || len(v.Known) != n {
		return nil, fmt.Errorf("%w: seat %d of %d players", ErrView, v.Seat, n)
	}
	p, err := v.position()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrView, err)
	}
	seed := r.Uint64()
	s := &State{
		cfg:    Config{Players: n, Target: v.Target},
		seed:   seed,
		rng:    Rand{s: seed},
		handNo: v.HandNumber,
		dealer: v.Dealer,
		phase:  v.Phase,
		lead:   v.Lead,
		toMove: v.ToMove,
		hands:  make([]Set, n),
		tables: p.tables,
		spec:   p.spec,
		owner:  v.Lead,
		totals: append([]int(nil), v.Totals...),
		known:  make([]Set, n),
	}
	if v.Round != nil {
		s.owner = v.Round.Owner
		s.lead = v.Round.Leader
	}
	seen, err := s.placeKnown(v, p.hand)
	if err != nil {
		return nil, err
	}
	s.hands[v.Seat] = p.hand
	s.grave = s.graveKnown
	if err := s.dealUnseen(v, seen, r); err != nil {
		return nil, err
	}
	if s.phase == PhaseOver {
		return nil, fmt.Errorf("%w: the game is over", ErrView)
	}
	return s, nil
}

// placeKnown puts in s the trick and the cards v knows the place of (in
// each other hand and in the graveyard), checking that with the own
// hand and the tables no card is placed twice; it returns every card
// placed.
func (s *State) placeKnown(v View, hand Set) (Set, error) {
	seen := hand // every card whose place is known
	place := func(x Set) error {
		if seen.Mask()&x.Mask() != 0 || seen.Jokers()+x.Jokers() > 2 {
			return fmt.Errorf("%w: %v placed twice", ErrView, Set(seen.Mask()&x.Mask()))
		}
		seen = seen.Union(x)
		return nil
	}
	for _, tab := range s.tables {
		for _, t := range tab {
			if err := place(t); err != nil {
				return 0, err
			}
		}
	}
	for _, t := range v.Trick {
		s.trick = append(s.trick, Played(t))
		one, _ := Set(0).With(t.Card)
		if err := place(one); err != nil {
			return 0, err
		}
	}
	var err error
	for i := range v.Players {
		if s.known[i], err = SetOf(v.Known[i]); err != nil {
			return 0, fmt.Errorf("%w: %w", ErrView, err)
		}
		if i == v.Seat {
			continue // the own hand is placed already and holds its known cards
		}
		if err := place(s.known[i]); err != nil {
			return 0, err
		}
		s.hands[i] = s.known[i]
	}
	if s.graveKnown, err = SetOf(v.GraveKnown); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrView, err)
	}
	if err := place(s.graveKnown); err != nil {
		return 0, err
	}
	return seen, nil
}

// dealUnseen deals the cards not in seen at random: each other hand
// filled to its size in v, the rest onto the graveyard.
func (s *State) dealUnseen(v View, seen Set, r *Rand) error {
	// Deal the unseen cards: shuffle them, then fill each other hand to
	// its size and put the rest on the graveyard.
	unseen := FullDeck.Minus(seen).Cards()
	for i := len(unseen) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		unseen[i], unseen[j] = unseen[j], unseen[i]
	}
	k := 0
	for i := range s.cfg.Players {
		if i == v.Seat {
			if s.hands[i].Len() != v.HandSizes[i] {
				return fmt.Errorf("%w: hand of %d cards, size %d", ErrView, s.hands[i].Len(), v.HandSizes[i])
			}
			continue
		}
		need := v.HandSizes[i] - s.hands[i].Len()
		if need < 0 || k+need > len(unseen) {
			return fmt.Errorf("%w: seat %d holds %d cards, %d known", ErrView, i, v.HandSizes[i], s.hands[i].Len())
		}
		s.hands[i] = s.hands[i].Union(setOfCards(unseen[k : k+need]))
		k += need
	}
	s.grave = s.grave.Union(setOfCards(unseen[k:]))
	if s.grave.Len() != v.Graveyard {
		return fmt.Errorf("%w: graveyard of %d cards, view counts %d", ErrView, s.grave.Len(), v.Graveyard)
	}
	return nil
}

func setOfCards(cs []card.Card) Set {
	var x Set
	for _, c := range cs {
		x, _ = x.With(c)
	}
	return x
}

// Reseed gives the game a fresh seed for its later deals (the current
// hand is unchanged). A search on a copy of a real game must call it, or
// it would see the real next hand.
func (s *State) Reseed(seed uint64) {
	s.seed = seed
	s.rng = Rand{s: seed}
}

// SameKnowledge reports how two views of one seat differ in what the seat
// knows of the position now (nil if they agree): everything but the event
// log and the finished hands, which a sampled world does not carry.
func SameKnowledge(a, b View) error {
	strip := func(v View) View {
		v.Events, v.EventsFrom, v.EventCount, v.Results = nil, 0, 0, nil
		return v
	}
	ja, _ := json.Marshal(strip(a))
	jb, _ := json.Marshal(strip(b))
	if string(ja) != string(jb) {
		return fmt.Errorf("%w: views differ:\n%s\n%s", ErrView, ja, jb)
	}
	return nil
}
