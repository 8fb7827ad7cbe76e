package arlington

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

func mustSet(tb testing.TB, text string) Set {
	tb.Helper()
	s, err := ParseCards(text)
	if err != nil {
		tb.Fatalf("ParseCards(%q): %v", text, err)
	}
	return s
}

// The text: "the highest ten suit cards are, from highest to tenth
// highest, SA, HA, DA, CA, SK, HK, DK, CK, SQ, HQ, and the lowest ten ...
// D4, C4, S3, H3, D3, C3, S2, H2, D2, C2".
func TestCardOrderFromText(t *testing.T) {
	all := FullDeck.Cards() // highest first, jokers last
	all = all[:52]
	got := card.Format(all[:10]) + " / " + card.Format(all[42:])
	want := "AS AH AD AC KS KH KD KC QS QH / 4D 4C 3S 3H 3D 3C 2S 2H 2D 2C"
	if got != want {
		t.Fatalf("card order:\n got %s\nwant %s", got, want)
	}
	for i := 0; i+1 < len(all); i++ {
		if !Higher(all[i], all[i+1]) || Higher(all[i+1], all[i]) {
			t.Fatalf("%v should be higher than %v", all[i], all[i+1])
		}
	}
}

// The text's Multiples example, "listed from highest to lowest".
func TestMultiplesOrderingListFromText(t *testing.T) {
	list := []string{"S3 H3 D3 C3", "S7 H7 D7", "S7 H7 C7", "S8 C8", "H8 D8", "H8 C8", "S5 H5"}
	for i := range list {
		for j := range list {
			got, err := Compare(Multiples, mustSet(t, list[i]), mustSet(t, list[j]))
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			if i < j {
				want = 1
			} else if i > j {
				want = -1
			}
			if got != want {
				t.Errorf("Compare(multiples, {%s}, {%s}) = %d, want %d", list[i], list[j], got, want)
			}
		}
	}
}

func TestTextExamples(t *testing.T) {
	t.Run("four sevens and a joker is illegal", func(t *testing.T) {
		info := Analyze(mustSet(t, "S7 H7 D7 C7 JK").Cards())
		if info.Legal || len(info.Spectra) != 0 || info.Points != 0 {
			t.Fatalf("{S7, H7, D7, C7, JK}: %+v, want illegal", info)
		}
	})
	t.Run("7S JK does not beat 7H JK", func(t *testing.T) {
		got, err := Compare(Multiples, mustSet(t, "7S JK"), mustSet(t, "7H JK"))
		if err != nil || got != 0 {
			t.Fatalf("Compare = %d, %v; want equal (both represent {S7, H7})", got, err)
		}
	})
	t.Run("DQ JK scores 8", func(t *testing.T) {
		if p := Points(mustSet(t, "DQ JK")); p != 8 {
			t.Fatalf("Points({DQ, JK}) = %d, want 8 (as {DK, DQ} in Couples)", p)
		}
		if p := PointsIn(mustSet(t, "DQ JK"), Multiples); p != 2 {
			t.Fatalf("as a pair of queens it scores %d, want 2", p)
		}
	})
	t.Run("SA S2 is not a run", func(t *testing.T) {
		if In(mustSet(t, "SA S2"), Runs) {
			t.Fatal("{SA, S2} is a run; aces are always high")
		}
	})
	t.Run("DK DQ is in couples and runs", func(t *testing.T) {
		if got := fmt.Sprint(SpectraOf(mustSet(t, "DK DQ"))); got != "[couples runs]" {
			t.Fatalf("spectra of {DK, DQ} = %s", got)
		}
	})
	t.Run("a single ace is an aces set", func(t *testing.T) {
		if !In(mustSet(t, "CA"), Aces) || Points(mustSet(t, "CA")) != 1 {
			t.Fatal("{CA} should be a one-point Aces set")
		}
	})
	t.Run("H2 alone is couples", func(t *testing.T) {
		if got := fmt.Sprint(SpectraOf(mustSet(t, "H2"))); got != "[couples]" || Points(mustSet(t, "H2")) != 2 {
			t.Fatalf("{H2}: %s %d", got, Points(mustSet(t, "H2")))
		}
		if Legal(mustSet(t, "S2")) {
			t.Fatal("{S2} alone is legal")
		}
	})
}

