package arlington

import (
	"fmt"
	"strings"

	"cardtable/card"
)

// This file tells a player what the cards they select would do in the
// phase of play (the table page's preview). The words read the seat's view
// only, and of it never the hand: what they say of a card is true of any
// card the seat could hold, so they give nothing away and need no check
// that the cards are held.

// SelectionWords is what a player choosing cards in v needs to know of
// the selection s in v's phase, or "" when that is what s is as a set
// (a legal set of several cards when leading, or one answering: its
// spectra and points).
// names[i] is seat i's name, for the sets the words name.
// Leading, a group that is no set gets WhyNotSet, and a single card
// (a joker too) every move it has: led as a card, led as a set when it is
// one alone (an ace, the 2♥, a joker: its spectra and what it scores), and
// the sets on the tables it could be added to, put into in place of a
// joker, or (the S2) played on; in a
// trick, where one card is played and sets do not count, the words say
// whether the card can take the trick; answering a set, the S2 kills it,
// and a set that does not answer (not of the spectrum led, or not higher
// than the active set) is told why.
func SelectionWords(v View, s Set, names []string) string {
	single := s.Len() == 1 && s.Jokers() == 0
	switch v.Phase {
	case PhaseTrick:
		if s.Len() != 1 {
			if s.Empty() {
				return WhyNotSet(s)
			}
			return "One card is played to a trick: select just one."
		}
		return trickWords(v, s.Cards()[0])
	case PhaseRound:
		if single && s.Cards()[0] == card.New(card.Two, card.Spades) {
			return "The 2♠ kills the active set: both go to the graveyard, and you have the lead."
		}
		if v.Round != nil {
			if single && !Legal(s) {
				return fmt.Sprintf("%s, and an answer is a higher set of the spectrum led (%s).", aloneWords(s.Cards()[0]), SpectrumWords(v.Round.Spectrum))
			}
			if Legal(s) {
				return answerWords(v, s)
			}
		}
	case PhaseLead:
		if s.Len() == 1 {
			return leadAloneWords(v, s.Cards()[0], names)
		}
	}
	return WhyNotSet(s)
}

// answerWords is why the legal set s does not answer the set round in v
// (not of the spectrum led, or not higher than the active set), or "".
func answerWords(v View, s Set) string {
	sp := v.Round.Spectrum
	if !In(s, sp) {
		return fmt.Sprintf("Not an answer: an answer is a set of the spectrum led (%s), and %s is not.", SpectrumWords(sp), SetWords(s))
	}
	if v.Round.Owner < 0 || v.Round.Owner >= len(v.Tables) {
		return ""
	}
	for _, t := range v.Tables[v.Round.Owner] {
		active, err := SetOf(t.Cards)
		if !t.Active || err != nil {
			continue
		}
		if c, err := Compare(sp, s, active); err == nil && c <= 0 {
			return fmt.Sprintf("Not an answer: %s is not higher than the active set %s (%s).", SetWords(s), SetWords(active), SpectrumWords(sp))
		}
	}
	return ""
}

// trickWords is whether c, played to the trick in v, can take it: only a
// joker led first, else the highest card of the suit led, takes a trick.
func trickWords(v View, c card.Card) string {
	if len(v.Trick) == 0 {
		return "Play the " + CardWords(c) + "."
	}
	led := v.Trick[0].Card
	switch {
	case led == card.Joker:
		return fmt.Sprintf("A joker was led, and it takes the trick: the %s cannot.", CardWords(c))
	case c == card.Joker:
		return "A joker takes a trick only when it is led: played now, it cannot take this one."
	case c.Suit() != led.Suit():
		return fmt.Sprintf("The %s does not follow the suit led (%s), so it cannot take the trick.", CardWords(c), led.Suit().Name())
	}
	best := led
	for _, p := range v.Trick {
		if p.Card != card.Joker && p.Card.Suit() == led.Suit() && Higher(p.Card, best) {
			best = p.Card
		}
	}
	if Higher(best, c) {
		return fmt.Sprintf("The %s follows %s, but the %s played is higher: it cannot take the trick.", CardWords(c), led.Suit().Name(), CardWords(best))
	}
	// Seats still to play after this one, up to the leader; none can beat
	// an ace (aces are high).
	n := len(v.HandSizes)
	for k := 1; k < n && c.Rank() != card.Ace; k++ {
		i := ((v.Seat+k)%n + n) % n
		if i == v.Lead {
			break
		}
		if v.HandSizes[i] > 0 {
			return fmt.Sprintf("The %s is the highest of %s so far: it takes the trick unless a higher one follows.", CardWords(c), led.Suit().Name())
		}
	}
	return fmt.Sprintf("The %s takes the trick: the others' cards come into your hand, and you have the lead.", CardWords(c))
}

