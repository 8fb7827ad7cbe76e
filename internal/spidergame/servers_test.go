package spidergame_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// servers are two services on one database, as two servers run them:
// over PostgreSQL each with a store of its own (a connection pool, as a
// process has); over SQLite sharing one store (one process holds the
// file, so two services can only share it in one process).
func servers(t *testing.T, b storetest.Backend, o spidergame.Options) ([2]*spidergame.Service, storetest.Store) {
	t.Helper()
	db := b.New(t)
	s1 := storetest.OpenTB(t, db)
	s2 := s1
	if b.Shared {
		s2 = storetest.OpenTB(t, db)
	}
	return [2]*spidergame.Service{spidergame.New(s1, o), spidergame.New(s2, o)}, s1
}

func command(tb testing.TB, text string) spider.Command {
	tb.Helper()
	c, err := spider.ParseCommand(text)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestTwoServersTakeTurns: one game played through two servers in turn,
// each having it in memory: every read on one server shows the move the
// other just stored; every move builds on the last one stored, whether it
// names the version it was meant for or not; a command meant for an
// older version is refused with the game as it stands; nothing is lost.
// The control shows the check matters: services that trust their cache
// serve the other server's game as it was.
func TestTwoServersTakeTurns(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			gs, db := servers(t, b, spidergame.Options{Shared: true})
			ctx := context.Background()
			const start, turns = 10, 12
			first, err := gs[0].Start(ctx, player, loadSave(t, webtest.ShuttleSave(start)), "", 0, false, "")
			if err != nil {
				t.Fatal(err)
			}
			id, version, moves := first.ID, first.Version, start
			for _, s := range gs { // both servers hold the game in memory
				if _, err := s.Get(ctx, player, id); err != nil {
					t.Fatal(err)
				}
			}
			for i := range turns {
				mover, reader := gs[i%2], gs[(i+1)%2]
				base := version
				if i%3 == 2 {
					base = 0 // a command that names no version
				}
				snap, _, err := mover.Play(ctx, player, id, command(t, webtest.ShuttleMove(moves)), base)
				if err != nil {
					t.Fatalf("turn %d on server %d: %v", i, i%2, err)
				}
				if snap.Version != version+1 || snap.View.Moves != moves+1 {
					t.Fatalf("turn %d: version %d with %d moves, want %d with %d", i, snap.Version, snap.View.Moves, version+1, moves+1)
				}
				version, moves = snap.Version, moves+1
				got, err := reader.Get(ctx, player, id)
				if err != nil {
					t.Fatal(err)
				}
				if got.Version != version || viewJSON(t, got.View) != viewJSON(t, snap.View) {
					t.Fatalf("turn %d: server %d serves version %d, the other stored %d", i, (i+1)%2, got.Version, version)
				}
				// A tab still showing the version before: refused, with
				// the game as it stands.
				_, _, err = reader.Play(ctx, player, id, command(t, webtest.ShuttleMove(moves)), version-1)
				var behind *spidergame.BehindError
				if !errors.As(err, &behind) || behind.Game.Version != version {
					t.Fatalf("turn %d: a command for version %d: %v", i, version-1, err)
				}
			}
			rec, g := storedGame(t, db, id)
			if rec.Version != version || g.MovesPlayed() != start+turns {
				t.Fatalf("stored version %d with %d moves, want %d with %d", rec.Version, g.MovesPlayed(), version, start+turns)
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		for _, b := range storetest.Backends() {
			gs, _ := servers(t, b, spidergame.Options{})
			ctx := context.Background()
			first, err := gs[0].Start(ctx, player, loadSave(t, webtest.ShuttleSave(2)), "", 0, false, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := gs[1].Get(ctx, player, first.ID); err != nil {
				t.Fatal(err)
			}
			if _, _, err := gs[0].Play(ctx, player, first.ID, command(t, webtest.ShuttleMove(2)), 0); err != nil {
				t.Fatal(err)
			}
			if got, err := gs[1].Get(ctx, player, first.ID); err != nil || got.Version != first.Version {
				t.Fatalf("%s: a cache trusted as it is served version %d (%v): the test above could not tell a stale view", b.Name, got.Version, err)
			}
		}
	})
}

// TestTwoServersAtOnce: players on both servers deal at once on one game
// (five deals in its stock): exactly the deals acknowledged are stored,
// each on the game as it stood, and both servers then serve the game as
// stored.
func TestTwoServersAtOnce(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			gs, db := servers(t, b, spidergame.Options{Shared: true})
			ctx := context.Background()
			g, err := spider.NewGame(1, oneSuit)
			if err != nil {
				t.Fatal(err)
			}
			first, err := gs[0].Start(ctx, player, g, "", 0, false, "")
			if err != nil {
				t.Fatal(err)
			}
			id := first.ID
			var wg sync.WaitGroup
			var mu sync.Mutex
			acked := 0
			for w := range 6 {
				wg.Go(func() {
					for range 3 {
						_, _, err := gs[w%2].Play(ctx, player, id, command(t, "deal"), 0)
						if err == nil {
							mu.Lock()
							acked++
							mu.Unlock()
						}
					}
				})
			}
			wg.Wait()
			rec, stored := storedGame(t, db, id)
			if n := deals(stored.Save()); n != acked || acked == 0 || acked > 5 {
				t.Fatalf("%d deals acknowledged, %d stored", acked, n)
			}
			for i, s := range gs {
				got, err := s.Get(ctx, player, id)
				if err != nil {
					t.Fatal(err)
				}
				if got.Version != rec.Version || viewJSON(t, got.View) != viewJSON(t, stored.View(false)) {
					t.Fatalf("server %d serves version %d, stored %d", i, got.Version, rec.Version)
				}
			}
		})
	}
}

func loadSave(tb testing.TB, text string) *spider.Game {
	tb.Helper()
	g, err := spider.Load(text)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// storedGame is game id as db holds it: its row and the game replayed.
func storedGame(tb testing.TB, db storetest.Store, id string) (spidergame.Game, *spider.Game) {
	tb.Helper()
	rec, err := db.Game(context.Background(), player, id)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := spidergame.Replay(rec)
	if err != nil {
		tb.Fatal(err)
	}
	return rec, g
}

// TestSharedPrunedElsewhere: a game another server pruned from the shared
// database is not found, not served from memory.
func TestSharedPrunedElsewhere(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			gs, db := servers(t, b, spidergame.Options{Shared: true})
			ctx := context.Background()
			s, err := gs[0].Start(ctx, player, loadSave(t, webtest.ShuttleSave(2)), "", 0, false, "")
			if err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Hour)
			if n, err := db.PruneGames(ctx, later, later); err != nil || n != 1 {
				t.Fatalf("pruned %d: %v", n, err)
			}
			if _, err := gs[0].Get(ctx, player, s.ID); !errors.Is(err, spidergame.ErrNotFound) {
				t.Fatalf("a pruned game: %v", err)
			}
			if gs[0].Cached(s.ID) {
				t.Fatal("a pruned game kept in memory")
			}
		})
	}
}
