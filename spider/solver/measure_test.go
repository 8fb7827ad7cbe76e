//go:build measure

package solver

// Measurements of what Solve's lines are made of (docs/solver.md, "How a
// line is counted"). They are not tests of behaviour and take minutes,
// so they build only with the measure tag:
//
//	go test -tags measure -run TestMeasure -v ./spider/solver -args -deals 1-100 -suits 1
//
// Each prints its figures; none fails unless a line does not win.

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/card"
	"cardtable/spider"
)

var (
	measureDeals = flag.String("deals", "1-100", "Spider layout deals: A-B, or a list of them and single deals, separated by commas")
	measureSuits = flag.Int("suits", 1, "suit count")
)

// measureRange is -deals as numbers: ranges A-B and single deals,
// separated by commas.
func measureRange(tb testing.TB) []uint64 {
	var out []uint64
	for _, part := range strings.Split(*measureDeals, ",") {
		a, b, ok := strings.Cut(part, "-")
		if !ok {
			b = a
		}
		lo, err1 := strconv.ParseUint(a, 10, 64)
		hi, err2 := strconv.ParseUint(b, 10, 64)
		if err1 != nil || err2 != nil || lo == 0 || hi < lo {
			tb.Fatalf("-deals %q: want ranges A-B or deals, separated by commas", *measureDeals)
		}
		for d := lo; d <= hi; d++ {
			out = append(out, d)
		}
	}
	return out
}

// eachDeal runs f on every deal of -deals, on every core.
func eachDeal(tb testing.TB, f func(i int, p *spider.Position)) int {
	deals := measureRange(tb)
	var wg sync.WaitGroup
	ch := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range ch {
				p, err := spider.NewDeal(deals[i], spider.Spider, spider.Rules{Suits: *measureSuits})
				if err != nil {
					tb.Error(err)
					continue
				}
				f(i, p)
			}
		})
	}
	for i := range deals {
		ch <- i
	}
	close(ch)
	wg.Wait()
	return len(deals)
}

// pairs is the number of cards a win must still settle: cards that lie
// neither on the next card of their suit nor, as a king, at the foot of a
// pile (every card is known).
func pairs(p *spider.Position) int {
	n := 0
	for k := range spider.Piles {
		for j := range p.Len(k) {
			if c := p.Card(k, j); j > 0 || c.Rank() != card.King {
				if j == 0 || p.Card(k, j-1) != c+1 {
					n++
				}
			}
		}
	}
	return n
}

// landing is how many cards of p's next row would land on the next card
// of their suit.
func landing(p *spider.Position) int {
	if p.StockLen() == 0 {
		return 0
	}
	var st [50]card.Card
	row := p.Stock(st[:0])
	n := 0
	for k := range spider.Piles {
		if l := p.Len(k); l > 0 && row[k]+1 == p.Card(k, l-1) {
			n++
		}
	}
	return n
}

// lineParts is what one line is made of.
type lineParts struct {
	moves, removals, deals int
	atStart                int    // pairs of the layout
	footKings              int    // kings at the foot of a layout pile
	settle, other          int    // card moves that settle a pair, and the others
	landed                 [5]int // dealt cards landing on their next card, per deal
	space, kingSpace       int    // card moves into a space, kings among them
	stage                  [6]int // card moves before each deal, and after the last
}

func partsOf(p *spider.Position, line []spider.Move) lineParts {
	q := *p
	lp := lineParts{moves: len(line), atStart: pairs(&q)}
	for k := range spider.Piles {
		if q.Len(k) > 0 && q.Card(k, 0).Rank() == card.King {
			lp.footKings++
		}
	}
	for _, m := range line {
		switch m.Kind {
		case spider.Deal:
			lp.landed[lp.deals] = landing(&q)
			lp.deals++
		case spider.Remove:
			lp.removals++
		case spider.MoveCards:
			lp.stage[lp.deals]++
			f, t := int(m.From), int(m.To)
			if q.Len(t) == 0 {
				lp.space++
				if q.Card(f, q.Len(f)-int(m.Count)).Rank() == card.King {
					lp.kingSpace++
				}
			}
			before := pairs(&q)
			q.Do(m)
			if pairs(&q) < before {
				lp.settle++
			} else {
				lp.other++
			}
			continue
		}
		q.Do(m)
	}
	return lp
}

