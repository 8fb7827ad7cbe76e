// Package card holds the playing cards every cardtable game shares: ranks,
// suits, jokers, the one card notation of the project, decks and the
// PySolFC-compatible deal numbers.
//
// A Card is one byte so that rules engines and search code can keep whole
// positions in small fixed arrays and copy them cheaply.
package card

import (
	"errors"
	"fmt"
	"strings"
)

// Rank is a card's rank, Ace (1) to King (13). Games decide for themselves
// whether aces rank high.
type Rank uint8

// Ranks.
const (
	Ace   Rank = 1
	Two   Rank = 2
	Three Rank = 3
	Four  Rank = 4
	Five  Rank = 5
	Six   Rank = 6
	Seven Rank = 7
	Eight Rank = 8
	Nine  Rank = 9
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

const rankLetters = "?A23456789TJQK"

// String is the rank's one-letter name: A 2..9 T J Q K.
func (r Rank) String() string {
	if r < Ace || r > King {
		return "?"
	}
	return rankLetters[r : r+1]
}

// Suit is a card's suit. The numeric order is the bridge order
// (clubs < diamonds < hearts < spades), which Arlington uses as its rank.
type Suit uint8

// Suits.
const (
	Clubs    Suit = 0
	Diamonds Suit = 1
	Hearts   Suit = 2
	Spades   Suit = 3
)

// Suits lists the four suits in ascending order.
var Suits = [4]Suit{Clubs, Diamonds, Hearts, Spades}

const suitLetters = "CDHS"

// String is the suit's one-letter name: C D H S.
func (s Suit) String() string {
	if s > Spades {
		return "?"
	}
	return suitLetters[s : s+1]
}

// Name is the suit's English name, for screen readers and messages.
func (s Suit) Name() string {
	switch s {
	case Clubs:
		return "clubs"
	case Diamonds:
		return "diamonds"
	case Hearts:
		return "hearts"
	case Spades:
		return "spades"
	}
	return "?"
}

// Card is one playing card: suit in the high bits, rank in the low four.
// The zero value is None, no card.
type Card uint8

// None is the absence of a card; Joker is a joker (all jokers are alike).
const (
	None  Card = 0
	Joker Card = 0x40
)

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card(uint8(s)<<4 | uint8(r)) }

// Rank is c's rank (0 for a joker or None).
func (c Card) Rank() Rank {
	if c == Joker {
		return 0
	}
	return Rank(c & 0x0f)
}

// Suit is c's suit (meaningless for a joker or None).
func (c Card) Suit() Suit { return Suit(c >> 4 & 0x03) }

// IsJoker reports whether c is a joker.
func (c Card) IsJoker() bool { return c == Joker }

// Valid reports whether c is a real card: a joker or a suit card.
func (c Card) Valid() bool {
	if c == Joker {
		return true
	}
	r := c & 0x0f
	return c>>6 == 0 && r >= 1 && r <= 13
}

// String is the project's notation: rank then suit ("KS", "TH", "AC"), "JK"
// for a joker and "--" for None.
func (c Card) String() string {
	switch {
	case c == Joker:
		return "JK"
	case c == None:
		return "--"
	case !c.Valid():
		return "??"
	}
	return c.Rank().String() + c.Suit().String()
}

// Name is the card's spoken name, "queen of hearts", for screen readers.
func (c Card) Name() string {
	if c == Joker {
		return "joker"
	}
	if !c.Valid() {
		return "no card"
	}
	names := [...]string{"", "ace", "two", "three", "four", "five", "six", "seven",
		"eight", "nine", "ten", "jack", "queen", "king"}
	return names[c.Rank()] + " of " + c.Suit().Name()
}

// ErrBadCard is wrapped by every parse error.
var ErrBadCard = errors.New("bad card")

// Parse reads a card in the project's notation. It accepts rank then suit
// ("KS", "TH", "10H"), suit then rank ("SK", "HT", "H10"), any ASCII letter
// case, and "JK" (or "joker") for a joker. Ranks and suits use disjoint
// letters, so both orders are unambiguous.
func Parse(s string) (Card, error) {
	t := upperASCII(strings.TrimSpace(s))
	if t == "JK" || t == "JOKER" || t == "KJ" {
		return Joker, nil
	}
	if len(t) < 2 || len(t) > 3 {
		return None, fmt.Errorf("%w %q: want rank and suit such as KS, TH, 10H or JK", ErrBadCard, s)
	}
	if su, ok := parseSuit(t[len(t)-1]); ok {
		if r, ok := parseRank(t[:len(t)-1]); ok {
			return New(r, su), nil
		}
	}
	if su, ok := parseSuit(t[0]); ok {
		if r, ok := parseRank(t[1:]); ok {
			return New(r, su), nil
		}
	}
	return None, fmt.Errorf("%w %q: want rank and suit such as KS, TH, 10H or JK", ErrBadCard, s)
}

// MustParse is Parse for constants in tests and tables; it panics on error.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards separated by spaces or commas.
func ParseList(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	out := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Format writes cards in the project's notation separated by single spaces.
func Format(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// upperASCII is s with a to z made capitals and nothing else changed:
// Unicode case mapping would read look-alikes of other scripts as card
// letters ("Qſ" as QS), which nothing the project writes contains.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func parseSuit(b byte) (Suit, bool) {
	switch b {
	case 'C':
		return Clubs, true
	case 'D':
		return Diamonds, true
	case 'H':
		return Hearts, true
	case 'S':
		return Spades, true
	}
	return 0, false
}

func parseRank(s string) (Rank, bool) {
	if s == "10" {
		return Ten, true
	}
	if len(s) != 1 {
		return 0, false
	}
	i := strings.IndexByte(rankLetters[1:], s[0])
	if i < 0 {
		return 0, false
	}
	return Rank(i + 1), true
}
