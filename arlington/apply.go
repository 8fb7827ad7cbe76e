package arlington

import "cardtable/card"

// Apply has seat take action a. An action the rules do not allow is
// refused with a *RuleError (wrapping ErrIllegal) and changes nothing.
func (s *State) Apply(seat int, a Action) error {
	a, err := s.check(seat, a)
	if err != nil {
		return err
	}
	s.history = append(s.history, Move{Seat: seat, Action: a})
	s.log(s.moveEvent(seat, a))
	switch a.Kind {
	case LeadCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.trick = append(s.trick[:0], Played{Seat: seat, Card: a.Card})
		s.phase = PhaseTrick
		s.lead = seat
		s.nextInTrick(seat)
	case PlayCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.trick = append(s.trick, Played{Seat: seat, Card: a.Card})
		s.nextInTrick(seat)
	case PlaySet:
		s.hands[seat] = s.hands[seat].Minus(a.Set)
		if s.phase == PhaseLead {
			s.phase = PhaseRound
			s.spec = a.Spectrum
			s.lead = seat
		} else {
			s.grave = s.grave.Union(s.popActive())
		}
		s.tables[seat] = append(s.tables[seat], a.Set)
		s.owner = seat
		s.nextResponder(seat)
	case Pass:
		s.nextResponder(seat)
	case Kill:
		s.hands[seat], _ = s.hands[seat].Without(S2)
		s.grave, _ = s.grave.Union(s.popActive()).With(S2)
		s.lead = seat
		s.startPlay()
	case PlayS2:
		s.hands[seat], _ = s.hands[seat].Without(S2)
		t := s.tables[a.Seat][a.Index]
		s.tables[a.Seat] = append(s.tables[a.Seat][:a.Index], s.tables[a.Seat][a.Index+1:]...)
		s.grave, _ = s.grave.Union(t).With(S2)
		s.startPlay()
	case AddCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.tables[a.Seat][a.Index], _ = s.tables[a.Seat][a.Index].With(a.Card)
		s.startPlay()
	case PickUp:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.hands[seat], _ = s.hands[seat].With(card.Joker)
		t, _ := s.tables[a.Seat][a.Index].Without(card.Joker)
		s.tables[a.Seat][a.Index], _ = t.With(a.Card)
		s.startPlay()
	}
	return nil
}

// moveEvent is the public event of seat's action a, about to be applied:
// where its cards go face up. It also forgets the cards a takes from
// the seat's hand among those known to be there.
func (s *State) moveEvent(seat int, a Action) Event {
	ev := Event{Kind: EventMove, Seat: seat, Action: a}
	switch a.Kind {
	case LeadCard, PlayCard, AddCard, PickUp:
		one, _ := Set(0).With(a.Card)
		s.forget(seat, one)
	case PlaySet:
		s.forget(seat, a.Set)
		if s.phase == PhaseRound {
			t := s.tables[s.owner]
			ev.ToGrave = t[len(t)-1]
		}
	case Kill:
		s.forget(seat, s2Set)
		t := s.tables[s.owner]
		ev.ToGrave = t[len(t)-1] | s2Set
	case PlayS2:
		s.forget(seat, s2Set)
		ev.ToGrave = s.tables[a.Seat][a.Index] | s2Set
	}
	if a.Kind == PickUp {
		ev.ToHand = oneJoker
	}
	return ev
}

// popActive takes the active set off its owner's table.
func (s *State) popActive() Set {
	t := s.tables[s.owner]
	a := t[len(t)-1]
	s.tables[s.owner] = t[:len(t)-1]
	return a
}

// nextInTrick moves the trick on to the next seat clockwise after from,
// other than the leader, with a card; when there is none the trick is
// complete and is taken.
func (s *State) nextInTrick(from int) {
	n := s.cfg.Players
	for i := (from + 1) % n; i != s.lead; i = (i + 1) % n {
		if !s.hands[i].Empty() {
			s.toMove = i
			return
		}
	}
	// "If a joker was the first card played in the trick it takes the
	// trick", else the highest card of the led suit.
	led := s.trick[0].Card
	win := 0
	if led != card.Joker {
		for i, p := range s.trick {
			if p.Card != card.Joker && p.Card.Suit() == led.Suit() && Higher(p.Card, s.trick[win].Card) {
				win = i
			}
		}
	}
	taker := s.trick[win].Seat
	var toHand, toGrave Set
	for i, p := range s.trick {
		if i == win {
			toGrave, _ = toGrave.With(p.Card)
		} else {
			toHand, _ = toHand.With(p.Card)
		}
	}
	s.grave = s.grave.Union(toGrave)
	s.hands[taker] = s.hands[taker].Union(toHand)
	s.log(Event{Kind: EventTake, Seat: taker, ToHand: toHand, ToGrave: toGrave})
	s.trick = s.trick[:0]
	s.lead = taker
	s.startPlay()
}

// nextResponder passes the response to the next seat clockwise after from
// with a card, up to the seat at the leader's right; when there is none
// the owner of the active set has the lead.
func (s *State) nextResponder(from int) {
	n := s.cfg.Players
	for i := (from + 1) % n; i != s.lead; i = (i + 1) % n {
		if !s.hands[i].Empty() {
			s.toMove = i
			return
		}
	}
	s.lead = s.owner
	s.startPlay()
}
