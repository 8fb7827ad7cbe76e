package arlington

import "cardtable/card"

// cutForDealer is "The Hand": the players cut the deck and the highest
// suit card deals. Each seat in turn cuts a different card of one shuffled
// deck; a joker is no suit card, so it cannot win the cut, and if no seat
// cut a suit card (two players, both jokers) they cut again.
func (s *State) cutForDealer() {
	for {
		deck := s.shuffled()
		s.cut = append(s.cut[:0], deck[:s.cfg.Players]...)
		best := -1
		for seat, c := range s.cut {
			if c != card.Joker && (best < 0 || Higher(c, s.cut[best])) {
				best = seat
			}
		}
		if best >= 0 {
			s.dealer = best
			return
		}
	}
}

// shuffled is the 54 cards shuffled by Fisher-Yates from the game's rng.
func (s *State) shuffled() []card.Card {
	deck := FullDeck.Cards()
	for i := len(deck) - 1; i > 0; i-- {
		j := s.rng.Intn(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck
}

// deal starts a hand: eight cards one at a time to each player from the
// dealer's left, the rest to the graveyard, and the dealer's left leads.
func (s *State) deal() {
	n := s.cfg.Players
	s.handNo++
	deck := s.shuffled()
	for i := range s.hands {
		s.hands[i] = 0
		s.tables[i] = s.tables[i][:0]
	}
	k := 0
	for range HandSize {
		for i := 1; i <= n; i++ {
			seat := (s.dealer + i) % n
			s.hands[seat], _ = s.hands[seat].With(deck[k])
			k++
		}
	}
	s.grave, _ = SetOf(deck[k:])
	s.trick = s.trick[:0]
	s.lead = (s.dealer + 1) % n
	ev := Event{Kind: EventDeal, Seat: s.dealer}
	if s.handNo == 1 {
		ev.Cut = append([]card.Card(nil), s.cut...)
	}
	s.log(ev)
	s.startPlay()
}

// startPlay is the start of a play: the player with the lead acts, or if
// she has no cards the hand is scored ("The Hand").
func (s *State) startPlay() {
	if s.hands[s.lead].Empty() {
		s.scoreHand()
		return
	}
	s.phase = PhaseLead
	s.toMove = s.lead
}

// scoreHand is "Scoring" and "The Game".
func (s *State) scoreHand() {
	n := s.cfg.Players
	res := HandResult{Hand: s.handNo, Dealer: s.dealer, Tables: make([][]Set, n), Scores: make([]int, n)}
	over := false
	for i := range n {
		res.Tables[i] = append([]Set(nil), s.tables[i]...)
		for _, t := range s.tables[i] {
			res.Scores[i] += Points(t)
		}
		s.totals[i] += res.Scores[i]
		if s.totals[i] >= s.cfg.Target {
			over = true
		}
	}
	s.results = append(s.results, res)
	s.log(Event{Kind: EventScore, Seat: -1, Scores: append([]int(nil), res.Scores...)})
	if over {
		// Every card goes to the graveyard, so the 54 stay accounted for.
		for i := range n {
			s.grave = s.grave.Union(s.hands[i])
			s.hands[i] = 0
			for _, t := range s.tables[i] {
				s.grave = s.grave.Union(t)
			}
			s.tables[i] = s.tables[i][:0]
		}
		s.phase = PhaseOver
		s.toMove = -1
		return
	}
	s.dealer = (s.dealer + 1) % n
	s.deal()
}
