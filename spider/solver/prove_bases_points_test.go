package solver

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"cardtable/spider"
)

// TestMeasureBaseProofPoints proves the band points the base proof was
// measured on (docs/analysis.md, "Not done yet") at a fixed node budget:
// the greedy game of deal 1's point 53, the fair player's game of deal
// 1's point 117 and of deal 30's point 172. A measurement, not a check:
// it runs only with CARDTABLE_BASE_POINTS set to the node budget, and
// keeps the fair games' saves in CARDTABLE_BASE_GAMES (a directory) to
// be made once.
func TestMeasureBaseProofPoints(t *testing.T) {
	budget, _ := strconv.ParseInt(os.Getenv("CARDTABLE_BASE_POINTS"), 10, 64)
	if budget <= 0 {
		t.Skip("a measurement: set CARDTABLE_BASE_POINTS to a node budget")
	}
	dir := os.Getenv("CARDTABLE_BASE_GAMES")
	points := []struct {
		name   string
		player string
		deal   uint64
		k      int
	}{
		{"greedy 1 point 53", "greedy", 1, 53},
		{"fair 1 point 117", "fair", 1, 117},
		{"fair 30 point 172", "fair", 30, 172},
	}
	for _, pt := range points {
		t.Run(pt.name, func(t *testing.T) {
			g := measuredGame(t, pt.player, pt.deal, dir)
			p := (&walker{g: g}).at(pt.k)
			pr := newProver(p, nil)
			start := time.Now()
			r := pr.resume(context.Background(), Limits{Nodes: budget})
			secs := time.Since(start).Seconds()
			t.Logf("%s: %s after %d nodes, %.1f s (%.2f µs a node), %d positions cut by the base proof, %d states, %d face down",
				pt.name, r.Status, r.Nodes, secs, secs*1e6/float64(max(1, r.Nodes)), pr.basesCut, len(pr.bases.lost), p.FaceDown())
		})
	}
}

// measuredGame is player's 4-suit Spider-layout game of deal d, read
// from dir when a save of it is there and written there when made.
func measuredGame(tb testing.TB, player string, d uint64, dir string) *spider.Game {
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
