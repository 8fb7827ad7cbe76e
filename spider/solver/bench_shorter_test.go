package solver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cardtable/spider"
)

// BenchmarkShorter times the further searches (shorter) on the first
// search's line of 4-suit deals, the part of Solve after its verdict.
// The first search runs before the timer; the further searches' budgets
// are multiples of its nodes, so the work per op is fixed.
func BenchmarkShorter(b *testing.B) {
	for _, bc := range []struct {
		deal  uint64
		suits int
	}{{3, 4}, {2, 1}} {
		b.Run(fmt.Sprintf("%dsuit/deal%d", bc.suits, bc.deal), func(b *testing.B) {
			p, err := spider.NewDeal(bc.deal, spider.Spider, spider.Rules{Suits: bc.suits})
			if err != nil {
				b.Fatal(err)
			}
			first := solveShort(context.Background(), p, Limits{}, false)
			if first.Status != Solved {
				b.Fatalf("deal %d: %s", bc.deal, first.Status)
			}
			var nodes int64
			for b.Loop() {
				_, n := shorter(context.Background(), p, Limits{}, time.Now(), first.Moves, first.Nodes)
				nodes += n
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkBeamPerStage times the full-information beam with a beam for
// each number of rows dealt (beam4.go) on a 4-suit deal, at a fixed
// budget of positions.
func BenchmarkBeamPerStage(b *testing.B) {
	p, err := spider.NewDeal(3, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		b.Fatal(err)
	}
	var gen int
	bm := &beamer{fw: &full4, perStage: true}
	for b.Loop() {
		bm.run(p, 200, 1_000_000)
		gen += bm.gen
		bm.gen = 0
	}
	b.ReportMetric(float64(gen)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkShorten times shortening (cutLine and the last stage's A*)
// of the first search's line of a 4-suit deal.
func BenchmarkShorten(b *testing.B) {
	p, err := spider.NewDeal(3, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		b.Fatal(err)
	}
	s := newSearch(context.Background(), p, Limits{})
	s.portfolio = weightSets
	s.depthPen = depthPenalty
	r := s.run()
	if r.Status != Solved {
		b.Fatal(r.Status)
	}
	for b.Loop() {
		shorten(p, r.Moves, shortenLimit(r.Nodes))
	}
}
