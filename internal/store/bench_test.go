package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkUpdateGame is the cost of storing one move (one log row, in its
// own transaction) on games whose log already holds 10 or 10,000 commands:
// the two should cost the same.
//
//	go test -run '^$' -bench UpdateGame ./internal/store
func BenchmarkUpdateGame(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("log=%d", n), func(b *testing.B) {
			ctx := context.Background()
			db, _ := openTemp(b)
			save := strings.Repeat("move 3 7 2\n", 150)
			const games = 20
			version := make([]int64, games)
			for i := range games {
				g := GameRecord{ID: fmt.Sprint(i), Player: "p", Lineage: fmt.Sprint(i), Save: save, Created: t0, Updated: t0}
				if err := db.CreateGame(ctx, g); err != nil {
					b.Fatal(err)
				}
				version[i] = 1
			}
			err := db.tx(ctx, func(tx *sql.Tx) error {
				for i := range games {
					for k := range n {
						if _, err := tx.Exec(`INSERT INTO game_log VALUES (?, ?, 'move 1 2 1')`, fmt.Sprint(i), k); err != nil {
							return err
						}
					}
					if _, err := tx.Exec(`UPDATE games SET logn = ? WHERE id = ?`, n, fmt.Sprint(i)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k := i % games
				c := Change{ID: fmt.Sprint(k), Player: "p", Version: version[k], Cmd: "move 3 7 2", Updated: time.Now()}
				if err := db.UpdateGame(ctx, c); err != nil {
					b.Fatal(err)
				}
				version[k]++
			}
		})
	}
}

// BenchmarkUpdateGameParallel stores moves from many goroutines at once, as
// the server does under load (each goroutine its own games).
func BenchmarkUpdateGameParallel(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	save := strings.Repeat("move 3 7 2\n", 150)
	var next atomic.Int64
	b.SetParallelism(25)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint(next.Add(1))
		g := GameRecord{ID: id, Player: "p", Lineage: id, Save: save, Created: t0, Updated: t0}
		if err := db.CreateGame(ctx, g); err != nil {
			b.Error(err)
			return
		}
		for v := int64(1); pb.Next(); v++ {
			c := Change{ID: id, Player: "p", Version: v, Cmd: "move 3 7 2", Updated: time.Now()}
			if err := db.UpdateGame(ctx, c); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkUpdateGameAfterFlood is BenchmarkUpdateGame's move on a store
// whose WAL once grew past the writer's backstop (20 MB written at once,
// then checkpointed): a move costs what it did before the flood, not a
// checkpoint each.
func BenchmarkUpdateGameAfterFlood(b *testing.B) {
	ctx := context.Background()
	db, _ := openTemp(b)
	flood := strings.Repeat("x", 1<<20)
	for i := range 20 {
		if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: fmt.Sprint("f", i), Lineage: "x", Save: flood, Updated: t0}); err != nil {
			b.Fatal(err)
		}
	}
	g := GameRecord{ID: "g", Player: "p", Lineage: "g", Save: strings.Repeat("move 3 7 2\n", 150), Created: t0, Updated: t0}
	if err := db.CreateGame(ctx, g); err != nil {
		b.Fatal(err)
	}
	for v := int64(1); b.Loop(); v++ {
		c := Change{ID: "g", Player: "p", Version: v, Cmd: "move 3 7 2", Updated: time.Now()}
		if err := db.UpdateGame(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
}
