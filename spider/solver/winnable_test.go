package solver

import (
	"context"
	"fmt"
	"testing"

	"cardtable/spider"
)

// TestWinnableCache re-solves a sample of the cached deals: the first, the
// middle and the last of each variant and suit count (only the first for
// four suits, to keep the test short). The short suite solves only the
// first of each.
func TestWinnableCache(t *testing.T) { winnableCache(t, false) }

// TestLongWinnableCache is TestWinnableCache with the middle and last deals.
func TestLongWinnableCache(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	winnableCache(t, true)
}

func winnableCache(t *testing.T, all bool) {
	for _, v := range []spider.Variant{spider.Arachnid, spider.Spider} {
		for _, suits := range []int{1, 2, 4} {
			n := WinnableCount(v, suits)
			if n == 0 {
				t.Errorf("%s %d suits: no cached deals", v, suits)
				continue
			}
			picks := []uint64{0, uint64(n / 2), uint64(n - 1)}
			if suits == 4 || !all {
				picks = picks[:1]
			}
			for _, pick := range picks {
				deal, ok := WinnableDeal(v, suits, pick)
				if !ok {
					t.Fatal("no deal for a cached combination")
				}
				t.Run(fmt.Sprintf("%s/%d-suit/deal%d", v, suits, deal), func(t *testing.T) {
					p, err := spider.NewDeal(deal, v, spider.Rules{Suits: suits})
					if err != nil {
						t.Fatal(err)
					}
					r := Solve(context.Background(), p, Limits{Nodes: 50_000_000})
					if r.Status != Solved {
						t.Fatalf("cached deal %d: %s after %d nodes", deal, r.Status, r.Nodes)
					}
					replay(t, p, r.Moves)
				})
			}
		}
	}
}

func TestWinnableDealPicks(t *testing.T) {
	n := WinnableCount(spider.Arachnid, 1)
	if n < 2 {
		t.Fatalf("want at least two cached 1-suit deals, have %d", n)
	}
	a, _ := WinnableDeal(spider.Arachnid, 1, 0)
	b, _ := WinnableDeal(spider.Arachnid, 1, 1)
	c, _ := WinnableDeal(spider.Arachnid, 1, uint64(n))
	if a == b || a != c {
		t.Errorf("picks 0, 1, n gave %d, %d, %d: want distinct then wrapping", a, b, c)
	}
	if d, ok := WinnableDeal(spider.Arachnid, 0, 0); !ok || d == 0 {
		t.Error("suits 0 means 4")
	}
	if _, ok := WinnableDeal(spider.Arachnid, 3, 0); ok {
		t.Error("3 suits has no cache")
	}
}