// leadAloneWords is what the lone card c can do when leading: always be
// led as a card; be led as a set when it is one alone (an ace, the 2♥ or
// a joker), in each spectrum it fits, with what it scores; and whatever else the legal-move
// checker finds for it on the tables in v (tableWords).
func leadAloneWords(v View, c card.Card, names []string) string {
	one, _ := Set(0).With(c)
	alts := tableWords(v, c, names)
	if !Legal(one) {
		return aloneWords(c) + " (" + strings.Join(append([]string{"lead it as a card instead"}, alts...), ", or ") + ")."
	}
	// On a table a set scores in the spectrum that gives it the most,
	// whichever it was led in (rules "Scoring"), so the points are said
	// once, n, the set's Points: a joker led as aces still scores as a
	// couple.
	spectra := SpectraOf(one)
	in := make([]string, len(spectra))
	best, n := spectra[0], PointsIn(one, spectra[0])
	for i, sp := range spectra {
		in[i] = SpectrumWords(sp)
		if p := PointsIn(one, sp); p > n {
			best, n = sp, p
		}
	}
	as := fmt.Sprintf("%s, %d %s", in[0], n, pointWord(n))
	// A single card led with no spectrum named is led as a card (rules
	// "Leading a Set"), so the set is offered with its spectrum.
	lead := "lead it as a card or as that set"
	if len(spectra) > 1 {
		as = fmt.Sprintf("%s, %d %s either way: it scores as %s", strings.Join(in, " or "), n, pointWord(n), SpectrumWords(best))
		lead = "lead it as a card or as a set in either spectrum"
	}
	return fmt.Sprintf("The %s alone is a set (%s): %s.", CardWords(c), as, strings.Join(append([]string{lead}, alts...), ", or "))
}

// tableWords is what the lone card c can do with the sets on the tables
// in v when leading, as the legal-move checker finds it from the tables
// alone: be added to a set, be put into a jokered set in place of a
// joker, or, the S2, be played on a set; nil when nothing.
func tableWords(v View, c card.Card, names []string) []string {
	p, err := v.tablesPosition()
	if err != nil {
		return nil
	}
	p.phase = PhaseLead
	p.hand, _ = Set(0).With(c)
	var adds, puts, s2 []string
	twoJokers := true // every set it can be put into has both jokers
	for _, a := range p.legal() {
		var to *[]string
		switch a.Kind {
		case AddCard:
			to = &adds
		case PickUp:
			to = &puts
			twoJokers = twoJokers && p.tables[a.Seat][a.Index].Jokers() == 2
		case PlayS2:
			to = &s2
		default:
			continue
		}
		*to = append(*to, whose(v, a.Seat, names)+" set "+SetWords(p.tables[a.Seat][a.Index]))
	}
	var alts []string
	if len(adds) > 0 {
		alts = append(alts, "add it to "+orList(adds))
	}
	if len(puts) > 0 {
		// The deck has two jokers, so a set holding both is the only
		// jokered one; which of the two the card replaces makes no
		// difference.
		joker := "its joker"
		if twoJokers {
			joker = "one of its jokers"
		}
		alts = append(alts, "put it into "+orList(puts)+" in place of "+joker+", which comes to your hand")
	}
	switch {
	case len(s2) == 1:
		alts = append(alts, "play it on "+s2[0]+": both go to the graveyard, and you keep the lead")
	case len(s2) > 1:
		alts = append(alts, "play it on any set on the tables: both go to the graveyard, and you keep the lead")
	}
	return alts
}

// pointWord is "point" or "points", as n asks.
func pointWord(n int) string {
	if n == 1 {
		return "point"
	}
	return "points"
}

// orList is "a", "a or b", "a, b or c"; past maxNamed, the rest are
// counted rather than named, so the sentence stays readable.
func orList(xs []string) string {
	const maxNamed = 3
	switch n := len(xs) - maxNamed; {
	case n == 1:
		return strings.Join(xs[:maxNamed], ", ") + " or one other set"
	case n > 1:
		return strings.Join(xs[:maxNamed], ", ") + fmt.Sprintf(" or one of %d other sets", n)
	}
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
