package solver

import (
	"context"
	"testing"

	"cardtable/spider"
)

// spacesAndStock is a 1-suit position from a fair game of deal 21: nothing
// face down, two spaces and 40 cards in the stock. Before fillSpaces the
// solver's best-first search kept its spaces and never dealt: unknown
// after 44 million nodes.
const spacesAndStock = `pile1: 4S
pile2: KS QS JS TS 9S 8S 7S 6S 5S
pile3: TS QS JS TS 9S
pile4: 9S
pile5: 3S 2S
pile6:
pile7: 7S 6S 5S
pile8: 3S 2S
pile9: 3S 2S
pile10:
row1: JS AS 6S AS 8S 7S KS TS 5S TS
row2: 7S KS 5S 4S QS 4S 2S AS KS JS
row3: AS 4S 5S 8S QS KS 6S 8S 9S 6S
row4: 9S QS 4S 2S JS 7S 3S 3S AS 8S
completed: S S S
`

func TestFillSpaces(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		suits int
		ok    bool
	}{
		{"two spaces", spacesAndStock, 1, true},
		{"eight spaces from one run", oneMove, 1, true},
		// Every card that could fill a space would turn the card under it.
		{"only face-down cards below", `pile1: |KS |QS |JS |10S |9S |8S |7S |6S |5S |4S |3S |2S AS
pile2:
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S S S S S S
`, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := layout(t, tt.text, tt.suits)
			q := *p
			moves, ok := fillSpaces(&q, nil)
			if ok != tt.ok {
				t.Fatalf("ok=%v, want %v (moves %v)", ok, tt.ok, moves)
			}
			r := *p
			for _, m := range moves {
				u, err := r.Play(m)
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				if u.Flipped() || r.Len(int(m.To)) != int(m.Count) {
					t.Fatalf("%s turned a card or did not fill a space", m)
				}
			}
			if !r.Equal(&q) {
				t.Fatal("the moves do not lead where fillSpaces left the position")
			}
			if ok && q.Spaces() != 0 {
				t.Fatalf("%d spaces left", q.Spaces())
			}
			if ok && q.StockLen() > 0 && q.CheckMove(spider.DealMove) != nil {
				t.Fatalf("cannot deal: %v", q.CheckMove(spider.DealMove))
			}
		})
	}
}

// TestSolveFillsSpacesToDeal is the regression test for the position that
// never dealt.
func TestSolveFillsSpacesToDeal(t *testing.T) {
	p := layout(t, spacesAndStock, 1)
	r := Solve(context.Background(), p, Limits{Nodes: 2_000_000})
	if r.Status != Solved {
		t.Fatalf("%s after %d nodes", r.Status, r.Nodes)
	}
	replay(t, p, r.Moves)
}