// TestMeasureLineParts solves every deal and counts what its line is made
// of: card moves that settle a pair and others, cards landing where dealt,
// moves into spaces.
func TestMeasureLineParts(t *testing.T) {
	var mu sync.Mutex
	var all []lineParts
	n := eachDeal(t, func(i int, p *spider.Position) {
		r := Solve(context.Background(), p, Limits{Time: 30 * time.Second})
		if r.Status != Solved {
			return
		}
		if !wins(p, r.Moves) {
			t.Errorf("deal %d: the line does not win", i+1)
		}
		lp := partsOf(p, r.Moves)
		mu.Lock()
		all = append(all, lp)
		mu.Unlock()
	})
	mean := func(f func(lineParts) int) string {
		s := 0
		for _, lp := range all {
			s += f(lp)
		}
		return fmt.Sprintf("%.1f", float64(s)/float64(len(all)))
	}
	med := func(f func(lineParts) int) int {
		v := make([]int, len(all))
		for i, lp := range all {
			v[i] = f(lp)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	t.Logf("%d suits, %d deals, %d solved", *measureSuits, n, len(all))
	t.Logf("line: median %d every move, %d card moves", med(func(l lineParts) int { return l.moves }), med(func(l lineParts) int { return l.settle + l.other }))
	t.Logf("card moves (means): %s settle a pair, %s do not; %s into a space (%s kings)",
		mean(func(l lineParts) int { return l.settle }), mean(func(l lineParts) int { return l.other }),
		mean(func(l lineParts) int { return l.space }), mean(func(l lineParts) int { return l.kingSpace }))
	t.Logf("pairs in the layout %s; dealt cards landing on their next card %s (per deal: %s %s %s %s %s)",
		mean(func(l lineParts) int { return l.atStart }),
		mean(func(l lineParts) int { return l.landed[0] + l.landed[1] + l.landed[2] + l.landed[3] + l.landed[4] }),
		mean(func(l lineParts) int { return l.landed[0] }), mean(func(l lineParts) int { return l.landed[1] }),
		mean(func(l lineParts) int { return l.landed[2] }), mean(func(l lineParts) int { return l.landed[3] }),
		mean(func(l lineParts) int { return l.landed[4] }))
	t.Logf("kings not at the foot of a pile %s (of %d); pairs gone without a move (kings removed where they lie) %s",
		mean(func(l lineParts) int { return 8 - l.footKings }), 8,
		mean(func(l lineParts) int {
			return l.atStart + 50 - l.landed[0] - l.landed[1] - l.landed[2] - l.landed[3] - l.landed[4] - l.settle
		}))
	t.Logf("card moves before each deal and after the last: %s %s %s %s %s %s",
		mean(func(l lineParts) int { return l.stage[0] }), mean(func(l lineParts) int { return l.stage[1] }),
		mean(func(l lineParts) int { return l.stage[2] }), mean(func(l lineParts) int { return l.stage[3] }),
		mean(func(l lineParts) int { return l.stage[4] }), mean(func(l lineParts) int { return l.stage[5] }))
}

// TestMeasureFirstRowCeiling: the most cards of the first row that can
// land on their next card, over every position the layout reaches by card
// moves that each settle a pair (at most 3 million positions a deal),
// against the first deal of Solve's line.
func TestMeasureFirstRowCeiling(t *testing.T) {
	var mu sync.Mutex
	var ceil, got, cut int
	n := eachDeal(t, func(i int, p *spider.Position) {
		best, capped := settleCeiling(p, 3_000_000)
		r := Solve(context.Background(), p, Limits{Time: 30 * time.Second})
		lp := partsOf(p, r.Moves)
		mu.Lock()
		defer mu.Unlock()
		ceil += best
		got += lp.landed[0]
		if capped {
			cut++
		}
	})
	t.Logf("%d suits, %d deals: first row landing, ceiling by settling moves %.2f (search cut on %d deals), Solve's line %.2f",
		*measureSuits, n, float64(ceil)/float64(n), cut, float64(got)/float64(n))
}

// settleCeiling is the most cards of the next row landing on their next
// card over the positions p reaches by settling moves with no space
// (where the row may be dealt), and whether the search hit its limit.
func settleCeiling(p *spider.Position, limit int) (int, bool) {
	seen := map[uint64]bool{hashPos(p): true}
	best, nodes := landing(p), 0
	var walk func(q *spider.Position)
	walk = func(q *spider.Position) {
		if nodes++; nodes > limit {
			return
		}
		if q.Spaces() == 0 {
			best = max(best, landing(q))
		}
		var buf [256]spider.Move
		before := pairs(q)
		for _, m := range searchMoves(q, buf[:0]) {
			if m.Kind != spider.MoveCards {
				continue
			}
			r := *q
			r.Do(m)
			if h := hashPos(&r); pairs(&r) < before && !seen[h] {
				seen[h] = true
				walk(&r)
			}
		}
	}
	walk(p)
	return best, nodes > limit
}

// TestMeasureBeams runs the beam of 1 suit (full1) with other widths and
// weights and reports each one's median line and the median of the best
// line of all of them, deal by deal.
func TestMeasureBeams(t *testing.T) {
	type cfg struct {
		width            int
		land, space, dwn int32
	}
	cfgs := []cfg{{100, 10, 10, 3}, {200, 10, 10, 3}, {300, 10, 10, 3}, {100, 20, 10, 3}, {100, 5, 10, 3},
		{100, 15, 10, 3}, {100, 10, 20, 3}, {100, 10, 5, 3}, {100, 10, 10, 0}, {100, 10, 10, 6}}
	deals := measureRange(t)
	lens := make([][]int, len(cfgs))
	for c, cf := range cfgs {
		lens[c] = make([]int, len(deals))
		w := full1
		w.land, w.space, w.down = cf.land, cf.space, cf.dwn
		eachDeal(t, func(i int, p *spider.Position) {
			b := &beamer{fw: &w, perStage: true}
			line, ok := b.run(p, cf.width, 3_000_000)
			lens[c][i] = 1 << 20 // lost
			if ok {
				line = shorten(p, line, shortenLimit(int64(b.gen)))
				if !wins(p, line) {
					t.Errorf("deal %d: the line does not win", deals[i])
				}
				lens[c][i] = len(line)
			}
		})
		t.Logf("width %d, land %d, space %d, face down %d: median %d", cf.width, cf.land, cf.space, cf.dwn, median(lens[c]))
	}
	best := make([]int, len(deals))
	for i := range deals {
		best[i] = lens[0][i]
		for c := range cfgs {
			best[i] = min(best[i], lens[c][i])
		}
	}
	t.Logf("the best of all %d, deal by deal: median %d", len(cfgs), median(best))
}

func median(v []int) int {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestMeasureLastStage searches the last stage of Solve's lines again
// with plain A* (weight 1, the shortest line when it ends) and up to 5
// million positions, and counts the moves it saves.
func TestMeasureLastStage(t *testing.T) {
	lines := make([][]spider.Move, len(measureRange(t)))
	eachDeal(t, func(i int, p *spider.Position) {
		if r := Solve(context.Background(), p, Limits{Time: 30 * time.Second}); r.Status == Solved {
			lines[i] = r.Moves
		}
	})
	// Solve's own shortening searched with weight 2; only the searches
	// below use 1.
	astarWeight = 1
	t.Cleanup(func() { astarWeight = 2 })
	after := make([]int, len(lines))
	eachDeal(t, func(i int, p *spider.Position) {
		after[i] = len(lines[i])
		if again := lastStage(p, lines[i], 5_000_000); len(again) < len(lines[i]) && wins(p, again) {
			after[i] = len(cutLine(p, again))
		}
	})
	saved, shorter := 0, 0
	var before, solved []int
	for i := range lines {
		if lines[i] == nil {
			continue
		}
		saved += len(lines[i]) - after[i]
		if after[i] < len(lines[i]) {
			shorter++
		}
		before = append(before, len(lines[i]))
		solved = append(solved, after[i])
	}
	t.Logf("%d suits, %d solved: plain A* on the last stage saved %d moves in all, %d lines shorter; median %d → %d",
		*measureSuits, len(solved), saved, shorter, median(before), median(solved))
}
