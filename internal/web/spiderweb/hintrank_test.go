package spiderweb

import (
	"slices"
	"testing"

	"cardtable/spider"
)

// TestHintRanked: the hint's list starts with the solver's move, then
// removals, same-suit builds, other builds, the whole run into the first
// space, and the deal; null moves and shorter runs into a space are left
// out, and each move comes once.
func TestHintRanked(t *testing.T) {
	p, err := spider.ParseLayout(`
pile1: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4: |3D 2D AD
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
row1: KD QD JD TD 9D 8D 7D 6D 5D 4D
completed: S S H H C
`, spider.Rules{Suits: 4, Relaxed: true})
	if err != nil {
		t.Fatal(err)
	}
	best := spider.Cards(3, 1, 1) // AD onto 2C, the solver's choice
	var got []string
	for _, m := range ranked(p, best, true) {
		got = append(got, m.String())
	}
	want := []string{"move 4 2 1", "remove 1", "move 3 2 1", "move 1 2 1", "move 4 5 2", "deal"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %q, want %q", got, want)
	}
	resp := hintAnswer(p, spider.Move{}, false)
	if resp.Move != "remove 1" || len(resp.Moves) != 6 {
		t.Errorf("without the solver's move: %+v", resp)
	}
}
