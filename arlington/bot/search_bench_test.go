package bot

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"cardtable/arlington"
)

// positions collects the views a seat decided on in a greedy game, every
// step-th decision with more than one legal action.
func positions(tb testing.TB, players int, seed uint64, step int) []arlington.View {
	tb.Helper()
	s, err := arlington.New(arlington.Config{Players: players}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	g := NewGreedy(seed)
	var out []arlington.View
	for k := 0; !s.Terminal(); k++ {
		v := s.View(s.ToMove())
		if k%step == 0 && len(v.Legal()) > 1 {
			out = append(out, v)
		}
		a, err := g.Act(context.Background(), v)
		if err != nil {
			tb.Fatal(err)
		}
		if err := s.Apply(v.Seat, a); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// BenchmarkLevels times one decision of each level (and, for comparison,
// ISMCTS at hard's budget and PIMC at expert's), with its full budget and time bound, on positions from greedy games (only decisions with a
// choice). Besides ns/op it reports decisions/s and the median and
// largest time per decision in ms.
func BenchmarkLevels(b *testing.B) {
	for _, players := range []int{2, 4, 6} {
		views := positions(b, players, 7, 5)
		names := append([]string(nil), Names[2:]...)
		names = append(names, "ismcts-hard", "pimc-expert")
		for _, name := range names {
			b.Run(fmt.Sprintf("players=%d/%s", players, name), func(b *testing.B) {
				bot, err := New(name, 1)
				if err != nil {
					b.Fatal(err)
				}
				var times []time.Duration
				i := 0
				for b.Loop() {
					v := views[i%len(views)]
					i++
					t0 := time.Now()
					if _, err := bot.Act(context.Background(), v); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(t0))
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				b.ReportMetric(float64(len(times))/b.Elapsed().Seconds(), "decisions/s")
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
				b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
			})
		}
	}
}
