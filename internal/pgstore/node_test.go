package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// Short leases, so that the tests wait little; a scan is a Take.
const (
	testLease = 600 * time.Millisecond
	testBeat  = 100 * time.Millisecond
)

// twoServers opens the database url twice (two pools, as two processes)
// and joins each to the registry.
func twoServers(t *testing.T, url string) (a, b *pgstore.DB, na, nb *pgstore.Node) {
	t.Helper()
	ctx := context.Background()
	join := func() (*pgstore.DB, *pgstore.Node) {
		db, err := pgstore.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		n, err := db.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: testLease, Beat: testBeat})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close(context.Background()) })
		return db, n
	}
	a, na = join()
	b, nb = join()
	return a, b, na, nb
}

func newStored(id string) table.Stored {
	now := time.Now().UTC()
	return table.Stored{ID: id, Creator: "p", Config: `{"players":2}`, Seed: 1,
		Seats: make([]table.StoredSeat, 2), Status: table.StatusOpen, Created: now, Updated: now}
}

// takeWithin calls n.Take until it returns a table, for at most d.
func takeWithin(t *testing.T, n *pgstore.Node, d time.Duration) []table.Stored {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		got, err := n.Take(context.Background(), 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			return got
		}
		time.Sleep(testBeat) // the next scan
	}
	t.Fatalf("nothing taken in %v", d)
	return nil
}

// TestNodeFencing: a table belongs to the server that made it; while that
// server's heartbeat lives no other takes it; once it stops (a crash:
// nothing released) another takes the table with its moves, and from
// then on every write of the old server is refused with ErrMoved, even
// one whose sequence number is right, while the new server's go on.
func TestNodeFencing(t *testing.T) {
	ctx := context.Background()
	a, b, na, nb := twoServers(t, pgtest.DB(t))
	if err := a.CreateTable(ctx, newStored("T1")); err != nil {
		t.Fatal(err)
	}
	if err := a.AppendAction(ctx, "T1", 0, table.StoredMove{Seat: 0, Action: "m0"}); err != nil {
		t.Fatal(err)
	}
	// B writing A's table is refused unsent: it holds no claim.
	if err := b.AppendAction(ctx, "T1", 1, table.StoredMove{Seat: 1, Action: "b"}); !errors.Is(err, table.ErrMoved) {
		t.Fatalf("a write of a table another server holds: %v, want ErrMoved", err)
	}
	// A lives: B takes nothing, over more than a lease.
	for range 2 * int(testLease/testBeat) {
		if got, err := nb.Take(ctx, 10, nil); err != nil || len(got) > 0 {
			t.Fatalf("took %d tables of a live server (%v)", len(got), err)
		}
		time.Sleep(testBeat)
	}
	held, err := na.Held(ctx)
	if err != nil || !held["T1"] {
		t.Fatalf("A holds %v (%v)", held, err)
	}
	na.Crash()
	got := takeWithin(t, nb, 10*testLease)
	if len(got) != 1 || got[0].ID != "T1" || len(got[0].Moves) != 1 {
		t.Fatalf("B took %+v", got)
	}
	// A, stalled but alive, still believes it holds T1: refused, though
	// seq 1 is the next move.
	for name, write := range map[string]func() error{
		"append": func() error { return a.AppendAction(ctx, "T1", 1, table.StoredMove{Seat: 1, Action: "stale"}) },
		"seats":  func() error { return a.SaveSeats(ctx, "T1", []table.StoredSeat{{Player: "x"}, {}}) },
		"finish": func() error { return a.FinishTable(ctx, "T1", table.StatusClosed, time.Now()) },
		"chat":   func() error { return a.AppendChat(ctx, "T1", table.ChatLine{N: 1, Name: "x", Text: "stale"}, 50) },
	} {
		if err := write(); !errors.Is(err, table.ErrMoved) {
			t.Fatalf("%s by the old server: %v, want ErrMoved", name, err)
		}
	}
	if held, err := na.Held(ctx); err != nil || held["T1"] {
		t.Fatalf("A still holds %v (%v)", held, err)
	}
	if err := b.AppendAction(ctx, "T1", 1, table.StoredMove{Seat: 1, Action: "m1"}); err != nil {
		t.Fatalf("the new server's write: %v", err)
	}
	if err := b.AppendChat(ctx, "T1", table.ChatLine{N: 1, Name: "y", Text: "hi"}, 50); err != nil {
		t.Fatalf("the new server's chat: %v", err)
	}
	// A wrong sequence is refused on the new server too, and says moved.
	if err := b.AppendAction(ctx, "T1", 1, table.StoredMove{Seat: 1, Action: "again"}); !errors.Is(err, pgstore.ErrStale) || !errors.Is(err, table.ErrMoved) {
		t.Fatalf("a doubled move: %v, want ErrStale and ErrMoved", err)
	}
	s, err := b.LoadTable(ctx, "T1")
	if err != nil || len(s.Moves) != 2 || s.Moves[0].Action != "m0" || s.Moves[1].Action != "m1" || s.Seats[0].Player != "" || s.Status != table.StatusOpen {
		t.Fatalf("stored %+v (%v)", s, err)
	}
}

