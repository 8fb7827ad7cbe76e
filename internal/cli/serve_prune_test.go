package cli

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardtable/internal/pgstore"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// TestServePrunesFinishedTables: `cardtable serve` prunes the tables that
// finished longer ago than the retention (table.DefaultKeepRecords) as it
// starts, and keeps the records of the newer ones downloadable; on either
// store, PostgreSQL named by CARDTABLE_DB (the environment's --db).
func TestServePrunesFinishedTables(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) { servePrunes(t, b) })
	}
}

func servePrunes(t *testing.T, b storetest.Backend) {
	path := b.New(t)
	ctx := context.Background()
	db, err := storetest.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	finished := func(id string, ago time.Duration) {
		t.Helper()
		at := now.Add(-ago)
		s := table.Stored{ID: id, Creator: "c", Config: `{"players":2,"bots":["random","random"]}`, Seed: 7,
			Seats: make([]table.StoredSeat, 2), Status: table.StatusOpen, Created: at, Updated: at}
		if err := db.CreateTable(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishTable(ctx, id, table.StatusClosed, at); err != nil {
			t.Fatal(err)
		}
	}
	finished("old", table.DefaultKeepRecords+24*time.Hour)
	finished("recent", table.DefaultKeepRecords-24*time.Hour)
	db.Close()
	var url string
	var logged *syncBuffer
	if b.Shared {
		t.Setenv("CARDTABLE_DB", path)
		url, logged = serveInProcess(t)
		if want := pgstore.Redact(path); !strings.Contains(logged.String(), want) {
			t.Fatalf("the server does not say it serves %s: %s", want, logged)
		}
	} else {
		url, _ = serveInProcess(t, "--db", path)
	}
	get := func(id string) (int, string) {
		t.Helper()
		resp, err := http.Get(url + "api/arlington/tables/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// The first round runs as the server starts: wait for it.
	code := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if code, _ = get("old"); code == http.StatusNotFound {
			break
		}
	}
	if code != http.StatusNotFound {
		t.Fatalf("the table finished past the retention: record %d, want 404", code)
	}
	if code, rec := get("recent"); code != http.StatusOK || !strings.Contains(rec, "seed 7") {
		t.Fatalf("the table within the retention: %d %q", code, rec)
	}
}