func TestPointsTablesFromText(t *testing.T) {
	for _, tc := range []struct {
		set  string
		sp   Spectrum
		want int
	}{
		{"SA", Aces, 1}, {"SA HA", Aces, 2}, {"SA HA DA", Aces, 4}, {"SA HA DA CA", Aces, 8},
		{"S5 H5", Multiples, 2}, {"S5 H5 D5", Multiples, 4}, {"S5 H5 D5 C5", Multiples, 8},
		{"SK SQ", Couples, 8}, {"HQ HJ", Couples, 4}, {"H2", Couples, 2}, {"SK HQ", Couples, 2}, {"SQ HJ", Couples, 1},
		{"S2 S3", Runs, 2}, {"S2 S3 S4", Runs, 4}, {"S2 S3 S4 S5", Runs, 6}, {"S2 S3 S4 S5 S6", Runs, 8},
		{"C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA", Runs, 24},
		{"JK", Aces, 1}, {"JK", Couples, 2}, {"JK JK", Couples, 8}, {"JK JK", Multiples, 2}, {"JK JK", Runs, 2},
		{"SQ JK", Couples, 8}, {"SJ JK", Couples, 4}, {"SK JK", Couples, 8},
	} {
		t.Run(tc.set+"/"+tc.sp.String(), func(t *testing.T) {
			if got := PointsIn(mustSet(t, tc.set), tc.sp); got != tc.want {
				t.Fatalf("PointsIn = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestCouplesOrderFromText(t *testing.T) {
	// Same suit > H2 > different suits; then the other spectra's rule.
	order := []string{"SK SQ", "HK HQ", "SQ SJ", "CQ CJ", "H2", "SK HQ", "HK SQ", "SQ HJ", "DQ CJ"}
	for i := 0; i+1 < len(order); i++ {
		got, err := Compare(Couples, mustSet(t, order[i]), mustSet(t, order[i+1]))
		if err != nil || got != 1 {
			t.Errorf("{%s} vs {%s} in couples: %d %v, want higher", order[i], order[i+1], got, err)
		}
	}
}

// Decision: a jokered set ranks as the highest pure set it can represent
// in the spectrum (docs/rules-arlington.md).
func TestJokeredSetRanksAsHighest(t *testing.T) {
	for _, tc := range []struct {
		sp   Spectrum
		a, b string
		want int
	}{
		{Multiples, "7S JK", "7H JK", 0},  // both {S7, H7}
		{Multiples, "7S JK", "S7 H7", 0},  // the pure set it represents
		{Multiples, "7C JK", "S7 D7", -1}, // represents {S7, C7}, below {S7, D7}
		{Multiples, "JK JK", "SA HA", 0},  // two jokers: the highest pair
		{Runs, "S5 JK", "S6 S5", 0},       // spare joker goes up: {S6, S5}
		{Runs, "SK JK", "SA SK", 0},       // an ace cannot be passed: {SA, SK}
		{Runs, "SA JK", "SA SK", 0},       // only down from an ace
		{Runs, "H4 H6 JK", "H6 H5 H4", 0}, // the gap
		{Runs, "H4 JK JK", "H6 H5 H4", 0}, // two spare jokers go up
		{Aces, "CA JK", "SA CA", 0},       // the highest missing ace
		{Aces, "JK", "SA", 0},             // a lone joker is the SA
		{Couples, "DQ JK", "DK DQ", 0},    // the same-suit king beats the jack
		{Couples, "JK", "H2", 0},          // a lone joker in couples is the H2
		{Couples, "JK JK", "SK SQ", 0},    // two jokers: the highest couple
		{Multiples, "C7 D7 JK", "S7 D7 C7", 0},
	} {
		t.Run(tc.sp.String()+" "+tc.a+" vs "+tc.b, func(t *testing.T) {
			got, err := Compare(tc.sp, mustSet(t, tc.a), mustSet(t, tc.b))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("Compare = %d, want %d", got, tc.want)
			}
		})
	}
}

// Decision: a lone joker and two jokers alone are legal sets.
func TestJokersAloneAreSets(t *testing.T) {
	one := Analyze([]card.Card{card.Joker})
	if !one.Legal || fmt.Sprint(one.Spectra) != "[aces couples]" || one.Points != 2 {
		t.Fatalf("{JK}: %+v, want legal in aces and couples, 2 points (as H2)", one)
	}
	two := Analyze([]card.Card{card.Joker, card.Joker})
	if !two.Legal || fmt.Sprint(two.Spectra) != "[aces multiples couples runs]" || two.Points != 8 {
		t.Fatalf("{JK, JK}: %+v, want legal in all four, 8 points (as SK SQ)", two)
	}
	if Analyze([]card.Card{card.Joker, card.Joker, card.Joker}).Legal {
		t.Fatal("three jokers: the deck has two")
	}
}

func TestAnalyzeRejectsDuplicates(t *testing.T) {
	info := Analyze([]card.Card{card.MustParse("SQ"), card.MustParse("QS")})
	if info.Legal {
		t.Fatal("SQ given twice is not a set")
	}
	if _, err := ParseCards("SQ QS"); err == nil {
		t.Fatal("ParseCards accepted a card twice")
	}
}

// ---- an oracle that follows the text word by word ----

func pureIn(cs []card.Card, sp Spectrum) bool {
	n := len(cs)
	if n == 0 {
		return false
	}
	switch sp {
	case Aces:
		for _, c := range cs {
			if c.Rank() != card.Ace {
				return false
			}
		}
		return true
	case Multiples:
		for _, c := range cs {
			if c.Rank() != cs[0].Rank() {
				return false
			}
		}
		return n >= 2
	case Couples:
		if n == 1 {
			return cs[0] == card.MustParse("H2")
		}
		if n != 2 {
			return false
		}
		a, b := value(cs[0]), value(cs[1])
		return (min(a, b) == 12 && max(a, b) == 13) || (min(a, b) == 11 && max(a, b) == 12)
	case Runs:
		if n < 2 {
			return false
		}
		lo, hi := 99, 0
		for _, c := range cs {
			if c.Suit() != cs[0].Suit() {
				return false
			}
			lo, hi = min(lo, value(c)), max(hi, value(c))
		}
		return hi-lo+1 == n // distinct cards of one suit: every rank between is there
	}
	return false
}

func couplesClass(cs []card.Card) int {
	if len(cs) == 1 {
		return 1
	}
	if cs[0].Suit() == cs[1].Suit() {
		return 2
	}
	return 0
}

// pureCompare is the text's ordering of two pure sets of sp.
func pureCompare(sp Spectrum, a, b []card.Card) int {
	if sp == Couples {
		if ca, cb := couplesClass(a), couplesClass(b); ca != cb {
			return cmpInt(ca, cb)
		}
	}
	if len(a) != len(b) {
		return cmpInt(len(a), len(b))
	}
	var only []card.Card
	for _, c := range a {
		if !slices.Contains(b, c) {
			only = append(only, c)
		}
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			only = append(only, c)
		}
	}
	if len(only) == 0 {
		return 0
	}
	hi := only[0]
	for _, c := range only {
		if Higher(c, hi) {
			hi = c
		}
	}
	if slices.Contains(a, hi) {
		return 1
	}
	return -1
}

func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

func purePoints(cs []card.Card, sp Spectrum) int {
	n := len(cs)
	switch sp {
	case Aces, Multiples:
		return 1 << (n - 1)
	case Runs:
		return 2 * (n - 1)
	}
	if n == 1 {
		return 2
	}
	kq := value(cs[0]) == 13 || value(cs[1]) == 13
	same := cs[0].Suit() == cs[1].Suit()
	switch {
	case kq && same:
		return 8
	case same:
		return 4
	case kq:
		return 2
	}
	return 1
}

// representations lists every pure set s can represent: each joker a
// distinct suit card that exists and is not in s.
func representations(s Set) [][]card.Card {
	suit := Set(s.Mask()).Cards()
	var out [][]card.Card
	var others []card.Card
	for i := range 52 {
		if s.Mask()>>i&1 == 0 {
			others = append(others, cardAt(i))
		}
	}
	switch s.Jokers() {
	case 0:
		out = append(out, suit)
	case 1:
		for _, x := range others {
			out = append(out, append(slices.Clone(suit), x))
		}
	case 2:
		for i, x := range others {
			for _, y := range others[i+1:] {
				out = append(out, append(slices.Clone(suit), x, y))
			}
		}
	}
	return out
}

type oracleResult struct {
	in     bool
	best   []card.Card
	points int
}

func oracle(s Set, sp Spectrum) oracleResult {
	var r oracleResult
	for _, p := range representations(s) {
		if !pureIn(p, sp) {
			continue
		}
		if !r.in || pureCompare(sp, p, r.best) > 0 {
			r.best = p
		}
		r.in = true
		r.points = max(r.points, purePoints(p, sp))
	}
	return r
}

func maskOf(cs []card.Card) uint64 {
	var m uint64
	for _, c := range cs {
		m |= 1 << Index(c)
	}
	return m
}

// checkAgainstOracle compares the engine's spectra, highest representation
// and points for s with the oracle's.
func checkAgainstOracle(t *testing.T, s Set) {
	t.Helper()
	for _, sp := range Spectra {
		o := oracle(s, sp)
		m, _, ok := rep(s, sp)
		if ok != o.in {
			t.Fatalf("%v in %v: engine %v, oracle %v", s, sp, ok, o.in)
		}
		if !ok {
			continue
		}
		if m != maskOf(o.best) {
			t.Fatalf("%v in %v: engine represents %v, oracle %v", s, sp, Set(m), card.Format(o.best))
		}
		if p := PointsIn(s, sp); p != o.points {
			t.Fatalf("%v in %v: engine %d points, oracle %d", s, sp, p, o.points)
		}
	}
}

// Every set of up to three suit cards with no joker, up to two with one,
// up to one with two, checked against the word-by-word oracle.
func TestLongSetsAgainstTextOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	for a := range 52 {
		checkAgainstOracle(t, Set(1)<<a)
		checkAgainstOracle(t, Set(1)<<a|oneJoker)
		checkAgainstOracle(t, Set(1)<<a|2*oneJoker)
		for b := a + 1; b < 52; b++ {
			ab := Set(1)<<a | Set(1)<<b
			checkAgainstOracle(t, ab)
			checkAgainstOracle(t, ab|oneJoker)
			if a%4 == 0 || b-a < 8 { // all pairs with a joker would be slow under -race; keep the interesting ones
				for c := b + 1; c < 52; c += 3 {
					checkAgainstOracle(t, ab|Set(1)<<c)
				}
			}
		}
	}
	checkAgainstOracle(t, oneJoker)
	checkAgainstOracle(t, 2*oneJoker)
}

// Larger structured sets (long runs, full ranks, with jokers) against the
// oracle.
func TestLargeSetsAgainstOracle(t *testing.T) {
	r := NewRand(5)
	for range 400 {
		var s Set
		switch r.Intn(3) {
		case 0: // cards from one suit in a window
			su := card.Suit(r.Intn(4))
			lo := 2 + r.Intn(12)
			for v := lo; v <= min(14, lo+r.Intn(8)); v++ {
				if r.Intn(5) > 0 {
					s |= Set(bit(v, su))
				}
			}
		case 1: // cards of one rank
			v := 2 + r.Intn(13)
			for su := range card.Suits {
				if r.Intn(2) == 0 {
					s |= Set(bit(v, card.Suit(su)))
				}
			}
		default: // anything
			for range 1 + r.Intn(4) {
				s |= Set(1) << r.Intn(52)
			}
		}
		s += Set(r.Intn(3)) * oneJoker
		if s.Empty() || s.Jokers() == 2 && bits.OnesCount64(s.Mask()) > 6 {
			continue // the oracle is quadratic in jokers; keep it quick
		}
		checkAgainstOracle(t, s)
	}
}

// The integer key orders pure sets exactly as the text's rule does.
func TestKeyOrderMatchesTextRule(t *testing.T) {
	r := NewRand(11)
	var pool [4][]Set
	for len(pool[0])+len(pool[1])+len(pool[2])+len(pool[3]) < 800 {
		var s Set
		for range 1 + r.Intn(5) {
			s |= Set(1) << r.Intn(52)
		}
		for i, sp := range Spectra {
			if In(s, sp) {
				pool[i] = append(pool[i], s)
			}
		}
		// Bias towards sets that are in some spectrum.
		v := 2 + r.Intn(13)
		pool[1] = append(pool[1], Set(rankMask(v)&(uint64(r.Intn(15)+1)<<((v-2)*4))))
	}
	for i, sp := range Spectra {
		for _, a := range pool[i] {
			if !In(a, sp) {
				continue
			}
			for _, b := range pool[i][:min(len(pool[i]), 60)] {
				if !In(b, sp) {
					continue
				}
				got, _ := Compare(sp, a, b)
				if want := pureCompare(sp, a.Cards(), b.Cards()); got != want {
					t.Fatalf("%v: %v vs %v: key says %d, text rule %d", sp, a, b, got, want)
				}
			}
		}
	}
}

// setsIn finds every legal set in a hand: checked against all subsets of
// small random hands.
func TestSetsInFindsEverySet(t *testing.T) {
	r := NewRand(3)
	for range 150 {
		// Two suits and both jokers make runs, couples and jokered sets
		// common.
		var pool []card.Card
		s1, s2 := card.Suit(r.Intn(4)), card.Suit(r.Intn(4))
		for _, c := range FullDeck.Cards() {
			if c == card.Joker || c.Suit() == s1 || c.Suit() == s2 || c.Rank() == card.Ace {
				pool = append(pool, c)
			}
		}
		var hand Set
		for hand.Len() < 11 {
			hand, _ = hand.With(pool[r.Intn(len(pool))])
		}
		cs := hand.Cards()
		for _, sp := range Spectra {
			want := map[Set]bool{}
			for sub := 1; sub < 1<<len(cs); sub++ {
				s, _ := SetOf(pick(cs, sub))
				if In(s, sp) {
					want[s] = true
				}
			}
			got := map[Set]bool{}
			setsIn(hand, sp, func(s Set) {
				if got[s] {
					t.Fatalf("%v: %v found twice in %v", sp, s, hand)
				}
				got[s] = true
			})
			if len(got) != len(want) {
				for s := range want {
					if !got[s] {
						t.Fatalf("%v: %v missed in hand %v", sp, s, hand)
					}
				}
				t.Fatalf("%v: found %d sets, want %d", sp, len(got), len(want))
			}
		}
	}
}

func pick(cs []card.Card, sub int) []card.Card {
	var out []card.Card
	for i, c := range cs {
		if sub>>i&1 == 1 {
			out = append(out, c)
		}
	}
	return out
}

func TestSetMethods(t *testing.T) {
	a := mustSet(t, "SA 7H JK")
	b := mustSet(t, "7H 2C JK")
	if got := a.Union(b).String(); got != "{AS, 7H, 2C, JK, JK}" {
		t.Fatalf("union %s", got)
	}
	if got := a.Minus(b).String(); got != "{AS}" {
		t.Fatalf("minus %s", got)
	}
	if !a.Contains(mustSet(t, "JK SA")) || a.Contains(b) {
		t.Fatal("contains")
	}
	if _, ok := a.With(card.MustParse("7H")); ok {
		t.Fatal("7H added twice")
	}
	if x, ok := a.With(card.Joker); !ok || x.Jokers() != 2 {
		t.Fatal("second joker")
	}
	if x, _ := a.With(card.Joker); func() bool { _, ok := x.With(card.Joker); return ok }() {
		t.Fatal("third joker")
	}
	if _, ok := a.Without(card.MustParse("2C")); ok {
		t.Fatal("removed a card not there")
	}
	if !a.Valid() || (Set(1) << 60).Valid() || Set(3<<jokerShift).Valid() {
		t.Fatal("valid")
	}
	if a.Len() != 3 || FullDeck.Len() != 54 || len(FullDeck.Cards()) != 54 {
		t.Fatal("len")
	}
	var u Set
	if err := u.UnmarshalText([]byte("QS JK")); err != nil || u != mustSet(t, "JK SQ") {
		t.Fatalf("unmarshal %v %v", u, err)
	}
}

// A spectrum name is parsed in any case and singular; an unknown one is
// reported as a spectrum problem, not as bad cards.
func TestParseSpectrum(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spectrum
	}{{"aces", Aces}, {"Multiple", Multiples}, {" COUPLES ", Couples}, {"run", Runs}} {
		if sp, err := ParseSpectrum(tc.in); err != nil || sp != tc.want {
			t.Errorf("ParseSpectrum(%q) = %v, %v; want %v", tc.in, sp, err, tc.want)
		}
	}
	for _, in := range []string{"foo", "", "flushes"} {
		_, err := ParseSpectrum(in)
		if !errors.Is(err, ErrUnknownSpectrum) || errors.Is(err, ErrBadSet) || strings.Contains(err.Error(), "card") {
			t.Errorf("ParseSpectrum(%q): %v; want an unknown-spectrum error that does not blame the cards", in, err)
		}
	}
}
