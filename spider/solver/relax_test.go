package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"cardtable/spider"
)

// TestMergedLayout: a merged position keeps every pile's length and
// face-down count, the stock and the suits removed, and merges the suits
// as its pairing says.
func TestMergedLayout(t *testing.T) {
	p := layout(t, randomStock(rand.New(rand.NewPCG(5, 1))), 4)
	for _, pr := range pairings {
		q := merged(p, pr)
		if q == nil || q.Suits() != 2 {
			t.Fatalf("%s: merged %v", pr, q)
		}
		if q.StockLen() != p.StockLen() || q.NumRemoved() != p.NumRemoved() || q.FaceDown() != p.FaceDown() {
			t.Fatalf("%s: stock %d removed %d down %d, want %d %d %d", pr, q.StockLen(), q.NumRemoved(), q.FaceDown(), p.StockLen(), p.NumRemoved(), p.FaceDown())
		}
		for k := range spider.Piles {
			if q.Len(k) != p.Len(k) || q.Down(k) != p.Down(k) {
				t.Fatalf("%s: pile %d differs", pr, k+1)
			}
			for j := range p.Len(k) {
				a, b := p.Card(k, j), q.Card(k, j)
				if a.Rank() != b.Rank() || b.Suit().String()[0] != mergeSuit(a.Suit().String()[0], pr) {
					t.Fatalf("%s: pile %d card %d: %s merged to %s", pr, k+1, j, a, b)
				}
			}
		}
	}
	if merged(layout(t, oneMove, 1), pairings[0]) != nil {
		t.Fatal("a 1-suit position was merged")
	}
}

// TestMergedKnownLosses: the known lost positions are proven lost
// through the pairing that keeps their two suits apart.
func TestMergedKnownLosses(t *testing.T) {
	for _, text := range []string{deadEnd, jams} {
		m := newProverKeep(merged(layout(t, text, 4), "SHHS"), nil, true).resume(context.Background(), Limits{Nodes: 1_000_000})
		if m.Status != Unsolvable {
			t.Fatalf("merged proof: %s after %d nodes, want unsolvable:\n%s", m.Status, m.Nodes, text)
		}
	}
}

// TestLongMergedLossesAreLosses: on small 4-suit positions (two suits
// in play, which one of the pairings merges into one), a merged proof
// never calls lost a position that brute force (every legal move,
// complete runs kept or removed) wins, and it does prove losses.
func TestLongMergedLossesAreLosses(t *testing.T) {
	if testing.Short() {
		t.Skip("400 merged proofs; TestMergedKnownLosses and TestLostProbesNeverLoseAWin are the quick checks")
	}
	r := rand.New(rand.NewPCG(7, 7))
	var checked, tried int
	for i := 0; i < 400 && checked < 3; i++ {
		text := randomSmall(r)
		p := layout(t, text, 4)
		m := newProverKeep(merged(p, "HHSS"), nil, true).resume(context.Background(), Limits{Nodes: 20_000})
		tried++
		if m.Status != Unsolvable {
			continue
		}
		win, ok := bruteWinnable(t, *p, 50_000)
		if !ok {
			continue
		}
		checked++
		if win {
			t.Fatalf("position %d: merged proof says lost, brute force wins:\n%s", i, text)
		}
	}
	t.Logf("%d merged losses checked by brute force in %d positions", checked, tried)
	if checked == 0 {
		t.Fatal("no merged loss to check")
	}
}
