package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// connect is a connection of its own to the database at url, for a test
// to lock rows with or watch PostgreSQL's activity from. The caller
// closes it, deferred: a lock it holds must end before the servers'
// deferred Close, which would wait on it (t.Cleanup runs after that).
func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lockServer locks server id's row in the registry in a transaction of
// c left open, as a slow statement of another connection would; the
// caller rolls it back, deferred (connect says why not t.Cleanup).
func lockServer(t testing.TB, c *pgx.Conn, id string) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM servers WHERE id = $1 FOR UPDATE`, id); err != nil {
		tx.Rollback(ctx)
		t.Fatal(err)
	}
	return tx
}

// lockWaiter is the pid of the backend running a statement that starts
// with prefix and waits on a lock, once there is one (within 10 s).
func lockWaiter(t testing.TB, c *pgx.Conn, prefix string) int32 {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var pid int32
		err := c.QueryRow(ctx, `SELECT pid FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND starts_with(query, $1) LIMIT 1`, prefix).Scan(&pid)
		if err == nil {
			return pid
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no statement %q ever waited on a lock", prefix)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNodeCloseCutInsertLandsNot: a server's row found gone (the others
// forgot it) is made again by its heartbeat; if that INSERT waits in
// PostgreSQL when the server stops, Close cuts it, and it must not land
// after Close removed the row: the row of a gone server, made again,
// looked alive for a lease.
func TestNodeCloseCutInsertLandsNot(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: 3 * time.Second, Beat: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close(ctx)
	locker := connect(t, url)
	defer locker.Close(ctx)
	// The row deleted, and inserted again by a transaction left open:
	// the heartbeat's UPDATE finds no row and its INSERT waits on that
	// transaction. A heartbeat between the two makes the row first: again.
	var tx pgx.Tx
	for try := 0; ; try++ {
		if try == 20 {
			t.Fatal("the heartbeat always made its row again first")
		}
		if _, err := locker.Exec(ctx, `DELETE FROM servers WHERE id = $1`, na.ID()); err != nil {
			t.Fatal(err)
		}
		if tx, err = locker.Begin(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err = tx.Exec(ctx, `INSERT INTO servers (id, addr) VALUES ($1, 'other:1')`, na.ID()); err == nil {
			break
		}
		tx.Rollback(ctx)
	}
	defer tx.Rollback(ctx)
	watch := connect(t, url)
	defer watch.Close(ctx)
	beat := lockWaiter(t, watch, "INSERT INTO servers (id, addr, load")
	closed := make(chan error, 1)
	go func() { // exits when Close returns
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		closed <- na.Close(cctx)
	}()
	// Close's budget lets it remove the row while the INSERT waits;
	// then the transaction ends, and the INSERT, if it still runs, lands.
	var cerr error
	select {
	case cerr = <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return within its budget")
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		var running bool
		if err := watch.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)`, beat).Scan(&running); err != nil {
			t.Fatal(err)
		}
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the heartbeat's backend never ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var rows int
	if err := watch.QueryRow(ctx, `SELECT count(*) FROM servers WHERE id = $1`, na.ID()).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Fatalf("%d rows of the server after its Close (%v) and the end of its cut heartbeat, want none", rows, cerr)
	}
	if cerr != nil {
		t.Fatalf("Close: %v", cerr)
	}
}

// TestNodeCloseHeartbeatStuckGivesBack: a heartbeat that does not stop
// within Close's budget (here stuck before its statement) leaves Close an
// error, but the tables are given back all the same, and a second Close
// says the same error, not that all went well.
func TestNodeCloseHeartbeatStuckGivesBack(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	entered, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: 3 * time.Second, Beat: 20 * time.Millisecond,
		Tables: func() []table.Summary {
			select {
			case entered <- struct{}{}:
			default:
			}
			<-release
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateTable(ctx, newStored("S1")); err != nil {
		t.Fatal(err)
	}
	<-entered
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	first := na.Close(cctx)
	if !errors.Is(first, context.DeadlineExceeded) {
		t.Fatalf("Close with its heartbeat stuck: %v, want its budget run out", first)
	}
	watch := connect(t, url)
	defer watch.Close(ctx)
	var given bool
	if err := watch.QueryRow(ctx, `SELECT owner IS NULL FROM live_tables WHERE id = 'S1'`).Scan(&given); err != nil {
		t.Fatal(err)
	}
	if !given {
		t.Fatal("the table still held by the server after Close")
	}
	if second := na.Close(ctx); second == nil || second.Error() != first.Error() {
		t.Fatalf("a second Close: %v, want the first's %v", second, first)
	}
}

// withDeadServer is a database of its own (its url), opened (a) for
// servers that look for dead servers to forget at every heartbeat, with
// a server 'dead' whose last heartbeat was two hours ago, and a
// connection of its own to it; all closed when tb ends.
func withDeadServer(tb testing.TB) (url string, a *pgstore.DB, c *pgx.Conn) {
	tb.Helper()
	ctx := context.Background()
	url = pgtest.DB(tb)
	pgstore.SetForgetEvery(tb, 1)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	c = connect(tb, url)
	tb.Cleanup(func() { c.Close(ctx) })
	if _, err := c.Exec(ctx, `INSERT INTO servers (id, addr, heartbeat) VALUES ('dead', 'd:1', now() - interval '2 hours')`); err != nil {
		tb.Fatal(err)
	}
	return url, a, c
}

// TestNodeCloseDuringForgetQuiet: a server stopping while its heartbeat
// looks for dead servers to forget (here waiting on a lock on a dead
// one's row) cuts it, and logs no failure of it: the stop is no fault.
func TestNodeCloseDuringForgetQuiet(t *testing.T) {
	ctx := context.Background()
	url, a, locker := withDeadServer(t)
	tx := lockServer(t, locker, "dead")
	defer tx.Rollback(ctx)
	var mu sync.Mutex
	var logged []string
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: 3 * time.Second, Beat: 20 * time.Millisecond,
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, args...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close(ctx)
	watch := connect(t, url)
	defer watch.Close(ctx)
	lockWaiter(t, watch, "DELETE FROM servers s WHERE")
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := na.Close(cctx); err != nil {
		t.Fatalf("Close during the look for dead servers: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range logged {
		if strings.Contains(l, "forgetting dead servers") {
			t.Fatalf("logged %q while stopping", logged)
		}
	}
}

// TestNodeForgetEveryAtJoin: a server keeps the pace of its look for
// dead servers to forget that it joined with: set again afterwards, the
// setting changes only the servers joined after. Here the server joined
// to look at every heartbeat still forgets a server dead for two hours,
// though the setting is then made too large for any look to come.
func TestNodeForgetEveryAtJoin(t *testing.T) {
	ctx := context.Background()
	_, a, watch := withDeadServer(t)
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: 3 * time.Second, Beat: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close(ctx)
	pgstore.SetForgetEvery(t, 1<<30)
	for deadline := time.Now().Add(10 * time.Second); ; {
		var left bool
		if err := watch.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM servers WHERE id = 'dead')`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if !left {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server dead for two hours is not forgotten within 10 s: the heartbeat took up the pace set after it joined")
		}
		time.Sleep(10 * time.Millisecond) // the next heartbeat
	}
}
