package cli

import (
	"context"
	"path/filepath"
	"testing"

	"cardtable/internal/store"
	"cardtable/internal/table"
)

// liveStore is a store that keeps connections for the tables' own reads
// (as PostgreSQL's does): it counts the reads made on them.
type liveStore struct {
	*store.DB
	live int
}

func (s *liveStore) LoadLive(ctx context.Context, id string) (table.Stored, error) {
	s.live++
	return s.DB.LoadTable(ctx, id)
}

// TestTimedStoreKeepsLiveLoads: the metrics' wrapper that serve puts
// around the database passes the tables' own reads on to what the store
// keeps for them; wrapping it hid LoadLive, so the hub read them on the
// requests' share of PostgreSQL's pool.
func TestTimedStoreKeepsLiveLoads(t *testing.T) {
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	inner := &liveStore{DB: db}
	var s table.Store = timedStore{serverStore: inner}
	l, ok := s.(table.LiveLoader)
	if !ok {
		t.Fatal("the timed store offers no LoadLive: the tables' own reads go on the requests' share")
	}
	if _, err := l.LoadLive(t.Context(), "nosuchtable"); err == nil {
		t.Fatal("a table that does not exist was loaded")
	}
	if inner.live != 1 {
		t.Fatalf("the store's LoadLive was called %d times, want 1", inner.live)
	}
}
