package leakscan

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// namesRegexp is what cardNames finds, written as a regular expression:
// the codes as words of their own, every card's words anywhere, "joker"
// and "jokers" as words in any case. The scan is checked against it.
var namesRegexp = func() *regexp.Regexp {
	alts := []string{`\b(?:[2-9TJQKA][CDHS]|JK)\b`, `(?i:\bjokers?\b)`}
	for s := range 4 {
		for r := card.Ace; r <= card.King; r++ {
			alts = append(alts, regexp.QuoteMeta(arlington.CardWords(card.New(r, card.Suit(s)))))
		}
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}()

func scanNames(s string) []string {
	var out []string
	cardNames(s, func(m string) bool {
		out = append(out, m)
		return true
	})
	return out
}

var nameSeeds = []string{
	"", "AD", "TS JK", "xAD", "ADx", "AD_", "10♠", "110♠", "A10♠", "K♥Q♥",
	"joker", "Jokers", "JOKERS!", "jokersX", "jokerſ", "jokerſX", "joKer",
	"jokerjoker", "a joker, two jokers", "\nAC\u003c", "4♦ and 9C", "♦AD♦",
	"1♠", "10", "QS10♣", "J♣JK", "2H3H4H", "tens TS", "ace_AS", "ÅS",
}

// TestCardNames: the scan finds exactly what the regular expression of
// the same names finds, name by name, in strings of every kind of edge;
// and a yield that stops the scan stops it.
func TestCardNames(t *testing.T) {
	for _, s := range nameSeeds {
		t.Run(s, func(t *testing.T) {
			got, want := scanNames(s), namesRegexp.FindAllString(s, -1)
			if !slices.Equal(got, want) {
				t.Fatalf("%q: scan %q, regexp %q", s, got, want)
			}
		})
	}
	if got := scanNames("AD, 10♠ and a joker"); !slices.Equal(got, []string{"AD", "10♠", "joker"}) {
		t.Fatalf("names %q", got)
	}
	n := 0
	cardNames("AD KD QD", func(string) bool { n++; return false })
	if n != 1 {
		t.Fatalf("%d names after the scan was stopped at the first", n)
	}
}

// FuzzCardNames: on any string the scan and the regular expression agree.
func FuzzCardNames(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := scanNames(s), namesRegexp.FindAllString(s, -1); !slices.Equal(got, want) {
			t.Fatalf("%q: scan %q, regexp %q", s, got, want)
		}
	})
}
