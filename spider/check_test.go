package spider

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// oneSuitWon is a 1-suit layout with all eight runs of spades in the
// tableau: the right 104 cards, for faults to be typed into.
var oneSuitWon = strings.Repeat("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n", 8)

// numberedPiles puts "pileK: " before each of lines and adds the empty
// piles up to pile10.
func numberedPiles(lines string) string {
	var b strings.Builder
	k := 0
	for l := range strings.Lines(lines) {
		k++
		b.WriteString(fmt.Sprintf("pile%d: %s", k, l))
	}
	for k < Piles {
		k++
		b.WriteString(fmt.Sprintf("pile%d:\n", k))
	}
	return b.String()
}

// TestCheckNamesWrongCardsInOrder: a layout with several wrong cards (a
// save or layout edited by hand) gets one message, the same every time,
// naming them all in card order; map order once chose which one it named.
func TestCheckNamesWrongCardsInOrder(t *testing.T) {
	// Three cards typed for others: QS as 7S, 3S as JS, AS as AH.
	lines := strings.SplitAfter(oneSuitWon, "\n")
	lines[0] = strings.Replace(lines[0], "QS", "7S", 1)
	lines[1] = strings.Replace(lines[1], "3S", "JS", 1)
	lines[2] = strings.Replace(lines[2], "AS", "AH", 1)
	text := numberedPiles(strings.Join(lines, ""))
	const want = "bad format: AH appears 1 time, AS appears 7 times, 3S appears 7 times, " +
		"7S appears 9 times, JS appears 9 times, QS appears 7 times; " +
		"a 1-suit game has 8 of each spade card and no other card: hearts are not in play"
	const runs = 100
	msgs := func(load func() error) []string {
		seen := map[string]bool{}
		var out []string
		for range runs {
			err := load()
			if err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("got %v, want a format error", err)
			}
			if !seen[err.Error()] {
				seen[err.Error()] = true
				out = append(out, err.Error())
			}
		}
		return out
	}
	got := msgs(func() error { _, err := ParseLayout(text, Rules{Suits: 1}); return err })
	if len(got) != 1 || got[0] != want {
		t.Errorf("%d different messages in %d runs:\n%s\nwant only %s", len(got), runs, strings.Join(got, "\n"), want)
	}
	// The same through a save file, which puts the message on the
	// layout's first line.
	save := SaveHeader + "\nvariant: spider\nsuits: 1\n" + text + "moves: 0\n"
	got = msgs(func() error { _, err := Load(save); return err })
	if wantLoad := "bad format: line 4: layout: " + strings.TrimPrefix(want, "bad format: "); len(got) != 1 || got[0] != wantLoad {
		t.Errorf("load: %d different messages in %d runs:\n%s\nwant only %s", len(got), runs, strings.Join(got, "\n"), wantLoad)
	}
}

// TestCheckSaysWhatTheSuitCountWants: a layout typed in a suit not in play
// gets the rule said once, after the cards and in words a person editing
// the file reads at once (which suits the game has, how many of each of
// their cards, which suits found are not in play), not a "want 8" that
// reads as if the wrong card should appear 8 times.
func TestCheckSaysWhatTheSuitCountWants(t *testing.T) {
	hearts := numberedPiles(strings.ReplaceAll(oneSuitWon, "S", "H"))
	mixed := numberedPiles(strings.Replace(strings.Replace(oneSuitWon, "KS", "KC", 1), "QS", "QD", 1))
	for _, tc := range []struct {
		name, text string
		suits      int
		want       string
	}{
		{"1 suit in hearts", hearts, 1, "bad format: AH appears 8 times, 2H appears 8 times, 3H appears 8 times, " +
			"4H appears 8 times, 5H appears 8 times, 6H appears 8 times and 20 more wrong cards; " +
			"a 1-suit game has 8 of each spade card and no other card: hearts are not in play"},
		{"2 suits in hearts", hearts, 2, "bad format: AH appears 8 times, 2H appears 8 times, 3H appears 8 times, " +
			"4H appears 8 times, 5H appears 8 times, 6H appears 8 times and 20 more wrong cards; " +
			"a 2-suit game has 4 of each heart and spade card and no other card"},
		{"clubs and diamonds", mixed, 2, "bad format: KC appears 1 time, QD appears 1 time, AH appears 0 times, " +
			"2H appears 0 times, 3H appears 0 times, 4H appears 0 times and 22 more wrong cards; " +
			"a 2-suit game has 4 of each heart and spade card and no other card: clubs and diamonds are not in play"},
	} {
		_, err := ParseLayout(tc.text, Rules{Suits: tc.suits})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}
