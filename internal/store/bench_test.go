package store

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkUpdateGame is the cost of storing one move: rewriting a game's
// row (a save text of a game 150 moves in) in its own transaction.
func BenchmarkUpdateGame(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	save := strings.Repeat("move 3 7 2\n", 150)
	const games = 1000
	for i := range games {
		g := GameRecord{ID: fmt.Sprint(i), Lineage: fmt.Sprint(i), Save: save, Created: t0, Updated: t0}
		if err := db.CreateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		g := GameRecord{ID: fmt.Sprint(i % games), Lineage: "x", Save: save, Updated: time.Now()}
		if err := db.UpdateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateGameParallel stores moves from many goroutines at once, as
// the server does under load.
func BenchmarkUpdateGameParallel(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	save := strings.Repeat("move 3 7 2\n", 150)
	const games = 1000
	for i := range games {
		g := GameRecord{ID: fmt.Sprint(i), Lineage: fmt.Sprint(i), Save: save, Created: t0, Updated: t0}
		if err := db.CreateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(25)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			g := GameRecord{ID: fmt.Sprint(i % games), Lineage: "x", Save: save, Updated: time.Now()}
			if err := db.UpdateGame(ctx, g); err != nil {
				b.Fatal(err)
			}
		}
	})
}
