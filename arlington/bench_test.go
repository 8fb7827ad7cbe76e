package arlington

import (
	"fmt"
	"testing"
)

// BenchmarkRandomGame plays whole games of uniformly random legal
// actions, through Legal and Apply only: the engine's own speed.
func BenchmarkRandomGame(b *testing.B) {
	for _, players := range []int{2, 4, 6} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			actions, games := 0, 0
			for i := 0; b.Loop(); i++ {
				s := randomGame(b, players, uint64(i), nil)
				actions += len(s.History())
				games++
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
