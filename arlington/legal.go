package arlington

import "cardtable/card"

// activeKey is the active set's key in the round's spectrum.
func (s *State) activeKey() Key {
	t := s.tables[s.owner]
	k, _ := KeyIn(t[len(t)-1], s.spec)
	return k
}

// Legal lists every action seat may take now (nil when it is not seat's
// turn). Sets always name their spectrum.
func (s *State) Legal(seat int) []Action {
	if s.phase == PhaseOver || seat != s.toMove {
		return nil
	}
	p := position{phase: s.phase, hand: s.hands[seat], tables: s.tables, spec: s.spec}
	if s.phase == PhaseRound {
		p.active = s.activeKey()
	}
	return p.legal()
}

// position is what legal-move generation needs; State and View both make
// one, so a seat's view yields exactly the state's legal actions.
type position struct {
	phase  Phase
	hand   Set
	tables [][]Set
	spec   Spectrum
	active Key
}

func (p position) legal() []Action {
	var out []Action
	cards := p.hand.Cards()
	if p.hand.Jokers() == 2 {
		cards = cards[:len(cards)-1] // the two jokers are alike: one action each
	}
	switch p.phase {
	case PhaseTrick:
		for _, c := range cards {
			out = append(out, Action{Kind: PlayCard, Card: c})
		}
	case PhaseRound:
		out = append(out, Action{Kind: Pass})
		if p.hand.Has(S2) {
			out = append(out, Action{Kind: Kill})
		}
		setsIn(p.hand, p.spec, func(t Set) {
			if k, _ := KeyIn(t, p.spec); k > p.active {
				out = append(out, Action{Kind: PlaySet, Set: t, Spectrum: p.spec})
			}
		})
	case PhaseLead:
		for _, c := range cards {
			out = append(out, Action{Kind: LeadCard, Card: c})
		}
		for _, sp := range Spectra {
			setsIn(p.hand, sp, func(t Set) {
				out = append(out, Action{Kind: PlaySet, Set: t, Spectrum: sp})
			})
		}
		hasS2 := p.hand.Has(S2)
		for seat, tab := range p.tables {
			for i, t := range tab {
				if hasS2 {
					out = append(out, Action{Kind: PlayS2, Seat: seat, Index: i})
				}
				for _, c := range cards {
					if u, ok := t.With(c); ok && Legal(u) {
						out = append(out, Action{Kind: AddCard, Card: c, Seat: seat, Index: i})
					}
				}
				if t.Jokers() > 0 {
					for _, c := range cards {
						if c == card.Joker {
							continue
						}
						u, _ := t.Without(card.Joker)
						if u, ok := u.With(c); ok && Legal(u) {
							out = append(out, Action{Kind: PickUp, Card: c, Seat: seat, Index: i})
						}
					}
				}
			}
		}
	}
	return out
}

// canonical clears the fields a's kind does not use, so that equal moves
// are == and records print exactly what was done.
func canonical(a Action) Action {
	switch a.Kind {
	case LeadCard, PlayCard:
		return Action{Kind: a.Kind, Card: a.Card}
	case PlaySet:
		return Action{Kind: a.Kind, Set: a.Set, Spectrum: a.Spectrum}
	case Pass, Kill:
		return Action{Kind: a.Kind}
	case PlayS2:
		return Action{Kind: a.Kind, Seat: a.Seat, Index: a.Index}
	case AddCard, PickUp:
		return Action{Kind: a.Kind, Card: a.Card, Seat: a.Seat, Index: a.Index}
	}
	return a
}

// normalize resolves an unnamed spectrum the way the rules text does.
func (s *State) normalize(a Action) Action {
	a = canonical(a)
	if a.Kind != PlaySet || a.Spectrum != NoSpectrum {
		return a
	}
	switch s.phase {
	case PhaseRound:
		a.Spectrum = s.spec
	case PhaseLead:
		if a.Set.Len() == 1 {
			// "it is assumed that a single card is being lead as a card"
			return Action{Kind: LeadCard, Card: a.Set.Cards()[0]}
		}
		if sp := DefaultSpectrum(a.Set); sp != NoSpectrum {
			a.Spectrum = sp
		}
	}
	return a
}

