package card

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Card
	}{
		{"KS", New(King, Spades)}, {"TH", New(Ten, Hearts)}, {"10H", New(Ten, Hearts)},
		{"AC", New(Ace, Clubs)}, {"SK", New(King, Spades)}, {"HT", New(Ten, Hearts)},
		{"h10", New(Ten, Hearts)}, {"C2", New(Two, Clubs)}, {"2c", New(Two, Clubs)},
		{"JK", Joker}, {"joker", Joker}, {"JS", New(Jack, Spades)}, {"SJ", New(Jack, Spades)},
		{"QD", New(Queen, Diamonds)}, {" 9d ", New(Nine, Diamonds)},
	} {
		got, err := Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "K", "KK", "SS", "1H", "11H", "ZZ", "KSS", "0S", "JKX", "♠K",
		// Look-alikes that Unicode upper-cases to card letters (ſ to S,
		// ı to I) are not card letters: case is ASCII only.
		"Qſ", "ſQ", "10ſ", "ſ10"} {
		if c, err := Parse(bad); err == nil || !errors.Is(err, ErrBadCard) {
			t.Errorf("Parse(%q) = %v, %v; want ErrBadCard", bad, c, err)
		}
	}
}

func TestStringRoundTrip(t *testing.T) {
	n := 0
	for _, s := range Suits {
		for r := Ace; r <= King; r++ {
			c := New(r, s)
			if c.Rank() != r || c.Suit() != s || !c.Valid() || c.IsJoker() {
				t.Fatalf("New(%v,%v) = %#x decodes wrong", r, s, uint8(c))
			}
			back, err := Parse(c.String())
			if err != nil || back != c {
				t.Errorf("round trip %s: %v %v", c, back, err)
			}
			n++
		}
	}
	if n != 52 {
		t.Fatal(n)
	}
	if Joker.String() != "JK" || !Joker.Valid() || None.Valid() || Card(0x0e).Valid() {
		t.Error("joker or none misdecoded")
	}
	if New(Queen, Hearts).Name() != "queen of hearts" {
		t.Error(New(Queen, Hearts).Name())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"KS", "10H", "SK", "JK", "", "1", "H10", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) gave invalid card %#x", s, uint8(c))
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %s does not round-trip", s, c)
		}
	})
}
