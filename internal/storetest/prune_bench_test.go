package storetest_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/storetest"
)

// unseenBacklog gives n players, unseen for years, a result and settings
// each, and one player seen now with as much: a backlog for pruning to
// forget, and one it must keep.
func unseenBacklog(tb testing.TB, s storetest.Store, n int) {
	tb.Helper()
	ctx := context.Background()
	old := time.Now().Add(-3 * 365 * day).UnixMilli()
	var players, results, settings []any
	flush := func() {
		for table, rows := range map[string][]any{"players": players, "results": results, "settings": settings} {
			if err := s.Import(ctx, table, rows); err != nil {
				tb.Fatal(err)
			}
		}
		players, results, settings = players[:0], results[:0], settings[:0]
	}
	for i := range n + 1 {
		p, seen := "u"+strconv.Itoa(i), old
		if i == n {
			p, seen = "kept", time.Now().UnixMilli()
		}
		players = append(players, dbcopy.Player{Player: p, Seen: seen})
		results = append(results, dbcopy.Result{Player: p, Lineage: "l" + p, Variant: "spider", Suits: 1, Won: true, Score: 9, At: seen})
		settings = append(settings, dbcopy.Setting{Player: p, JSON: "{}"})
		if len(players) == 5000 {
			flush()
		}
	}
	flush()
}

// BenchmarkPruneUnseen forgets a backlog of n unseen players on each
// store: the time a player (ns/player) should not grow with n, each batch
// finding its players' rows through the tables' player indexes.
func BenchmarkPruneUnseen(b *testing.B) {
	for _, be := range storetest.Backends() {
		for _, n := range []int{5_000, 20_000, 80_000} {
			b.Run(be.Name+"/"+strconv.Itoa(n), func(b *testing.B) {
				ctx := context.Background()
				for b.Loop() {
					b.StopTimer()
					s := be.Fresh(b)
					unseenBacklog(b, s, n)
					b.StartTimer()
					forgot, err := s.PruneUnseen(ctx, time.Now(), 402*day)
					if err != nil {
						b.Fatal(err)
					}
					if forgot != int64(n) {
						b.Fatalf("forgot %d players, want %d", forgot, n)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/player")
			})
		}
	}
}
