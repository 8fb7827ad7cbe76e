package storetest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// TestPlayerTables: a player's finished tables, the latest to end first,
// bounded by the limit; not open or closed ones, not other players', not
// one where a seat is only held for them; with their moves. Both
// backends.
func TestPlayerTables(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, db storetest.Store) { playerTables(t, db) })
}

func playerTables(t *testing.T, db storetest.Store) {
	ctx := context.Background()
	add := func(id string, seats []table.StoredSeat, status table.Status, ended time.Time) {
		t.Helper()
		rec := table.Stored{ID: id, Creator: "c", Config: `{"players":2}`, Seed: 1,
			Seats: seats, Status: table.StatusOpen, Created: t0, Updated: t0}
		if err := db.CreateTable(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := db.AppendAction(ctx, id, 0, table.StoredMove{Seat: 0, Action: "lead 7H"}); err != nil {
			t.Fatal(err)
		}
		if status != table.StatusOpen {
			if err := db.FinishTable(ctx, id, status, ended); err != nil {
				t.Fatal(err)
			}
		}
	}
	pat := table.StoredSeat{Player: "pat", Name: "Pat"}
	kim := table.StoredSeat{Player: "kim", Name: "Kim"}
	add("old", []table.StoredSeat{pat, kim}, table.StatusOver, t0.Add(time.Hour))
	add("new", []table.StoredSeat{{}, pat}, table.StatusOver, t0.Add(2*time.Hour))
	add("open", []table.StoredSeat{pat, kim}, table.StatusOpen, t0)
	add("closed", []table.StoredSeat{pat, kim}, table.StatusClosed, t0.Add(3*time.Hour))
	add("kims", []table.StoredSeat{kim, {}}, table.StatusOver, t0.Add(4*time.Hour))
	add("held", []table.StoredSeat{{Player: "pat", Name: "Pat", Reserved: true}, kim}, table.StatusOver, t0.Add(5*time.Hour))
	for _, c := range []struct {
		player string
		limit  int
		want   []string
	}{
		{"pat", 50, []string{"new", "old"}},
		{"pat", 1, []string{"new"}},
		{"kim", 50, []string{"held", "kims", "old"}},
		{"nobody", 50, nil},
	} {
		got, err := db.PlayerTables(ctx, c.player, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID)
			if len(s.Moves) != 1 {
				t.Errorf("%s: %d moves, want 1", s.ID, len(s.Moves))
			}
		}
		if !slices.Equal(ids, c.want) {
			t.Errorf("%s (limit %d): %v, want %v", c.player, c.limit, ids, c.want)
		}
	}
}
