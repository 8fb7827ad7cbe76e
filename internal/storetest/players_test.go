package storetest_test

import (
	"context"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/web"
)

// day is a day on the test clock.
const day = 24 * time.Hour

// storePlayer gives player a row in every table that keeps a player's
// data: a game with a logged move, a named save, a result, settings and
// a rating. The game is dated far ahead, so that only its player's
// pruning deletes it, not a game's own retention (PruneIdle).
func storePlayer(tb testing.TB, s storetest.Store, player string, at time.Time) {
	tb.Helper()
	for _, table := range ownedTables {
		storeOnly(tb, s, player, table, at)
	}
}

// ownedTables are the tables whose rows a player owns, one kind each
// (game_log goes with games).
var ownedTables = []string{"games", "saves", "results", "settings", "ratings"}

// storeOnly gives player a row of one kind: table's, as storePlayer.
func storeOnly(tb testing.TB, s storetest.Store, player, table string, at time.Time) {
	tb.Helper()
	ctx := context.Background()
	ms := at.UnixMilli()
	ahead := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	id := "g-" + player
	row := map[string]any{
		"games":    dbcopy.Game{ID: id, Player: player, Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Moves: 1, Created: ahead, Updated: ahead, Version: 2, LogN: 1},
		"saves":    dbcopy.Save{Player: player, Name: "s", Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Updated: ms},
		"results":  dbcopy.Result{Player: player, Lineage: id, Variant: "spider", Suits: 1, Won: true, Score: 9, At: ms},
		"settings": dbcopy.Setting{Player: player, JSON: "{}"},
		"ratings":  dbcopy.Rating{Entrant: "p:" + player, Name: "N" + player, Mu: 25, Sigma: 8, Games: 7, Updated: ms, Folded: "n" + player},
	}[table]
	if err := s.Import(ctx, table, []any{row}); err != nil {
		tb.Fatal(table, err)
	}
	if table == "games" {
		if err := s.Import(ctx, "game_log", []any{dbcopy.GameLog{Game: id, Seq: 1, Cmd: "m"}}); err != nil {
			tb.Fatal(err)
		}
	}
}

