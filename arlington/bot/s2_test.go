package bot

import (
	"context"
	"slices"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// endView is a two-player position late in a hand, built by hand: seat 0
// holds hand, seat 1 holds other cards (none of them known to seat 0),
// the tables hold the sets listed ("9S 9H|7D 8D 9D"; "" for none) and
// every other card is on the graveyard: eight seen going there in
// earlier tricks, the rest face down. Seat 0 has the lead; the caller
// sets a round if there is one.
func endView(tb testing.TB, hand string, other int, tables [2]string) arlington.View {
	tb.Helper()
	h, err := arlington.ParseCards(hand)
	if err != nil {
		tb.Fatal(err)
	}
	v := arlington.View{Seat: 0, Players: 2, Target: 32, HandNumber: 3, Dealer: 1, Lead: 0, ToMove: 0,
		Phase: arlington.PhaseLead, Hand: h.Cards(), HandSizes: []int{h.Len(), other},
		Tables: [][]arlington.TableSet{{}, {}}, Trick: []arlington.TrickCard{}, Totals: []int{12, 12},
		Known: make([]arlington.Cards, 2)}
	used := h.Len() + other
	for seat, tab := range tables {
		if tab == "" {
			continue
		}
		for part := range strings.SplitSeq(tab, "|") {
			s, err := arlington.ParseCards(part)
			if err != nil {
				tb.Fatal(err)
			}
			v.Tables[seat] = append(v.Tables[seat], arlington.TableSet{Cards: s.Cards(), Spectra: arlington.SpectraOf(s), Points: arlington.Points(s)})
			used += s.Len()
		}
	}
	seen, _ := arlington.ParseCards("AS KH QC JD TH 6S 4C 2D")
	v.GraveKnown = seen.Cards()
	v.Graveyard = 54 - used
	return v
}

// worldView is v's seat's view of w, a world sample drew from v, less
// what sample added to place an unseen S2: that it is known to be in a
// hand or on the graveyard.
func worldView(w *arlington.State, v arlington.View) arlington.View {
	wv := w.View(v.Seat)
	if !s2Unseen(v) {
		return wv
	}
	isS2 := func(c card.Card) bool { return c == arlington.S2 }
	for i := range wv.Known {
		wv.Known[i] = slices.DeleteFunc(wv.Known[i], isS2)
	}
	wv.GraveKnown = slices.DeleteFunc(wv.GraveKnown, isS2)
	return wv
}

// A seat whose last card is the S2 kills any set it may: kept, the S2
// could only be thrown into someone's trick. With other cards in hand it
// still keeps the S2 for a set worth it. (The play-outs of every search
// level play this way, so this is their model of an opponent's S2.)
func TestGreedyKillsWithItsLastCard(t *testing.T) {
	for _, tc := range []struct {
		hand string
		want arlington.Kind
	}{
		{"2S", arlington.Kill},
		{"2S 7C 4D", arlington.Pass},
	} {
		t.Run(tc.hand, func(t *testing.T) {
			// Seat 0 answers seat 1's pair of nines.
			v := endView(t, tc.hand, 6, [2]string{"", "9S 9H"})
			v.Lead, v.Phase = 1, arlington.PhaseRound
			v.Round = &arlington.Round{Leader: 1, Spectrum: arlington.Multiples, Owner: 1}
			for seed := range uint64(5) {
				a, err := NewGreedy(seed).Act(context.Background(), v)
				if err != nil {
					t.Fatal(err)
				}
				if a.Kind != tc.want {
					t.Fatalf("seed %d: %v, want %v", seed, a, tc.want)
				}
			}
		})
	}
}

// The search's worlds place an unseen S2 as a kept card: a seat down to
// one unseen card holds it about 8 times in 46 (the deal's odds), not
// once in 46 as a uniform deal of the unseen cards would have it; and
// every world agrees with the view but for that one card's place.
func TestWorldsKeepTheS2(t *testing.T) {
	v := endView(t, "5D 5C 9H 8H 7H JS 3D", 1, [2]string{"", ""})
	const n = 4000
	r := arlington.NewRand(1)
	held := 0
	for range n {
		w, err := sample(v, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.CheckCards(); err != nil {
			t.Fatal(err)
		}
		if err := arlington.SameKnowledge(v, worldView(w, v)); err != nil {
			t.Fatal(err)
		}
		if w.Hand(1).Has(arlington.S2) {
			held++
		}
	}
	// 8/46 = 0.174; a uniform deal gives 1/46 = 0.022.
	if share := float64(held) / n; share < 0.15 || share > 0.20 {
		t.Fatalf("the S2 is the other seat's last card in %.3f of worlds, want about 8/46 = 0.174", share)
	}
	// Where the seat knows the S2's place, worlds are arlington.Sample's.
	v.Hand = append(v.Hand, arlington.S2)
	v.HandSizes[0]++
	v.Graveyard--
	for range 50 {
		w, err := sample(v, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := arlington.SameKnowledge(v, w.View(0)); err != nil {
			t.Fatal(err)
		}
	}
}

// With seven cards (a pair, a run of three and two odd cards) and the
// other seat down to one card that may be the S2, leading a set risks a
// kill that ends the hand and loses every card still in hand; leading an
// odd card first takes that last card away at no risk. The search levels
// lead a card (the rare set is a close call of a small budget).
func TestSearchLeadsACardIntoALastS2(t *testing.T) {
	v := endView(t, "5D 5C 9H 8H 7H JS 3D", 1, [2]string{"", ""})
	for _, tc := range []struct {
		level      string
		tries, min int
	}{
		{"hard", 10, 8},
		{"expert", 4, 4},
	} {
		t.Run(tc.level, func(t *testing.T) {
			lv, _ := LevelNamed(tc.level)
			lv.Time = 0 // reproducible: the whole budget, however slow the machine
			cards := 0
			var sets []string
			for seed := range uint64(tc.tries) {
				var b Bot = NewSearch(lv, seed)
				if lv.Tree {
					b = NewISMCTS(lv, seed)
				}
				a, err := b.Act(context.Background(), v)
				if err != nil {
					t.Fatal(err)
				}
				if a.Kind == arlington.LeadCard {
					cards++
				} else {
					sets = append(sets, a.String())
				}
			}
			if cards < tc.min {
				t.Fatalf("led a card in %d of %d decisions, want at least %d; the others: %v", cards, tc.tries, tc.min, sets)
			}
		})
	}
}
