package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"cardtable/internal/table"
)

func TestTables(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	rec := table.Stored{ID: "t1", Creator: "p", Config: `{"players":2}`, Seed: 1<<63 + 5,
		Seats: []table.StoredSeat{{}, {}}, Status: table.StatusOpen, Created: t0, Updated: t0}
	if err := db.CreateTable(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateTable(ctx, rec); err == nil {
		t.Fatal("a second table with the same id")
	}
	seats := []table.StoredSeat{{Player: "p", Name: "Pat"}, {}}
	if err := db.SaveSeats(ctx, "t1", seats); err != nil {
		t.Fatal(err)
	}
	moves := []table.StoredMove{{Seat: 1, Action: "lead 7H"}, {Seat: 0, Action: "play 9H"}}
	for i, m := range moves {
		if err := db.AppendAction(ctx, "t1", i, m); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("out of order refused", func(t *testing.T) {
		for _, seq := range []int{0, 1, 3} {
			if err := db.AppendAction(ctx, "t1", seq, moves[0]); !errors.Is(err, ErrStale) {
				t.Fatalf("seq %d: err = %v, want ErrStale", seq, err)
			}
		}
		if err := db.AppendAction(ctx, "none", 0, moves[0]); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("missing table: %v", err)
		}
	})
	open, err := db.OpenTables(ctx)
	if err != nil || len(open) != 1 {
		t.Fatalf("open tables: %v, %v", open, err)
	}
	got := open[0]
	if got.Seed != rec.Seed || got.Config != rec.Config || !reflect.DeepEqual(got.Seats, seats) ||
		!reflect.DeepEqual(got.Moves, moves) || got.Status != table.StatusOpen || !got.Created.Equal(t0) {
		t.Fatalf("stored %+v", got)
	}
	if err := db.FinishTable(ctx, "t1", table.StatusOver, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendAction(ctx, "t1", 2, moves[0]); !errors.Is(err, ErrStale) {
		t.Fatalf("a move on a finished table: %v", err)
	}
	if open, _ := db.OpenTables(ctx); len(open) != 0 {
		t.Fatalf("a finished table is open: %v", open)
	}
	if got, err := db.LoadTable(ctx, "t1"); err != nil || got.Status != table.StatusOver || len(got.Moves) != 2 {
		t.Fatalf("finished table: %+v, %v", got, err)
	}
	if n, err := db.PruneTables(ctx, t0.Add(30*time.Minute)); err != nil || n != 0 {
		t.Fatalf("pruned %d (%v) before its time", n, err)
	}
	if n, err := db.PruneTables(ctx, t0.Add(2*time.Hour)); err != nil || n != 1 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if _, err := db.LoadTable(ctx, "t1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pruned table: %v", err)
	}
}
