package table_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// TestPruneFinishedTables: through the real SQLite store, the hub prunes
// at its start and then every PruneEvery; a table closed idle keeps its
// record (seed included) downloadable for KeepRecords after it closed and
// is deleted at the first round past that, while a live table is never
// touched.
func TestPruneFinishedTables(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "cardtable.db"))
	t.Cleanup(func() { db.Close() })
	clk := newFakeClock()
	rounds := make(chan int64, 8)
	const keep = 48 * time.Hour
	h := newHub(t, db, clk, func(o *table.Options) {
		o.KeepRecords, o.PruneEvery = keep, time.Hour
		table.SetPruneHook(o, func(n int64) { rounds <- n })
	})
	round := func() int64 {
		t.Helper()
		select {
		case n := <-rounds:
			return n
		case <-time.After(waitTimeout):
			t.Fatal("no pruning round")
			return 0
		}
	}
	if n := round(); n != 0 { // the round at the start
		t.Fatalf("the first round deleted %d tables of an empty database", n)
	}
	idle := mustCreate(t, h, "a", table.Config{Players: 2})
	live := mustCreate(t, h, "b", table.Config{Players: 2})
	watch := mustSub(t, live, "", 0)
	defer watch.Close()
	if _, err := h.Record(bg, idle.ID()); err != nil { // a round trip: its idle timer is armed
		t.Fatal(err)
	}
	clk.Advance(table.DefaultIdleAfter) // before the next round is due
	select {
	case <-idle.Done():
	case <-time.After(waitTimeout):
		t.Fatal("the idle table did not close")
	}
	downloadable := func() error {
		rec, err := h.Record(bg, idle.ID())
		if err != nil {
			return err
		}
		_, _, err = arlington.Load(stringsReader(rec)) // closed: the seed is in it
		return err
	}
	// Just inside the retention: kept.
	clk.Advance(keep - time.Hour)
	if n := round(); n != 0 {
		t.Fatalf("a round inside the retention deleted %d tables", n)
	}
	if err := downloadable(); err != nil {
		t.Fatalf("a closed table's record within the retention: %v", err)
	}
	// The next round is past it: deleted.
	clk.Advance(time.Hour + time.Minute)
	if n := round(); n != 1 {
		t.Fatalf("the round past the retention deleted %d tables, want 1", n)
	}
	if err := downloadable(); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("a pruned table's record: %v, want not found", err)
	}
	if _, err := db.LoadTable(bg, live.ID()); err != nil {
		t.Fatalf("the live table was pruned: %v", err)
	}
	if _, err := h.Table(live.ID()); err != nil {
		t.Fatalf("the live table closed: %v", err)
	}
}
