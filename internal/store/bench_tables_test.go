package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"cardtable/internal/table"
)

// BenchmarkAppendAction is the cost of storing one action of a live
// table while 1,000 tables store theirs at once (each table waits for its
// action to be stored before the next, as a table's goroutine does). It
// reports the slowest store's time too: one slow commit holds every table
// waiting behind it.
//
//	go test -run '^$' -bench AppendAction -benchtime 20000x ./internal/store
func BenchmarkAppendAction(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	const tables = 1000
	for i := range tables {
		s := table.Stored{ID: fmt.Sprint("t", i), Creator: "c", Config: "{}", Seats: make([]table.StoredSeat, 3),
			Status: table.StatusOpen, Created: t0, Updated: t0}
		if err := db.CreateTable(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	per := max(1, b.N/tables)
	lat := make([][]time.Duration, tables)
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			for seq := range per {
				t := time.Now()
				if err := db.AppendAction(ctx, fmt.Sprint("t", i), seq, table.StoredMove{Seat: seq % 3, Action: "lead 7S"}); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(all[len(all)-1].Microseconds())/1000, "max-ms")
}