// TestNodeForgetsLostClaims: a server remembers the epoch of each table
// it claimed, to fence its writes; the tables another server took from it
// are forgotten at its next look at what it holds (Held), not kept for
// ever, while a claim it still holds stays; a table that finished and
// stopped here is forgotten when it is given back (Release).
func TestNodeForgetsLostClaims(t *testing.T) {
	ctx := context.Background()
	a, _, na, nb := twoServers(t, pgtest.DB(t))
	for _, id := range []string{"L1", "L2"} {
		if err := a.CreateTable(ctx, newStored(id)); err != nil {
			t.Fatal(err)
		}
	}
	na.Crash()
	if got := takeWithin(t, nb, 10*testLease); len(got) != 2 {
		t.Fatalf("B took %d tables, want 2", len(got))
	}
	if err := a.CreateTable(ctx, newStored("K1")); err != nil { // made after the loss: still A's
		t.Fatal(err)
	}
	if n := na.Claims(); n != 3 {
		t.Fatalf("A remembers %d claims before looking, want 3", n)
	}
	held, err := na.Held(ctx)
	if err != nil || len(held) != 1 || !held["K1"] {
		t.Fatalf("A holds %v (%v), want K1 alone", held, err)
	}
	if n := na.Claims(); n != 1 {
		t.Fatalf("A remembers %d claims after looking, want 1 (K1)", n)
	}
	if err := a.AppendAction(ctx, "K1", 0, table.StoredMove{Seat: 0, Action: "m0"}); err != nil {
		t.Fatalf("a write of the claim kept: %v", err)
	}
	if err := a.FinishTable(ctx, "K1", table.StatusOver, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := na.Release(ctx, []string{"K1"}); err != nil {
		t.Fatal(err)
	}
	if n := na.Claims(); n != 0 {
		t.Fatalf("A remembers %d claims after its last table finished and was given back", n)
	}
}

// TestNodeRelease: a server that stops gives its tables back, and another
// takes them at once, long before the lease would have run out, but for
// those it asks to skip.
func TestNodeRelease(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const long = time.Hour
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: long})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"R1", "R2", "R3"} {
		if err := a.CreateTable(ctx, newStored(id)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	nb, err := b.Join(ctx, pgstore.NodeOptions{Addr: "b:1", Lease: long})
	if err != nil {
		t.Fatal(err)
	}
	defer nb.Close(ctx)
	if r, err := nb.Route(ctx, "R1"); err != nil || r.Addr != "a:1" || r.Self || !r.Open {
		t.Fatalf("route of A's table from B: %+v (%v)", r, err)
	}
	for range 5 { // A holds 3 tables, B none
		if id, _, err := na.Least(ctx); err != nil || id != nb.ID() {
			t.Fatalf("least loaded: %s (%v), want B", id, err)
		}
	}
	if err := b.CreateTable(ctx, newStored("B1")); err != nil {
		t.Fatal(err)
	}
	if err := na.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	for range 5 { // ties are drawn at random: never the server stopping
		if id, _, err := nb.Least(ctx); err != nil || id != nb.ID() {
			t.Fatalf("least loaded: %s (%v), want B: A is stopping", id, err)
		}
	}
	if got, err := nb.Take(ctx, 10, nil); err != nil || len(got) != 0 {
		t.Fatalf("took %d tables of a server still stopping (%v)", len(got), err)
	}
	if err := na.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// A table B could not start is skipped, the others taken at once.
	got, err := nb.Take(ctx, 10, []string{"R1"})
	if err != nil || len(got) != 2 || slices.ContainsFunc(got, func(s table.Stored) bool { return s.ID == "B1" || s.ID == "R1" }) {
		t.Fatalf("took %d tables given back (%v), want 2: not R1", len(got), err)
	}
	if got, err := nb.Take(ctx, 10, nil); err != nil || len(got) != 1 || got[0].ID != "R1" {
		t.Fatalf("took %d tables when skipping none (%v), want R1", len(got), err)
	}
	if r, err := nb.Route(ctx, "R2"); err != nil || !r.Self {
		t.Fatalf("route after the take: %+v (%v)", r, err)
	}
}

// TestNodeBehindGivesBack: a server whose copy of a table fell behind the
// store while it still holds the table (a move it stored but never heard
// acknowledged: the connection broke after the commit) is refused with
// ErrMoved, and the table is given back, so that a server (another, or
// this one at its next scan) takes it and runs it from the stored moves,
// the unacknowledged one included; it is not left held by a server that
// no longer runs it, where no server would ever take it.
func TestNodeBehindGivesBack(t *testing.T) {
	ctx := context.Background()
	a, _, na, nb := twoServers(t, pgtest.DB(t))
	if err := a.CreateTable(ctx, newStored("T1")); err != nil {
		t.Fatal(err)
	}
	for seq, m := range []string{"m0", "m1"} { // m1: stored, its answer lost
		if err := a.AppendAction(ctx, "T1", seq, table.StoredMove{Seat: seq, Action: m}); err != nil {
			t.Fatal(err)
		}
	}
	err := a.AppendAction(ctx, "T1", 1, table.StoredMove{Seat: 1, Action: "again"})
	if !errors.Is(err, pgstore.ErrStale) || !errors.Is(err, table.ErrMoved) {
		t.Fatalf("a move behind the store: %v, want ErrStale and ErrMoved", err)
	}
	if held, err := na.Held(ctx); err != nil || held["T1"] {
		t.Fatalf("A still holds %v (%v): no server would run T1", held, err)
	}
	got := takeWithin(t, nb, 10*testLease)
	if len(got) != 1 || got[0].ID != "T1" || len(got[0].Moves) != 2 || got[0].Moves[1].Action != "m1" {
		t.Fatalf("B took %+v", got)
	}
	if err := a.AppendAction(ctx, "T1", 2, table.StoredMove{Seat: 0, Action: "old"}); !errors.Is(err, table.ErrMoved) {
		t.Fatalf("A's write after giving the table back: %v, want ErrMoved", err)
	}
}

// TestNodeBadLobbyLogged: another server's lobby that does not parse (a
// damaged row, a server of another version) is skipped, the others' tables
// still listed, and logged once naming that server, not at every read.
func TestNodeBadLobbyLogged(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mu sync.Mutex
	var logged []string
	n, err := db.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: time.Minute, Beat: 20 * time.Millisecond,
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, args...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(ctx)
	raw := connect(t, url)
	defer raw.Close(ctx)
	if _, err := raw.Exec(ctx, `INSERT INTO servers (id, addr, lobby) VALUES
		('goodserver', '127.0.0.1:2', '[{"id":"T1","players":2}]'), ('badserver', '127.0.0.1:3', '{not json')`); err != nil {
		t.Fatal(err)
	}
	got, _, err := n.Others(ctx, "")
	if err != nil || len(got) != 1 || got[0].ID != "T1" {
		t.Fatalf("others: %+v, %v; want the good server's table T1", got, err)
	}
	// Read again until a new server's table shows (after a Beat): the bad
	// row was read again too.
	if _, err := raw.Exec(ctx, `INSERT INTO servers (id, addr, lobby) VALUES
		('goodserver2', '127.0.0.1:4', '[{"id":"T2","players":2}]')`); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2; time.Sleep(5 * time.Millisecond) {
		if got, _, err = n.Others(ctx, ""); err != nil || time.Now().After(deadline) {
			t.Fatalf("others: %+v, %v; want T1 and T2 within 10 s", got, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var bad []string
	for _, l := range logged {
		if strings.Contains(l, "badserver") {
			bad = append(bad, l)
		}
	}
	if len(bad) != 1 || strings.Contains(strings.Join(logged, "\n"), "goodserver") {
		t.Fatalf("logged %q; want the bad server's lobby logged once", logged)
	}
}

// TestNodeCloseDuringSlowHeartbeat: a server stopping while its heartbeat
// waits on the database (here a lock on its row in the registry, held by
// another connection) gives its tables back within Close's budget, not
// after that heartbeat ends: before, Close waited for the heartbeat, its
// budget ran out meanwhile, and the tables stayed held by a server gone
// until its lease ran out after the heartbeat's late renewal.
func TestNodeCloseDuringSlowHeartbeat(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	// The lease bounds a heartbeat: longer than Close's budget, as the
	// default 5 s is longer than serve's 2 s.
	const lease, budget = 3 * time.Second, 2 * time.Second
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: lease, Beat: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close(ctx)
	if err := a.CreateTable(ctx, newStored("S1")); err != nil {
		t.Fatal(err)
	}
	locker := connect(t, url)
	defer locker.Close(ctx)
	tx := lockServer(t, locker, na.ID())
	defer tx.Rollback(ctx)
	// Until the heartbeat waits on the lock. The poll runs in the lock's
	// transaction, where PostgreSQL keeps the first read of
	// pg_stat_activity until the transaction ends: cleared before each.
	for deadline := time.Now().Add(10 * time.Second); ; {
		var waiting bool
		if _, err := tx.Exec(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
			t.Fatal(err)
		}
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE servers SET heartbeat%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the heartbeat never waited on the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { // exits when Close returns
		cctx, cancel := context.WithTimeout(ctx, budget)
		defer cancel()
		closed <- na.Close(cctx)
	}()
	// The lock is held until the table is given back or Close returns:
	// the row's removal, Close's last step, waits on it too.
	var given bool
	for !given {
		select {
		case err := <-closed:
			t.Fatalf("Close returned (%v) with the table still held by the server", err)
		case <-time.After(10 * time.Millisecond):
		}
		if err := tx.QueryRow(ctx, `SELECT owner IS NULL FROM live_tables WHERE id = 'S1'`).Scan(&given); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatalf("Close after its heartbeat was cut: %v", err)
	}
	var rows int
	if err := locker.QueryRow(ctx, `SELECT count(*) FROM servers WHERE id = $1`, na.ID()).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("the server's row after Close: %d (%v), want none", rows, err)
	}
}
