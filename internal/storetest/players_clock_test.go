package storetest_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/web"
)

// seenAgo records player (owning data or not) as seen ago before the
// database's now, as a server with a right clock would have.
func seenAgo(tb testing.TB, b storetest.Backend, db, player string, ago time.Duration) {
	tb.Helper()
	execOn(tb, b, db, `INSERT INTO players (player, seen) VALUES ('`+player+`',
		(extract(epoch FROM now()) * 1000)::bigint - `+strconv.FormatInt(ago.Milliseconds(), 10)+`)
		ON CONFLICT (player) DO UPDATE SET seen = excluded.seen`)
}

// TestSharedStoreUsesDatabaseClock: servers sharing a PostgreSQL
// database need not agree on the time (docs/scaling.md), so when a player
// was seen and how long ago are both read on the database's clock. A
// server whose clock is far ahead neither forgets a player seen 390 days
// ago nor records a time in the future; one far behind forgets a player
// unseen for 403 days and records its players as seen now, not years
// ago, so that a server with a right clock keeps them; a rated game's end
// records now whatever the server says; a later record is never moved
// back.
func TestSharedStoreUsesDatabaseClock(t *testing.T) {
	b := storetest.Backends()[1]
	db := b.New(t)
	s := storetest.OpenTB(t, db)
	ctx := context.Background()
	server := func(skew time.Duration) *spidergame.Service {
		return spidergame.New(s, spidergame.Options{Now: func() time.Time { return time.Now().Add(skew) }, Forget: web.PlayerMaxAge})
	}
	ahead, behind, right := server(30*day), server(-3*365*day), server(0)
	for _, p := range []string{"old390", "old403", "fromAhead", "fromBehind", "rated", "later"} {
		storePlayer(t, s, p, time.Now())
	}
	seenAgo(t, b, db, "old390", 390*day)
	seenAgo(t, b, db, "old403", 403*day)
	seenAgo(t, b, db, "later", -10*day)
	for svc, p := range map[*spidergame.Service]string{ahead: "fromAhead", behind: "fromBehind"} {
		if err := svc.Seen(ctx, p); err != nil {
			t.Fatal(err)
		}
		wantSeen(t, b, s, p, time.Time{})
	}
	if err := behind.Seen(ctx, "later"); err != nil {
		t.Fatal(err)
	}
	if seen, _ := seenAt(t, s, "later"); seen.Before(time.Now().Add(9 * day)) {
		t.Errorf("a later record moved back to %v", seen)
	}
	openTable(t, s, "t")
	if err := s.FinishRated(ctx, "t", time.Now().Add(-3*365*day), bump([]string{"p:rated", "bot:hard"}, "Rae", 1)); err != nil {
		t.Fatal(err)
	}
	wantSeen(t, b, s, "rated", time.Time{})

	if _, err := behind.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	wantAll(t, s, "old403", 0)
	if _, err := ahead.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := right.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"old390", "fromAhead", "fromBehind", "rated", "later"} {
		wantAll(t, s, p, 1)
	}
}

// TestGamesPrunedWhenForgettingFails: a failure forgetting unseen
// players (here the players table out of reach) is reported, and the
// games past their own retention are pruned all the same. Both backends.
func TestGamesPrunedWhenForgettingFails(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		old := time.Now().Add(-2 * day).UnixMilli()
		if err := s.Import(ctx, "games", []any{dbcopy.Game{ID: "g", Player: "p", Lineage: "g", Save: "x",
			Variant: "spider", Suits: 1, Deal: "1", Created: old, Updated: old, Version: 1}}); err != nil {
			t.Fatal(err)
		}
		execOn(t, b, db, `ALTER TABLE players RENAME TO players_away`)
		svc := spidergame.New(s, spidergame.Options{Forget: web.PlayerMaxAge})
		n, err := svc.Prune(ctx)
		if err == nil {
			t.Error("forgetting with the players table away reported no error")
		}
		if games := must(s.CountGames(ctx)); n != 1 || games != 0 {
			t.Errorf("pruned %d games, %d left, want the unplayed one pruned", n, games)
		}
	})
}