// owned counts the rows of player in each table storePlayer fills, and
// whether the store records when player was seen (and when).
func owned(tb testing.TB, s storetest.Store, player string) (map[string]int, time.Time, bool) {
	tb.Helper()
	n := map[string]int{}
	var seen time.Time
	var known bool
	for _, table := range []string{"games", "game_log", "saves", "results", "settings", "ratings", "players"} {
		err := s.Export(context.Background(), table, func(row any) error {
			switch r := row.(type) {
			case dbcopy.Game:
				if r.Player == player {
					n[table]++
				}
			case dbcopy.GameLog:
				if r.Game == "g-"+player {
					n[table]++
				}
			case dbcopy.Save:
				if r.Player == player {
					n[table]++
				}
			case dbcopy.Result:
				if r.Player == player {
					n[table]++
				}
			case dbcopy.Setting:
				if r.Player == player {
					n[table]++
				}
			case dbcopy.Rating:
				if r.Entrant == "p:"+player {
					n[table]++
				}
			case dbcopy.Player:
				if r.Player == player {
					seen, known = time.UnixMilli(r.Seen), true
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return n, seen, known
}

func wantAll(tb testing.TB, s storetest.Store, player string, want int) {
	tb.Helper()
	n, _, _ := owned(tb, s, player)
	for _, table := range []string{"games", "game_log", "saves", "results", "settings", "ratings"} {
		if n[table] != want {
			tb.Errorf("%s: %d rows in %s, want %d", player, n[table], table, want)
		}
	}
}

// TestUnseenPlayersPruned: an identity last seen longer ago than its
// cookie lives (web.PlayerMaxAge, 400 days) and the margin
// (spidergame.ForgetMargin) loses everything it stored at the next
// pruning, its rating too; one seen 399 days ago keeps all of it. Seen
// writes at most once a day. SQLite, on a test clock (eachServerClock).
func TestUnseenPlayersPruned(t *testing.T) {
	eachServerClock(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
		clock := now
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return clock }, Forget: web.PlayerMaxAge})
		for _, p := range []struct {
			player string
			ago    time.Duration
		}{{"gone", web.PlayerMaxAge + spidergame.ForgetMargin + time.Millisecond}, {"kept", 399 * day}} {
			storePlayer(t, s, p.player, now.Add(-p.ago))
			clock = now.Add(-p.ago)
			if err := svc.Seen(ctx, p.player); err != nil {
				t.Fatal(err)
			}
			// Later the same day: not written again.
			clock = clock.Add(time.Minute)
			if err := svc.Seen(ctx, p.player); err != nil {
				t.Fatal(err)
			}
			if _, seen, ok := owned(t, s, p.player); !ok || !seen.Equal(now.Add(-p.ago)) {
				t.Fatalf("%s recorded as seen at %v (%v), want %v", p.player, seen, ok, now.Add(-p.ago))
			}
		}
		clock = now
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		wantAll(t, s, "gone", 0)
		if _, _, ok := owned(t, s, "gone"); ok {
			t.Error("the forgotten player is still recorded as seen")
		}
		wantAll(t, s, "kept", 1)
		if err := svc.Seen(ctx, "kept"); err != nil {
			t.Fatal(err)
		}
		if _, seen, _ := owned(t, s, "kept"); !seen.Equal(now) {
			t.Errorf("kept seen again today recorded at %v, want %v", seen, now)
		}
		// A year on, kept (seen today) is still kept.
		clock = now.Add(399 * day)
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		wantAll(t, s, "kept", 1)
	})
}

// rewindPlayers sets db's schema back to before players were recorded
// as seen (SQLite's 011, PostgreSQL's 008), as the program before left it:
// the version one step before it, and what that migration and the later
// ones (the settings' revision) made dropped, so that they run again.
func rewindPlayers(tb testing.TB, b storetest.Backend, db string) {
	tb.Helper()
	if b.Name == "sqlite" {
		execOn(tb, b, db, `DROP TABLE players; ALTER TABLE settings DROP COLUMN rev; PRAGMA user_version = 10`)
		return
	}
	execOn(tb, b, db, `DROP TABLE players; ALTER TABLE settings DROP COLUMN rev`)
	execOn(tb, b, db, `UPDATE cardtable_schema SET version = 7`)
}

// TestUpgradeKeepsPlayers: a database from before players were recorded
// as seen, opened by this program, records every identity that owns a
// row as seen at the upgrade, so pruning then keeps everything (and
// forgets them only once unseen for the cookie's life after it); rows
// of the legacy player, not an identity, are never pruned. Both backends.
func TestUpgradeKeepsPlayers(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		old := time.Now().Add(-3 * 365 * day)
		for _, p := range []string{"alice", "bob", ""} {
			storePlayer(t, s, p, old)
		}
		s.Close()
		rewindPlayers(t, b, db)
		before := time.Now().Truncate(time.Second)
		s = storetest.OpenTB(t, db)
		after := time.Now()
		clock := after
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return clock }, Forget: web.PlayerMaxAge})
		for _, p := range []string{"alice", "bob"} {
			_, seen, ok := owned(t, s, p)
			if !ok || seen.Before(before) || seen.After(after) {
				t.Errorf("%s recorded as seen at %v (%v), want the upgrade's time, %v to %v", p, seen, ok, before, after)
			}
		}
		if _, _, ok := owned(t, s, ""); ok {
			t.Error("the legacy player recorded as seen")
		}
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"alice", "bob", ""} {
			wantAll(t, s, p, 1)
		}
		backdate(t, b, db, web.PlayerMaxAge+spidergame.ForgetMargin+time.Minute)
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		wantAll(t, s, "alice", 0)
		wantAll(t, s, "", 1)
	})
}
