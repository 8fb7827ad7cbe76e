package spidergame_test

import (
	"fmt"
	"runtime"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/internal/web/webtest"
)

// TestCacheEstimate: what the cache counts for a game is within 30% of
// what keeping it costs the heap: the heap's goal after a collection (the
// size the heap grows to before the next one), per game, for short and
// long games. Their live bytes alone are about half of it at the default
// GOGC; both are logged.
func TestCacheEstimate(t *testing.T) {
	for _, c := range []struct{ moves, games int }{{200, 200}, {10000, 20}} {
		t.Run(fmt.Sprintf("moves=%d", c.moves), func(t *testing.T) {
			save := webtest.ShuttleSave(c.moves)
			gs := spidergame.New(nil, spidergame.Options{CacheBytes: 1 << 40, MaxGames: 1 << 30})
			// Ballast keeps the heap's goal above its 4 MiB floor, so
			// that the goal moves with what the games hold.
			ballast := make([]byte, 16<<20)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for i := range c.games {
				if err := gs.Keep(fmt.Sprint(i), save); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(ballast)
			n, bytes := gs.Use()
			if n != c.games {
				t.Fatalf("%d games cached of %d", n, c.games)
			}
			est := float64(bytes) / float64(c.games)
			live := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(c.games)
			goal := float64(int64(after.NextGC)-int64(before.NextGC)) / float64(c.games)
			t.Logf("per game: estimate %.0f B, heap goal grew %.0f B (estimate/goal %.2f), live heap grew %.0f B (estimate/live %.2f)",
				est, goal, est/goal, live, est/live)
			if est < goal*0.7 || est > goal*1.3 {
				t.Fatalf("estimate %.0f B a game, heap goal %.0f B a game: off by more than 30%%", est, goal)
			}
		})
	}
}
