// Package arlington is the rules engine of Arlington (Dennis Paul Himes,
// 1998) for 2 to 6 players: the card and set orders, the four spectra,
// set comparison and scoring, the state of a game with its legal actions,
// per-seat views, and a game record that replays exactly.
//
// The engine is sequential, in the manner of OpenSpiel: exactly one seat
// may act at a time (ToMove), Legal lists what it may do, and Apply does it
// or refuses with an error naming the rule. All randomness (the cut and
// every shuffle) comes from the seed given to New, so a game is a pure
// function of its Config, seed and actions.
//
// docs/rules-arlington.md records every reading of the rules text that the
// engine had to choose, with the test that pins it.
package arlington

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"cardtable/card"
)

// Index is a suit card's place in the Arlington order, 0 (C2) to 51 (SA):
// rank first (twos lowest, aces highest), then suit (C < D < H < S). A
// joker has no index.
func Index(c card.Card) int {
	v := int(c.Rank())
	if v == int(card.Ace) {
		v = 14
	}
	return (v-2)*4 + int(c.Suit())
}

// cardAt is the suit card with Arlington index i.
func cardAt(i int) card.Card {
	v := i/4 + 2
	if v == 14 {
		v = int(card.Ace)
	}
	return card.New(card.Rank(v), card.Suit(i%4))
}

// value is a card's rank for Arlington: 2..14 with aces high.
func value(c card.Card) int {
	if c.Rank() == card.Ace {
		return 14
	}
	return int(c.Rank())
}

// Higher reports whether suit card a is higher than suit card b in the
// Arlington card order ("The Deck": rank first, then suit S > H > D > C).
func Higher(a, b card.Card) bool { return Index(a) > Index(b) }

// Set is a group of distinct cards of the one Arlington deck: bit i (0..51)
// holds the suit card of Index i and bits 52-53 count jokers (0 to 2). As an
// integer the suit-card mask orders sets of equal size exactly as the rules
// do: the set holding the highest card found in only one of them is higher.
// Set is also used for hands, the graveyard and the whole deck.
type Set uint64

const (
	jokerShift = 52
	suitBits   = uint64(1)<<52 - 1
	oneJoker   = Set(1) << jokerShift
)

// FullDeck is all 54 cards.
const FullDeck = Set(suitBits) | 2*oneJoker

// Valid reports whether s is a set of real cards: no bits beyond the
// suit cards and at most two jokers.
func (s Set) Valid() bool { return s>>(jokerShift+2) == 0 && s.Jokers() <= 2 }

// Mask is the set's suit cards as a bit mask indexed by Index.
func (s Set) Mask() uint64 { return uint64(s) & suitBits }

// Jokers is the number of jokers in the set.
func (s Set) Jokers() int { return int(s >> jokerShift & 3) }

// Len is the number of cards in the set.
func (s Set) Len() int { return bits.OnesCount64(s.Mask()) + s.Jokers() }

// Empty reports whether the set has no cards.
func (s Set) Empty() bool { return s == 0 }

// Has reports whether c is in the set.
func (s Set) Has(c card.Card) bool {
	if c == card.Joker {
		return s.Jokers() > 0
	}
	if !c.Valid() {
		return false
	}
	return s.Mask()>>Index(c)&1 == 1
}

// With is the set with c added; ok is false when c is already there (or
// both jokers are) or c is not a card.
func (s Set) With(c card.Card) (t Set, ok bool) {
	switch {
	case c == card.Joker:
		if s.Jokers() >= 2 {
			return s, false
		}
		return s + oneJoker, true
	case !c.Valid() || s.Has(c):
		return s, false
	}
	return s | Set(1)<<Index(c), true
}

// Without is the set with c removed; ok is false when c is not there.
func (s Set) Without(c card.Card) (t Set, ok bool) {
	if !s.Has(c) {
		return s, false
	}
	if c == card.Joker {
		return s - oneJoker, true
	}
	return s &^ (Set(1) << Index(c)), true
}

// Union is every card in s or t, jokers counted from both (so the union
// of two sets from one deck holds at most two).
func (s Set) Union(t Set) Set {
	return Set(s.Mask()|t.Mask()) | Set(min(s.Jokers()+t.Jokers(), 3))<<jokerShift
}

// Minus is s without t's cards (and with t's jokers fewer).
func (s Set) Minus(t Set) Set {
	return Set(s.Mask()&^t.Mask()) | Set(max(s.Jokers()-t.Jokers(), 0))<<jokerShift
}

// Contains reports whether every card of t is in s.
func (s Set) Contains(t Set) bool {
	return t.Mask()&^s.Mask() == 0 && t.Jokers() <= s.Jokers()
}

// Cards lists the set highest first, jokers last.
func (s Set) Cards() []card.Card {
	out := make([]card.Card, 0, s.Len())
	m := s.Mask()
	for m != 0 {
		i := 63 - bits.LeadingZeros64(m)
		out = append(out, cardAt(i))
		m &^= 1 << i
	}
	for range s.Jokers() {
		out = append(out, card.Joker)
	}
	return out
}

// String writes the set as the rules text does: {SA, HA, JK}, highest
// first, in the project's card notation.
func (s Set) String() string {
	cs := s.Cards()
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// ErrBadSet is wrapped by errors about groups of cards that cannot come
// from one deck.
var ErrBadSet = errors.New("bad cards")

// SetOf makes a Set of cards, refusing a suit card given twice or more than
// two jokers (one deck).
func SetOf(cs []card.Card) (Set, error) {
	var s Set
	for _, c := range cs {
		if !c.Valid() {
			return 0, fmt.Errorf("%w: %v is not a card", ErrBadSet, c)
		}
		t, ok := s.With(c)
		if !ok {
			if c == card.Joker {
				return 0, fmt.Errorf("%w: more than two jokers (the deck has two)", ErrBadSet)
			}
			return 0, fmt.Errorf("%w: %v given twice (the deck has one of each suit card)", ErrBadSet, c)
		}
		s = t
	}
	return s, nil
}

// ParseCards reads cards separated by spaces or commas, in either order
// ("SQ" or "QS", "HT", "10H", "JK"), optionally wrapped in braces as the
// rules text writes sets, and makes a Set of them.
func ParseCards(text string) (Set, error) {
	t := strings.TrimSpace(text)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "{"), "}")
	cs, err := card.ParseList(t)
	if err != nil {
		return 0, err
	}
	return SetOf(cs)
}

// Cards is a list of cards that reads and writes JSON as card notation
// strings (["KS","JK"]) rather than numbers.
type Cards []card.Card

// MarshalJSON writes the cards as notation strings.
func (cs Cards) MarshalJSON() ([]byte, error) {
	ss := make([]string, len(cs))
	for i, c := range cs {
		ss[i] = c.String()
	}
	return json.Marshal(ss)
}

// UnmarshalJSON reads notation strings.
func (cs *Cards) UnmarshalJSON(b []byte) error {
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	out := make(Cards, len(ss))
	for i, s := range ss {
		c, err := card.Parse(s)
		if err != nil {
			return err
		}
		out[i] = c
	}
	*cs = out
	return nil
}

// MarshalText writes a set as space-separated cards, so Sets inside JSON
// are readable.
func (s Set) MarshalText() ([]byte, error) { return []byte(card.Format(s.Cards())), nil }

// UnmarshalText reads what MarshalText writes.
func (s *Set) UnmarshalText(b []byte) error {
	t, err := ParseCards(string(b))
	if err != nil {
		return err
	}
	*s = t
	return nil
}