// Normalize is the action Apply would take for a: an unnamed spectrum
// resolved as the rules text says (see ParseAction).
func (s *State) Normalize(a Action) Action { return s.normalize(a) }

// Check reports whether seat may take a now, with the rule it breaks if
// not. It changes nothing.
func (s *State) Check(seat int, a Action) error {
	_, err := s.check(seat, a)
	return err
}

// check is Check, returning the action as Apply takes it: with the fields
// its kind does not use cleared and an unnamed spectrum resolved. It asks
// first whether seat may act at all, then what the phase allows; each
// kind of action has its own rule, in a function of its own.
func (s *State) check(seat int, a Action) (Action, error) {
	if err := s.checkTurn(seat); err != nil {
		return a, err
	}
	// Before normalize, which reads the set's cards (a single card
	// becomes a card led) and so needs real ones.
	if a.Kind == PlaySet && (!a.Set.Valid() || a.Set.Empty()) {
		return a, refuse("Sets", "not a set of cards from the deck")
	}
	a = s.normalize(a)
	hand := s.hands[seat]
	switch s.phase {
	case PhaseTrick:
		return a, checkTrickPlay(hand, a)
	case PhaseRound:
		return a, s.checkResponse(hand, a)
	}
	return a, s.checkLeadAction(hand, a)
}

// checkTurn reports whether seat may act at all: the game goes on, the
// seat exists and it is its turn.
func (s *State) checkTurn(seat int) error {
	if s.phase == PhaseOver {
		return refuse("The Game", "the game is over")
	}
	if seat < 0 || seat >= s.cfg.Players {
		return refuseIndexed("The Hand", "there is no seat %d", index(seat))
	}
	if seat != s.toMove {
		return refuseIndexed("The Hand", "it is seat %d's turn, not seat %d's", index(s.toMove), index(seat))
	}
	return nil
}

// checkTrickPlay is the rule of a trick: once a card is led, each other
// player plays a card from hand, and may not pass.
func checkTrickPlay(hand Set, a Action) error {
	if a.Kind != PlayCard {
		return refuse("Leading a Card", "a card was led: play a card to the trick (no passing)")
	}
	if !hand.Has(a.Card) {
		return refuse("Leading a Card", "%v is not in your hand", a.Card)
	}
	return nil
}

// checkResponse is the rule of a set round: pass, kill the active set
// with the S2, or play a higher set in the spectrum led.
func (s *State) checkResponse(hand Set, a Action) error {
	switch a.Kind {
	case Pass:
		return nil
	case Kill:
		return checkKill(hand)
	case PlaySet:
		return s.checkHigherSet(hand, a)
	}
	return refuse("Leading a Set", "a set is active: pass, kill it with the S2, or play a higher set in %v", s.spec)
}

// checkKill: only the S2's holder can kill the active set.
func checkKill(hand Set) error {
	if !hand.Has(S2) {
		return refuse("Leading a Set", "you do not hold the S2, so you cannot kill the active set")
	}
	return nil
}

// checkHigherSet is a response set: from the hand, in the round's
// spectrum and strictly higher than the active set there.
func (s *State) checkHigherSet(hand Set, a Action) error {
	if !hand.Contains(a.Set) {
		return refuse("Leading a Set", "%v is not all in your hand", a.Set)
	}
	if a.Spectrum != s.spec {
		return refuse("Leading a Set", "a response must be in the spectrum originally led, %v, not %v", s.spec, a.Spectrum)
	}
	k, ok := KeyIn(a.Set, s.spec)
	if !ok {
		return refuse("Sets", "%v is not a legal set in %v", a.Set, s.spec)
	}
	if k <= s.activeKey() {
		t := s.tables[s.owner]
		return refuse("Leading a Set", "%v is not higher than the active set %v in %v (it must be higher, not equal)", a.Set, t[len(t)-1], s.spec)
	}
	return nil
}

