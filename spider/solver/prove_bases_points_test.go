package solver

import (
	"context"
	"os"
	"strconv"
	"testing"

	"cardtable/spider"
)

// BenchmarkBaseProofBandPoints proves, at a fixed budget of 10 million
// nodes, the band points the base proof is measured on
// (docs/analysis.md, "Not done yet"): the greedy game of deal 1's point
// 53 and the fair player's games of deal 1's point 117 and deal 30's
// point 172. It reports the nodes, the positions the base proof cut and
// its states, and whether the point was decided (1) or not (0). The fair
// games take minutes to play; with CARDTABLE_BASE_GAMES naming a
// directory, they are kept there as saves and read back on later runs.
func BenchmarkBaseProofBandPoints(b *testing.B) {
	dir := os.Getenv("CARDTABLE_BASE_GAMES")
	for _, pt := range []struct {
		name   string
		player string
		deal   uint64
		k      int
	}{
		{"greedy-1-53", "greedy", 1, 53},
		{"fair-1-117", "fair", 1, 117},
		{"fair-30-172", "fair", 30, 172},
	} {
		b.Run(pt.name, func(b *testing.B) {
			p := (&walker{g: benchGame(b, pt.player, pt.deal, dir)}).at(pt.k)
			b.ResetTimer()
			for range b.N {
				pr := newProver(p, nil)
				r := pr.resume(context.Background(), Limits{Nodes: 10_000_000})
				decided := 0.0
				if r.Status != Unknown {
					decided = 1
				}
				b.ReportMetric(float64(r.Nodes), "nodes/op")
				b.ReportMetric(float64(pr.basesCut), "cut/op")
				b.ReportMetric(float64(len(pr.bases.lost)), "states/op")
				b.ReportMetric(decided, "decided")
			}
		})
	}
}

// benchGame is player's 4-suit Spider-layout game of deal d (greedy or
// fair, as `spider analyze bench` plays it), read from dir when a save of
// it is there and written there when played.
func benchGame(tb testing.TB, player string, d uint64, dir string) *spider.Game {
	tb.Helper()
	if player == "greedy" {
		return greedyGame(tb, d)
	}
	file := dir + "/" + player + "-" + strconv.FormatUint(d, 10) + ".save"
	if dir != "" {
		if text, err := os.ReadFile(file); err == nil {
			g, err := spider.Load(string(text))
			if err != nil {
				tb.Fatal(err)
			}
			return g
		}
	}
	g, err := spider.NewGame(d, spider.Options{Variant: spider.Spider, Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := Autoplay(context.Background(), g, AutoplayOptions); err != nil {
		tb.Fatal(err)
	}
	if dir != "" {
		if err := os.WriteFile(file, []byte(g.Save()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}
