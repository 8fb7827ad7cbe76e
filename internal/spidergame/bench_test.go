package spidergame_test

import (
	"context"
	"fmt"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/web/webtest"
)

// BenchmarkGet is the cost of reading a game in memory, alone on its
// database (the cache trusted) and Shared (its stored version read
// first), on each store:
//
//	go test -run '^$' -bench Get ./internal/spidergame
func BenchmarkGet(b *testing.B) {
	for _, be := range storetest.Backends() {
		for _, shared := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/shared=%v", be.Name, shared), func(b *testing.B) {
				gs := spidergame.New(be.Fresh(b), spidergame.Options{Shared: shared})
				ctx := context.Background()
				s, err := gs.Start(ctx, player, loadSave(b, webtest.ShuttleSave(100)), "", 0, false, "")
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := gs.Get(ctx, player, s.ID); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPlay is the cost of one move stored, alone and Shared, on
// each store (BenchmarkCommand in internal/web/spiderweb adds HTTP):
//
//	go test -run '^$' -bench Play -benchtime 2000x ./internal/spidergame
func BenchmarkPlay(b *testing.B) {
	for _, be := range storetest.Backends() {
		for _, shared := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/shared=%v", be.Name, shared), func(b *testing.B) {
				gs := spidergame.New(be.Fresh(b), spidergame.Options{Shared: shared})
				ctx := context.Background()
				const n = 10
				s, err := gs.Start(ctx, player, loadSave(b, webtest.ShuttleSave(n)), "", 0, false, "")
				if err != nil {
					b.Fatal(err)
				}
				i := n
				for b.Loop() {
					if _, _, err := gs.Play(ctx, player, s.ID, command(b, webtest.ShuttleMove(i)), 0); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
