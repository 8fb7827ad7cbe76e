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
)

// TestNodeBeatsWhilePoolBusy: requests waiting on a lock held by another
// connection (an operator's psql in a transaction) take every connection of
// the server's pool. The heartbeat has a connection of its own, so the
// server's lease is still renewed and no other server takes its tables
// for a dead server's; and the readiness ping, which cannot get a
// connection, says that the pool is busy rather than only "context
// deadline exceeded". A drain (a server stopping) is marked at once.
func TestNodeBeatsWhilePoolBusy(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	// Two connections: one the requests may hold, one kept for the
	// tables (the pool's share).
	const conns, requests = 2, 1
	url := base + "&pool_max_conns=2"
	n := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: testLease, Beat: testBeat})
	db := n.DB()

	// The lock: the games table, which every Spider request reads.
	tx := holdLock(t, base, "games", "ACCESS EXCLUSIVE")
	// Requests blocked on it, as many as the pool has connections; they
	// end when the lock is released (below, or the test's end).
	var wg sync.WaitGroup
	defer wg.Wait()
	defer tx.Rollback(ctx)
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db.Game(ctx, "p", "G") // waits for the lock; its answer is not the point
		}()
	}
	watch, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	waitFor(t, watch, `SELECT count(*) = $1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%games%'`, requests)

	// The lease is renewed while they wait.
	var since time.Time
	if err := watch.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&since); err != nil {
		t.Fatal(err)
	}
	waitFor(t, watch, `SELECT heartbeat > $1 FROM servers WHERE id = $2`, since, n.ID())

	// A readiness check finds no connection free, says so once, and is
	// not counted with the calls refused (it comes at the monitoring's
	// interval).
	before := db.Refused()
	pctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err = db.Ping(pctx)
	if err == nil || !strings.Contains(err.Error(), "no connection of the pool free within") ||
		!errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ping with the pool busy: %v; want the pool's connections in use named", err)
	}
	if n := strings.Count(err.Error(), "in use (pool_max_conns)"); n != 1 {
		t.Errorf("Ping's words %q say how many are in use %d times, want once", err, n)
	}
	if n := db.Refused(); n != before {
		t.Errorf("refusals counted %d after a readiness check, want %d (not counted)", n, before)
	}

	// /metrics' figures: the requests' connections in use.
	if inUse, most, _ := db.PoolStats(); inUse != requests || most != conns {
		t.Errorf("PoolStats with the pool busy: %d in use of %d, want %d of %d", inUse, most, requests, conns)
	}

	// A server stopping marks itself so within serve's 2 s, on the
	// connections kept for the tables: on the requests' it waited behind
	// them, failed, and the others went on sending it new tables.
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := n.Drain(dctx); err != nil {
		t.Fatalf("Drain with the requests' connections all waiting on a lock: %v", err)
	}
	waitFor(t, watch, `SELECT draining FROM servers WHERE id = $1`, n.ID())
}

// waitFor polls query (one boolean) on conn until it is true, for at
// most 10 s (what it waits for comes within a few heartbeats).
func waitFor(t *testing.T, conn *pgx.Conn, query string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var ok bool
		if err := conn.QueryRow(context.Background(), query, args...).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not true within 10 s: %s %v", query, args)
		}
		time.Sleep(testBeat) // the next heartbeat
	}
}

// TestStatementTimeout: a request waiting on a lock another connection
// holds is cancelled by PostgreSQL after the store's statement_timeout
// (shortened here; 15 s by default) and fails as a database too slow
// (503, try again; not "out of reach": it answered) with words naming
// statement_timeout, rather than
// waiting as long as the lock is held; a URL's own statement_timeout
// wins. The lock's holder is not disturbed.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	pgstore.SetStatementTimeout(t, 300*time.Millisecond)
	db, err := pgstore.Open(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The URL's own, longer than the test waits: its request waits on.
	patient, err := pgstore.Open(ctx, base+"&statement_timeout=60000")
	if err != nil {
		t.Fatal(err)
	}
	defer patient.Close()

	tx := holdLock(t, base, "games", "ACCESS EXCLUSIVE")

	waited := make(chan error, 1)
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _, err := patient.Game(pctx, "p", "G"); waited <- err }()

	got := make(chan error, 1)
	go func() { _, err := db.Game(ctx, "p", "G"); got <- err }()
	select {
	case err = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("a read waiting on a lock still waits after 10 s: no statement_timeout")
	}
	var u interface {
		Unavailable() bool
		TooSlow() bool
	}
	if !errors.As(err, &u) || !u.Unavailable() || !u.TooSlow() || !strings.Contains(err.Error(), "statement_timeout") {
		t.Fatalf("read past statement_timeout: %v; want a database too slow naming statement_timeout", err)
	}
	select {
	case err := <-waited:
		t.Fatalf("the URL's statement_timeout of 60 s was not kept: %v", err)
	default:
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("the lock's holder: %v", err)
	}
	if err := <-waited; !errors.Is(err, pgstore.ErrNotFound) {
		t.Fatalf("the patient read once the lock is gone: %v; want not found", err)
	}
}

// TestTablesLoadWhileRequestsBusy: requests waiting on a lock of games
// hold every connection the requests may (a quarter of the pool is
// kept for the live tables). The tables' own loads still go: a server
// takes a table given back, and a live table reads itself again (a
// refused write checked, a table started again after an outage), and a
// starting table reads its seats' ratings.
// Read on the requests' side, they waited behind the lock and failed
// for want of a connection, so no server could take a dead server's
// tables while its requests were stuck.
func TestTablesLoadWhileRequestsBusy(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	// Shorter than the 5 s, to fail sooner; long enough for a new
	// connection on a busy machine.
	pgstore.SetAcquireWait(t, 2*time.Second)
	plain, err := pgstore.Open(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Close() })
	if err := plain.CreateTable(ctx, newStored("T")); err != nil { // no owner: given back
		t.Fatal(err)
	}
	// Four connections: three the requests may hold, one kept.
	const requests = 3
	n := join(t, base+"&pool_max_conns=4", pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: testLease, Beat: testBeat})
	db := n.DB()
	watch, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	lock := holdLock(t, base, "games", "ACCESS EXCLUSIVE")
	var wg sync.WaitGroup
	defer wg.Wait()
	defer lock.Rollback(ctx)
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db.Game(ctx, "p", "G") // waits for the lock; its answer is not the point
		}()
	}
	// Waiting on this schema's games (other tests' schemas may have
	// waiters of their own).
	waitFor(t, watch, `SELECT count(*) = $1 FROM pg_locks WHERE NOT granted AND relation = 'games'::regclass`, requests)

	if _, err := db.LoadLive(ctx, "T"); err != nil {
		t.Fatalf("a live table's load with the requests' connections held: %v", err)
	}
	if _, err := db.Ratings(ctx, []string{"bot:easy", "p:pat"}); err != nil {
		t.Fatalf("a starting table's ratings read with the requests' connections held: %v", err)
	}
	got, err := n.Take(ctx, 10, nil)
	if err != nil || len(got) != 1 || got[0].ID != "T" {
		t.Fatalf("Take with the requests' connections held: %d tables, %v; want T", len(got), err)
	}
}
