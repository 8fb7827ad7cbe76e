package pgstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/table"
)

// TestDiskFullToldOnce: a write PostgreSQL refuses for want of room
// (SQLSTATE 53100, disk_full; raised here by a trigger, as the server
// raises it when it cannot extend a file) is the disk-full error of both
// services, its words said once although it passes through the pool's
// wrapper and the store's own check (a chat line's write). Before, each
// pass wrapped it again, and the log said the disk was full twice.
func TestDiskFullToldOnce(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Unix(1e9, 0).UTC()
	if err := db.CreateTable(ctx, table.Stored{ID: "t1", Config: "{}", Seats: []table.StoredSeat{{}, {}}, Created: t0, Updated: t0}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE FUNCTION no_room() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
		CREATE TRIGGER no_room BEFORE INSERT ON live_table_chat FOR EACH ROW EXECUTE FUNCTION no_room()`); err != nil {
		t.Fatal(err)
	}
	err = db.AppendChat(ctx, "t1", table.ChatLine{N: 1, Seat: 0, Name: "Ann", Text: "hi", At: t0}, 50)
	if !errors.Is(err, table.ErrDiskFull) || !errors.Is(err, spidergame.ErrDiskFull) {
		t.Fatalf("a chat line with the disk full: %v; want both services' disk-full errors", err)
	}
	msg := err.Error()
	for _, words := range []string{table.ErrDiskFull.Error(), spidergame.ErrDiskFull.Error(), "No space left on device"} {
		if n := strings.Count(msg, words); n != 1 {
			t.Errorf("%q said %d times in %q, want once", words, n, msg)
		}
	}
}
