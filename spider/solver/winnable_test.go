package solver

import (
	"context"
	"fmt"
	"testing"

	"cardtable/spider"
)

// TestWinnableCache re-solves a sample of the cached deals, a few seconds'
// worth: the first (a low deal number) at one and four suits, and the last
// (a pool deal from the whole range; docs/solver.md) at one and two.
func TestWinnableCache(t *testing.T) { winnableCache(t, false) }

// TestLongWinnableCache re-solves eight deals of each variant and suit
// count, spread over the file.
func TestLongWinnableCache(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
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
			picks := []uint64{0, uint64(n - 1)}
			switch {
			case all:
				picks = nil
				for i := range 8 {
					picks = append(picks, uint64(i*(n-1)/7))
				}
			case suits == 4:
				picks = picks[:1]
			case suits == 2:
				picks = picks[1:]
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
					// The verdict and its line, without Solve's further
					// searches for a shorter one (as ProveWinnable).
					r := solveShort(context.Background(), p, Limits{Nodes: 50_000_000}, false)
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

// TestWinnablePool checks the pool part of the embedded file: for each
// variant and suit count, at least poolMin deals from the whole range
// (past the low numbers), spread over it.
func TestWinnablePool(t *testing.T) {
	for _, v := range []spider.Variant{spider.Arachnid, spider.Spider} {
		for _, suits := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s/%d-suit", v, suits), func(t *testing.T) {
				var pool, low, high int
				for _, n := range winnable()[variantSuits{v, suits}] {
					if n < 1_000_000 {
						continue
					}
					pool++
					if n < 1<<62 {
						low++
					}
					if n >= 3<<62 {
						high++
					}
				}
				if want := poolMin[suits]; pool < want {
					t.Errorf("%d pool deals, want at least %d", pool, want)
				}
				if low < pool/5 || high < pool/5 {
					t.Errorf("%d pool deals, %d in the lowest quarter of the range and %d in the highest", pool, low, high)
				}
			})
		}
	}
}
