package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// jokerView reads a position of testdata/joker: a two-player view, from a
// game of expert bots, of a seat with two cards, one of them a joker, in
// a trick it cannot take (docs/bots.md, "The joker given away").
func jokerView(tb testing.TB, name string) arlington.View {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "joker", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var v arlington.View
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatal(err)
	}
	if v.Phase != arlington.PhaseTrick || len(v.Hand) != 2 || !slices.Contains(v.Hand, card.Joker) {
		tb.Fatalf("%s: not a trick with two cards, one a joker: %v %v", name, v.Phase, v.Hand)
	}
	return v
}

// keepsJoker counts the decisions, seeds 0 to n-1, in which a master made
// by mk plays its other card to the trick and keeps the joker; the level
// is master's with worlds in place of its 96 (its budget scales with
// them) and no time bound, so the count is the same on any machine.
func keepsJoker(t *testing.T, v arlington.View, worlds int, n uint64, mk func(Level, uint64) *Master) int {
	lv := masterLevel
	lv.Time, lv.Worlds = 0, worlds
	kept := 0
	for seed := range n {
		a, err := mk(lv, seed).Act(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != arlington.PlayCard {
			t.Fatalf("seed %d: %v, not a card to the trick", seed, a)
		}
		if a.Card != card.Joker {
			kept++
		}
	}
	return kept
}

// jokerCases are the positions of testdata/joker the tests decide, and
// whether master should keep its joker there.
var jokerCases = []struct {
	name string
	keep bool
}{{"qd-jk", true}, {"ks-jk", true}, {"kh-jk", true}, {"jc-jk", true}, {"ah-jk", false}, {"jd-jk", false}}

// checkJoker asks master, at worlds of its budget with each of seeds
// seeds, the positions of jokerCases (only those to keep the joker in,
// when keepOnly), and wants the right choice in at least want of them.
func checkJoker(t *testing.T, worlds int, seeds uint64, want int, keepOnly bool) {
	for _, c := range jokerCases {
		if keepOnly && !c.keep {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			v := jokerView(t, c.name)
			kept := keepsJoker(t, v, worlds, seeds, newMaster)
			if !c.keep {
				kept = int(seeds) - kept
			}
			if kept < want {
				t.Errorf("%v to the trick %v: %s the joker in %d of %d decisions, want at least %d", v.Hand, v.Trick, map[bool]string{true: "kept", false: "gave"}[c.keep], kept, seeds, want)
			}
		})
	}
}

// In a trick it cannot take, with its joker and one other card left,
// master keeps the joker where the flat values (every action played out
// greedily in 1,000 worlds of its belief) say giving it to the taker
// costs 1.3 to 8.7 points, and still gives it where they say giving it
// is 0.9 or 1.1 points the better: at its whole budget in at least 3 of
// 4 decisions each (before, it kept the joker in 1, 0, 0 and 0 of 4 of
// the first four).
func TestLongMasterKeepsItsJoker(t *testing.T) {
	if testing.Short() {
		t.Skip("master's whole budget, six positions; TestMasterKeepsItsJoker is the quick version")
	}
	checkJoker(t, masterLevel.Worlds, 4, 3, false)
}

// TestMasterKeepsItsJoker is TestLongMasterKeepsItsJoker's quick version:
// the four positions to keep the joker in, at a twelfth of the budget,
// twice each, the joker kept every time.
func TestMasterKeepsItsJoker(t *testing.T) {
	checkJoker(t, 8, 2, 2, true)
}

// flatValues is each legal action's mean standing value for v's seat
// over n worlds of master's belief, the hand played out by the play-out
// policy of master's table size.
func flatValues(t *testing.T, v arlington.View, n int) map[arlington.Action]float64 {
	out := map[arlington.Action]float64{}
	b, r := newBelief(v), arlington.NewRand(99)
	temp := newMaster(masterLevel, 0).temp[min(v.Players, 6)] // master's own play-out policy
	for _, a := range v.Legal() {
		sum := 0.0
		for range n {
			s, err := b.sample(r)
			if err != nil {
				t.Fatal(err)
			}
			hand, before := s.HandNumber(), s.Totals()
			if err := s.Apply(v.Seat, a); err != nil {
				t.Fatal(err)
			}
			if _, err := play(context.Background(), s, r.Uint64(), hand, temp); err != nil {
				t.Fatal(err)
			}
			sum += standingValues(s, before)[v.Seat]
		}
		out[a] = sum / float64(n)
	}
	return out
}

// TestJokerPositions is a measurement, not a check: with
// CARDTABLE_JOKER_TABLE set it prints, for every position of
// testdata/joker, the flat values of its two actions over 1,000 worlds
// and how often master and the master of before keep the joker in 4
// decisions (the table of docs/bots.md).
func TestJokerPositions(t *testing.T) {
	if os.Getenv("CARDTABLE_JOKER_TABLE") == "" {
		t.Skip("a measurement: set CARDTABLE_JOKER_TABLE=1 to print the table")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "joker", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f[:len(f)-len(".json")])
		v := jokerView(t, name)
		vals := flatValues(t, v, 1000)
		var keep, give float64
		for a, x := range vals {
			if a.Card == card.Joker {
				give = x
			} else {
				keep = x
			}
		}
		fmt.Printf("%s: hand %v, trick %v: flat keep %.2f, give %.2f; keeps the joker: master %d of 4, before %d of 4\n",
			name, v.Hand, v.Trick, keep, give, keepsJoker(t, v, masterLevel.Worlds, 4, newMaster), keepsJoker(t, v, masterLevel.Worlds, 4, masterBefore))
	}
}
