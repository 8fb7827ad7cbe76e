package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cardtable/spider"
)

// moveCheck compares searchMoves with filtering Legal and counts what the
// filter met.
type moveCheck struct {
	positions, spaces, nulls, pointless int
}

func (mc *moveCheck) check(t testing.TB, p *spider.Position) {
	t.Helper()
	var buf, got [256]spider.Move
	var want []spider.Move
	for _, m := range p.Legal(buf[:0]) {
		switch {
		case m.Kind == spider.Remove:
		case p.Null(m):
			mc.nulls++
		case pointless(p, m):
			mc.pointless++
		default:
			want = append(want, m)
		}
	}
	if g := searchMoves(p, got[:0]); !slices.Equal(g, want) {
		t.Fatalf("searchMoves %v, want %v", g, want)
	}
	mc.positions++
	if p.Spaces() > 0 {
		mc.spaces++
	}
}

// TestSearchMovesFiltersLegal: searchMoves gives the moves of Legal less
// removals, null moves and pointless ones, in the same order (the beam's
// ties, and so its lines, depend on the order): on the positions along
// random games at every suit count, relaxed dealing too, and along the
// beam's winning lines of 1-suit deals and one move beside them (where
// spaces and null moves are common).
func TestSearchMovesFiltersLegal(t *testing.T) {
	var buf [256]spider.Move
	for _, suits := range []int{1, 2, 4} {
		for _, relaxed := range []bool{false, true} {
			t.Run(fmt.Sprintf("suits%d/relaxed%v", suits, relaxed), func(t *testing.T) {
				var mc moveCheck
				rng := rand.New(rand.NewPCG(uint64(suits), 7))
				for deal := uint64(1); deal <= 4; deal++ {
					p, err := spider.NewDeal(deal, spider.Spider, spider.Rules{Suits: suits, Relaxed: relaxed})
					if err != nil {
						t.Fatal(err)
					}
					for range 300 {
						mc.check(t, p)
						all := p.Legal(buf[:0])
						if len(all) == 0 {
							break
						}
						m := all[rng.IntN(len(all))]
						if all[0].Kind == spider.Remove {
							m = all[0] // removals first, as the searches make them
						}
						p.Do(m)
					}
				}
				if mc.positions < 300 || mc.pointless == 0 {
					t.Errorf("%+v", mc)
				}
			})
		}
	}
	t.Run("beam lines", func(t *testing.T) {
		var mc moveCheck
		for deal := uint64(1); deal <= 2; deal++ {
			p, err := spider.NewDeal(deal, spider.Spider, spider.Rules{Suits: 1})
			if err != nil {
				t.Fatal(err)
			}
			line, ok := beamSearch(p, 100, 1_000_000)
			if !ok {
				t.Fatalf("deal %d: the beam did not win", deal)
			}
			for _, m := range line {
				mc.check(t, p)
				for _, c := range p.Legal(buf[:0]) {
					q := *p
					q.Do(c)
					mc.check(t, &q)
				}
				p.Do(m)
			}
		}
		if mc.spaces == 0 || mc.nulls == 0 || mc.pointless == 0 {
			t.Errorf("%+v", mc)
		}
	})
}