// checkLeadAction is the rule of the player with the lead: one of the
// five actions of "The Hand".
func (s *State) checkLeadAction(hand Set, a Action) error {
	switch a.Kind {
	case LeadCard:
		return checkLeadCard(hand, a)
	case PlaySet:
		return checkLeadSet(hand, a)
	case PlayS2:
		return s.checkPlayS2(hand, a)
	case AddCard:
		return s.checkAddCard(hand, a)
	case PickUp:
		return s.checkPickUp(hand, a)
	}
	return refuse("The Hand", "you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker")
}

// checkLeadCard: any card in hand may be led.
func checkLeadCard(hand Set, a Action) error {
	if !hand.Has(a.Card) {
		return refuse("Leading a Card", "%v is not in your hand", a.Card)
	}
	return nil
}

// checkLeadSet: a set led is from the hand and legal in the spectrum it
// names; one legal only elsewhere is told where it is legal.
func checkLeadSet(hand Set, a Action) error {
	if !hand.Contains(a.Set) {
		return refuse("Leading a Set", "%v is not all in your hand", a.Set)
	}
	if a.Spectrum == NoSpectrum {
		return refuse("Sets", "%v is not a legal set", a.Set)
	}
	if !In(a.Set, a.Spectrum) {
		if Legal(a.Set) {
			return refuse("Sets", "%v is not in the %v spectrum (it is in %v)", a.Set, a.Spectrum, SpectraOf(a.Set))
		}
		return refuse("Sets", "%v is not a legal set", a.Set)
	}
	return nil
}

// checkPlayS2: the S2's holder may take any set on any table to the
// graveyard.
func (s *State) checkPlayS2(hand Set, a Action) error {
	if !hand.Has(S2) {
		return refuse("Playing the Two of Spades", "you do not hold the S2")
	}
	_, err := s.target("Playing the Two of Spades", a)
	return err
}

// checkAddCard: a card from hand may join a set on any table if the
// result is a legal set in some spectrum.
func (s *State) checkAddCard(hand Set, a Action) error {
	t, err := s.target("Adding to a Set", a)
	if err != nil {
		return err
	}
	if !hand.Has(a.Card) {
		return refuse("Adding to a Set", "%v is not in your hand", a.Card)
	}
	u, _ := t.With(a.Card)
	if !Legal(u) {
		return refuse("Adding to a Set", "%v would not be a legal set in any spectrum", u)
	}
	return nil
}

// checkPickUp: a card from hand may take a joker's place in a set on any
// table if the result is a legal set in some spectrum.
func (s *State) checkPickUp(hand Set, a Action) error {
	t, err := s.target("Picking up a Joker", a)
	if err != nil {
		return err
	}
	if t.Jokers() == 0 {
		return refuse("Picking up a Joker", "%v has no joker", t)
	}
	if a.Card == card.Joker {
		return refuse("Picking up a Joker", "a joker cannot replace a joker: the swap would change nothing")
	}
	if !hand.Has(a.Card) {
		return refuse("Picking up a Joker", "%v is not in your hand", a.Card)
	}
	u, _ := t.Without(card.Joker)
	u, _ = u.With(a.Card)
	if !Legal(u) {
		return refuse("Picking up a Joker", "%v would not be a legal set in any spectrum", u)
	}
	return nil
}

// target is the table set a names (a.Seat, a.Index), or the refusal under
// rule when there is none.
func (s *State) target(rule string, a Action) (Set, error) {
	if a.Seat < 0 || a.Seat >= s.cfg.Players || a.Index < 0 || a.Index >= len(s.tables[a.Seat]) {
		return 0, refuseIndexed(rule, "there is no set %d on seat %d's table (it has %d)", index(a.Index), index(a.Seat), s.tableLen(a.Seat))
	}
	return s.tables[a.Seat][a.Index], nil
}

func (s *State) tableLen(seat int) int {
	if seat < 0 || seat >= len(s.tables) {
		return 0
	}
	return len(s.tables[seat])
}
