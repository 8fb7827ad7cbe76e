package storetest_test

import (
	"context"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestEachKindOfDataCounts: a player owning one kind of data alone (a
// game, a named save, a result, settings or a rating) is one the store
// knows: recorded as seen at their request, and forgotten with that row
// once unseen for the cookie's life and the margin. Both backends.
func TestEachKindOfDataCounts(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Now()
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return now }, Forget: web.PlayerMaxAge})
		for _, table := range ownedTables {
			storeOnly(t, s, "only-"+table, table, now)
			if err := svc.Seen(ctx, "only-"+table); err != nil {
				t.Fatal(err)
			}
			if _, ok := seenAt(t, s, "only-"+table); !ok {
				t.Errorf("a player owning only %s not recorded as seen", table)
			}
		}
		backdate(t, b, db, web.PlayerMaxAge+spidergame.ForgetMargin+time.Minute)
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		for _, table := range ownedTables {
			wantAll(t, s, "only-"+table, 0)
			if _, ok := seenAt(t, s, "only-"+table); ok {
				t.Errorf("the player owning only %s still recorded", table)
			}
		}
	})
}

// TestUpgradeRecordsEachKind: the upgrade that starts recording players
// as seen records a player owning one kind of data alone, whichever
// kind, a rating's player by the key it is rated under. Both backends.
func TestUpgradeRecordsEachKind(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		for _, table := range ownedTables {
			storeOnly(t, s, "only-"+table, table, time.Now())
		}
		s.Close()
		rewindPlayers(t, b, db)
		s = storetest.OpenTB(t, db)
		for _, table := range ownedTables {
			if _, ok := seenAt(t, s, "only-"+table); !ok {
				t.Errorf("the upgrade did not record the player owning only %s", table)
			}
		}
		if _, ok := seenAt(t, s, "p:only-ratings"); ok {
			t.Error("the upgrade recorded a rating's key, not its player")
		}
	})
}

// TestForgottenPersonRatedAfresh: a person forgotten with their rating
// (unseen for the cookie's life and the margin) who plays a rated game
// again starts at one game, and their rated name was free meanwhile for
// another person to take. The store's part of
// cli.TestLongArlingtonConnectIdentityForgotten, quick. Both backends.
func TestForgottenPersonRatedAfresh(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Now()
		rated := func(id, key, name string) table.Rating {
			t.Helper()
			openTable(t, s, id)
			if err := s.FinishRated(ctx, id, now, bump([]string{key, "bot:hard"}, name, 1)); err != nil {
				t.Fatal(err)
			}
			return must(s.Ratings(ctx, []string{key}))[0]
		}
		rated("t1", "p:ann", "Ann")
		if r := rated("t2", "p:ann", "Ann"); r.Games != 2 {
			t.Fatalf("Ann's rating %+v, want two games", r)
		}
		backdate(t, b, db, web.PlayerMaxAge+spidergame.ForgetMargin+time.Minute)
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return now }, Forget: web.PlayerMaxAge})
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if rs := must(s.Ratings(ctx, []string{"p:ann"})); len(rs) != 0 {
			t.Fatalf("the forgotten person's rating kept: %+v", rs)
		}
		if r := rated("t3", "p:other", "Ann"); r.Name != "Ann" {
			t.Fatalf("another person's rating %+v, want the freed name Ann", r)
		}
		if r := rated("t4", "p:ann", "Ann2"); r.Games != 1 {
			t.Fatalf("the person back: rating %+v, want one game", r)
		}
	})
}
