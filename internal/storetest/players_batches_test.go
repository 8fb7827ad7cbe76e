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

// TestForgetSeveralBatches: a backlog of 250 players unseen for 500
// days, more than two of pruning's batches of 100, is forgotten in one
// round, records and settings; a player seen now keeps both. Both
// backends.
func TestForgetSeveralBatches(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Now()
		var players, settings []any
		for i := range 250 {
			p := "old" + strconv.Itoa(i)
			players = append(players, dbcopy.Player{Player: p, Seen: now.Add(-500 * day).UnixMilli()})
			settings = append(settings, dbcopy.Setting{Player: p, JSON: "{}"})
		}
		players = append(players, dbcopy.Player{Player: "recent", Seen: now.UnixMilli()})
		settings = append(settings, dbcopy.Setting{Player: "recent", JSON: "{}"})
		if err := s.Import(ctx, "players", players); err != nil {
			t.Fatal(err)
		}
		if err := s.Import(ctx, "settings", settings); err != nil {
			t.Fatal(err)
		}
		n, err := s.PruneUnseen(ctx, now, web.PlayerMaxAge+spidergame.ForgetMargin)
		if err != nil || n != 250 {
			t.Errorf("forgot %d players (%v), want 250", n, err)
		}
		left := map[string]int{}
		for _, table := range []string{"players", "settings"} {
			if err := s.Export(ctx, table, func(row any) error {
				switch r := row.(type) {
				case dbcopy.Player:
					left[table+" "+r.Player]++
				case dbcopy.Setting:
					left[table+" "+r.Player]++
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		if len(left) != 2 || left["players recent"] != 1 || left["settings recent"] != 1 {
			t.Errorf("%d rows left in players and settings (recent: %d, %d), want the recent player's record and settings alone", len(left), left["players recent"], left["settings recent"])
		}
	})
}
