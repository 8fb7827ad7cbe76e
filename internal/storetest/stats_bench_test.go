package storetest_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/storetest"
)

// BenchmarkStats is the statistics request of one player with n results
// spread over the groups, on each store: what docs/api.md ("Retention")
// weighs when choosing how the stores add them up.
func BenchmarkStats(b *testing.B) {
	for _, be := range storetest.Backends() {
		for _, n := range []int{1_000, 100_000} {
			b.Run(be.Name+"/"+strconv.Itoa(n), func(b *testing.B) {
				s := be.Fresh(b)
				ctx := context.Background()
				base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
				variants := []string{"spider", "arachnid"}
				var rows []any
				for i := range n {
					rows = append(rows, dbcopy.Result{Player: "p", Lineage: "l" + strconv.Itoa(i),
						Variant: variants[i%2], Suits: []int{1, 2, 4}[i%3], Won: i%5 != 0, Score: i % 900,
						At: base + int64(i)*1000, Played: int64(i%7) * 1000})
					if len(rows) == 5000 || i == n-1 {
						if err := s.Import(ctx, "results", rows); err != nil {
							b.Fatal(err)
						}
						rows = rows[:0]
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := s.Stats(ctx, "p"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
