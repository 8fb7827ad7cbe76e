package pgstore_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// busyPool opens a store of four connections (three for requests, one
// kept for the tables) with the wait for a connection shortened to wait,
// and holds the games table's lock (an operator's transaction left
// open) with requests waiting on it: as many as the requests may hold,
// and more behind them. prepare, if not nil, runs before the lock is
// taken. It returns the store once the requests' every connection waits
// on the lock; the lock ends with the test, after the requests' ends
// are awaited.
func busyPool(t *testing.T, wait time.Duration, prepare func(*pgstore.DB)) *pgstore.DB {
	t.Helper()
	ctx := context.Background()
	base := pgtest.DB(t)
	// Every connection opened first: a new one's first statement (the
	// store's look at statement_timeout) waits behind the lock too. The
	// store opens with the usual wait and is held to wait once open (a
	// short wait refused the opening itself at a load of 20 on 2 cores).
	db, err := pgstore.Open(ctx, base+"&pool_max_conns=4&pool_min_conns=4")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if prepare != nil {
		prepare(db)
	}
	watch, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close(ctx) })
	waitFor(t, watch, `SELECT count(*) >= 4 FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle'
		AND pid <> pg_backend_pid()`)
	pgstore.SetWait(db, wait)
	lock := holdLock(t, base, "games", "ACCESS EXCLUSIVE")
	var wg sync.WaitGroup
	t.Cleanup(func() { lock.Rollback(ctx); wg.Wait() })
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db.Game(ctx, "p", "G") // waits for the lock, or for a connection; its answer is not the point here
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var n int
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%games%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests wait on the lock after 10 s, want 3 (the requests' share of 4 connections)", n)
		}
	}
	return db
}

// TestNoConnectionInTime: a request that finds every connection it may
// use held (by requests waiting on a lock) waits for one at most the
// pool's wait and fails as a database too slow, 503 with a Retry-After,
// naming the pool; it no longer waits until a connection frees, a
// multiple of statement_timeout later. The refusal is counted.
func TestNoConnectionInTime(t *testing.T) {
	const wait = 300 * time.Millisecond
	db := busyPool(t, wait, nil)
	before := db.Refused()
	got := make(chan error, 1)
	start := time.Now()
	go func() { _, err := db.Game(context.Background(), "p", "G"); got <- err }()
	var err error
	select {
	case err = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("a request finding no connection free still waits after 10 s: its wait is not bounded")
	}
	took := time.Since(start)
	var u interface {
		Unavailable() bool
		TooSlow() bool
		RetryAfter() time.Duration
	}
	if !errors.As(err, &u) || !u.Unavailable() || !u.TooSlow() || u.RetryAfter() <= 0 {
		t.Fatalf("a request with no connection free: %v; want a database too slow with a Retry-After", err)
	}
	if !strings.Contains(err.Error(), "no connection of the pool free within") || !strings.Contains(err.Error(), "pool_max_conns") {
		t.Errorf("its words %q do not name the pool", err)
	}
	if took < wait || took > wait+3*time.Second {
		t.Errorf("refused after %v, want about the wait, %v", took, wait)
	}
	if n := db.Refused(); n <= before {
		t.Errorf("refusals counted %d, want more than %d", n, before)
	}
}

// TestTablesKeepConnections: with every connection the requests may
// hold taken by requests waiting on a lock (a burst of Spider reads
// behind an operator's transaction), a live table's move is still
// stored at once, on the connections kept for the tables; before, it
// waited behind them for a connection until its own timeout, and the
// move was refused.
func TestTablesKeepConnections(t *testing.T) {
	ctx := context.Background()
	db := busyPool(t, 10*time.Second, func(db *pgstore.DB) {
		if err := db.CreateTable(ctx, newStored("T")); err != nil {
			t.Fatal(err)
		}
	})
	for seq := range 3 {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := db.AppendAction(actx, "T", seq, table.StoredMove{Seat: seq % 2, Action: "x"})
		cancel()
		if err != nil {
			t.Fatalf("move %d with the requests' connections all waiting on a lock: %v", seq, err)
		}
	}
}

// TestNoConnectionWithinOwnBound: a call whose own deadline, shorter than
// the pool's wait, ends its wait for a connection (a visit's record, 2 s)
// is refused and counted as one that waited the pool's wait: before, it
// failed with its bare deadline, uncounted, and a pool held by a lock
// showed in cardtable_db_connection_refused_total only once requests
// had waited the full wait. A call whose client went away is not counted.
func TestNoConnectionWithinOwnBound(t *testing.T) {
	db := busyPool(t, time.Minute, nil) // the others' waits end long after this test
	before := db.Refused()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err := db.Seen(ctx, "p", time.Now())
	cancel()
	var u interface {
		Unavailable() bool
		TooSlow() bool
	}
	if !errors.As(err, &u) || !u.Unavailable() || !u.TooSlow() ||
		!strings.Contains(err.Error(), "no connection of the pool free within") || strings.Contains(err.Error(), "within 1m0s") {
		t.Fatalf("a visit finding no connection free within its own bound: %v; want a database too slow, no connection free within its 300ms", err)
	}
	if n := db.Refused(); n != before+1 {
		t.Fatalf("refusals counted %d, want %d", n, before+1)
	}
	gone, cancel := context.WithCancel(context.Background())
	cancel() // the client hung up
	if _, err := db.Seen(gone, "p", time.Now()); !errors.Is(err, context.Canceled) {
		t.Fatalf("a visit whose client went away: %v, want its cancellation", err)
	}
	if n := db.Refused(); n != before+1 {
		t.Fatalf("refusals counted %d after a client went away, want %d (not counted)", n, before+1)
	}
}
