package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"cardtable/spider"
)

const coveredRun = `pile1: |9C KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD 5C
pile2: 6C
pile3: KC
pile4: QC
pile5: JC 10C
pile6: 8C
pile7: 7C
pile8: 4C 3C
pile9: 2C
pile10: AC
completed: S H S H D C
`

// walkPositions are positions for the tests of the searches' shortcuts:
// along random games (removals made at once, as the searches make them)
// of every suit count, relaxed dealing too, of small endgames, and along
// the beam's winning lines of 1-suit deals and one move beside them,
// where spaces, null moves and removals are common.
// They are made once for the tests that use them.
func walkPositions(tb testing.TB) map[string][]spider.Position {
	tb.Helper()
	walked.once.Do(func() { walked.ps, walked.err = makeWalkPositions() })
	if walked.err != nil {
		tb.Fatal(walked.err)
	}
	return walked.ps
}

var walked struct {
	once sync.Once
	ps   map[string][]spider.Position
	err  error
}

func makeWalkPositions() (map[string][]spider.Position, error) {
	out := map[string][]spider.Position{}
	var buf [256]spider.Move
	walk := func(name string, p *spider.Position, r *rand.Rand, steps int) {
		for range steps {
			out[name] = append(out[name], *p)
			all := p.Legal(buf[:0])
			if len(all) == 0 {
				return
			}
			m := all[r.IntN(len(all))]
			if all[0].Kind == spider.Remove {
				m = all[0]
			}
			p.Do(m)
		}
	}
	for _, suits := range []int{1, 2, 4} {
		for _, relaxed := range []bool{false, true} {
			name := fmt.Sprintf("suits%d/relaxed%v", suits, relaxed)
			r := rand.New(rand.NewPCG(uint64(suits), 7))
			for deal := uint64(1); deal <= 4; deal++ {
				p, err := spider.NewDeal(deal, spider.Spider, spider.Rules{Suits: suits, Relaxed: relaxed})
				if err != nil {
					return nil, err
				}
				walk(name, p, r, 300)
			}
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	texts := []string{
		// A complete run that a deal covered, uncovered by a move.
		coveredRun,
		// The same with its king face down: twelve cards, no complete run.
		strings.Replace(coveredRun, "|9C KD", "|9C |KD", 1),
	}
	for range 20 {
		texts = append(texts, randomSmall(r))
	}
	for i, text := range texts {
		p, err := spider.ParseLayout(text, spider.Rules{Suits: 4})
		if err != nil {
			return nil, err
		}
		walk(fmt.Sprintf("layouts/%d", i), p, r, 60)
	}
	for deal := uint64(1); deal <= 1; deal++ {
		p, err := spider.NewDeal(deal, spider.Spider, spider.Rules{Suits: 1})
		if err != nil {
			return nil, err
		}
		line, ok := beamSearch(p, 100, 1_000_000)
		if !ok {
			return nil, fmt.Errorf("deal %d: the beam did not win", deal)
		}
		for _, m := range line {
			out["beam lines"] = append(out["beam lines"], *p)
			for _, c := range p.Legal(buf[:0]) {
				q := *p
				q.Do(c)
				out["beam lines"] = append(out["beam lines"], q)
			}
			p.Do(m)
		}
	}
	return out, nil
}

// TestSearchMovesFiltersLegal: searchMoves gives the moves of Legal less
// removals, null moves and pointless ones, in the same order (the beam's
// ties, and so its lines, depend on the order).
func TestSearchMovesFiltersLegal(t *testing.T) {
	var buf, got [256]spider.Move
	spaces, nulls, pointlessOnes := 0, 0, 0
	for name, ps := range walkPositions(t) {
		t.Run(name, func(t *testing.T) {
			for i := range ps {
				p := &ps[i]
				var want []spider.Move
				for _, m := range p.Legal(buf[:0]) {
					switch {
					case m.Kind == spider.Remove:
					case p.Null(m):
						nulls++
					case pointless(p, m):
						pointlessOnes++
					default:
						want = append(want, m)
					}
				}
				if g := searchMoves(p, got[:0]); !slices.Equal(g, want) {
					t.Fatalf("%s\nsearchMoves %v, want %v", p.FormatLayout(), g, want)
				}
				if p.Spaces() > 0 {
					spaces++
				}
			}
		})
	}
	// The positions must meet what the filter is about.
	if spaces == 0 || nulls == 0 || pointlessOnes == 0 {
		t.Errorf("%d positions with a space, %d null moves, %d pointless ones", spaces, nulls, pointlessOnes)
	}
}

// TestAfterMoveAgrees: what after.go and leaveFull read from the
// position before a card move agrees with making the move and computing
// afresh: whether a run is complete at either pile, the two piles' hash
// terms and their full-information evaluations.
func TestAfterMoveAgrees(t *testing.T) {
	var buf [256]spider.Move
	completes, turns := 0, 0
	for name, ps := range walkPositions(t) {
		t.Run(name, func(t *testing.T) {
			for i := range ps {
				p := &ps[i]
				for _, m := range p.Legal(buf[:0]) {
					if m.Kind != spider.MoveCards {
						continue
					}
					f, to, n := int(m.From), int(m.To), int(m.Count)
					q := *p
					q.Do(m)
					where := func() string { return fmt.Sprintf("%s\n%s", p.FormatLayout(), m) }
					want := complete(&q, to) || complete(&q, f)
					if got := completesAfter(p, f, to, n); got != want {
						t.Fatalf("%s: completesAfter %v, want %v", where(), got, want)
					}
					if want {
						completes++
						continue
					}
					if got, want := termLeave(p, f, n), pileTerm(&q, f); got != want {
						t.Fatalf("%s: termLeave %x, want %x", where(), got, want)
					}
					if got, want := termArrive(p, f, to, n), pileTerm(&q, to); got != want {
						t.Fatalf("%s: termArrive %x, want %x", where(), got, want)
					}
					lost, turned := leaveFull(p, f, n, &full4)
					if turned != 0 {
						turns++
					}
					if q.Len(f) > 0 {
						if got, want := pileFull(p, f, &full4)-lost+turned, pileFull(&q, f, &full4); got != want {
							t.Fatalf("%s: leaving %d, want %d", where(), got, want)
						}
					}
					if got, want := arriveFull(p, f, to, n, pileFull(p, to, &full4), &full4), pileFull(&q, to, &full4); got != want {
						t.Fatalf("%s: arriveFull %d, want %d", where(), got, want)
					}
				}
			}
		})
	}
	if completes == 0 || turns == 0 {
		t.Errorf("%d moves completed a run, %d turned a card: too few", completes, turns)
	}
}
