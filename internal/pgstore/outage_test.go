package pgstore_test

import (
	"context"
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

// TestLongNodeOutageTakesNothing: when PostgreSQL stops for longer
// than the lease, every server's heartbeat stops with it; the first
// server back must not take the others' tables for a dead server's
// (each one of them would move, and all to that server). A server whose
// own heartbeat failed takes no orphan until it has had a lease of good
// heartbeats since, and logs the database's return. Here B has run more
// than calmCap leases before the outage, so no wait of a new server
// holds it back: only the outage does. Just after it, B takes nothing,
// although A's table is an orphan by its heartbeat; a lease later it
// takes it. The quick version, without a database, is TestCalmRecovers.
func TestLongNodeOutageTakesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("stops PostgreSQL; the quick version is TestCalmRecovers")
	}
	ctx := context.Background()
	url := pgtest.DB(t)
	a, _, na, _ := twoServers(t, url)
	if err := a.CreateTable(ctx, newStored("T1")); err != nil {
		t.Fatal(err)
	}
	// A dies, and its heartbeat is an hour old: T1 is an orphan to any
	// lease.
	na.Crash()
	ageHeartbeat(t, url, na.ID())

	// A lease long enough that no stall of a busy machine between B's
	// first heartbeat after the outage and its scan outlasts it.
	const lease = 2 * testLease
	lines := make(chan string, 100)
	nb := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:2", Lease: lease, Beat: testBeat,
		Logf: func(format string, args ...any) {
			select {
			case lines <- fmt.Sprintf(format, args...):
			default:
			}
		}})
	<-time.After(3*lease + lease/2) // past every wait of a new server
	pgtest.Stop(t)
	waitLine(t, lines, "server heartbeat") // B's heartbeat failed
	<-time.After(lease + lease/2)          // the outage outlasts the lease
	pgtest.Start(t)
	waitRenewed(t, url, nb.ID())
	if got, err := nb.Take(ctx, 10, nil); err != nil || len(got) > 0 {
		t.Fatalf("a server just back from an outage took %v (%v)", ids(got), err)
	}
	// The log says the database is back, not only that it went.
	if line := waitLine(t, lines, "answers again"); !strings.Contains(line, "out of reach") {
		t.Errorf("the line of the return: %q", line)
	}
	if got := takeWithin(t, nb, 10*lease); len(got) != 1 || got[0].ID != "T1" {
		t.Fatalf("B took %v a lease after the outage, want T1", ids(got))
	}
}

// TestNodeNewServerWaitsALease: a server started while another's lease
// is stale (as just after PostgreSQL's return, when no server has
// renewed yet; a failed server is restarted within a second) takes none
// of its tables until it has run a lease itself, and then takes them if
// that server is truly dead. A table given back (no owner) is no dead
// server's: the new server takes it at once.
func TestNodeNewServerWaitsALease(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, _, na, _ := twoServers(t, url)
	for _, id := range []string{"T1", "T2", "T3", "T4"} {
		if err := a.CreateTable(ctx, newStored(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := na.Release(ctx, []string{"T4"}); err != nil {
		t.Fatal(err)
	}
	na.Crash()
	ageHeartbeat(t, url, na.ID())
	// A lease long enough that no stall of a busy machine between the
	// start and the first scan outlasts it.
	const lease = 2 * testLease
	started := time.Now()
	nc := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:3", Lease: lease, Beat: testBeat})
	got, err := nc.Take(ctx, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "T4" {
		t.Fatalf("a server just started took %v, want only the table given back", ids(got))
	}
	got = takeWithin(t, nc, 10*testLease)
	if waited := time.Since(started); waited < lease {
		t.Errorf("took a stale server's tables %v after starting, before its own lease (%v)", waited, lease)
	}
	if len(got) != 3 {
		t.Errorf("a lease after starting took %v, want the dead server's 3", ids(got))
	}
}

// TestNodeCrashLoopDefersToNone: a server restarted again and again
// within its lease (systemd restarts a failed one within a second) is
// always alive, least loaded and too new to take a dead server's
// tables; a busier survivor that left them to it would leave them with
// no server for as long as the loop lasts. A, calm and running 5
// tables, takes dead B's table while C restarts every 0.6 lease.
func TestNodeCrashLoopDefersToNone(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	five := make([]table.Summary, 5)
	for i := range five {
		five[i] = table.Summary{ID: fmt.Sprintf("L%d", i)}
	}
	na := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: testLease, Beat: testBeat,
		Tables: func() []table.Summary { return five }})
	nb := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:2", Lease: testLease, Beat: testBeat})
	if err := nb.DB().CreateTable(ctx, newStored("T1")); err != nil {
		t.Fatal(err)
	}
	nb.Crash()
	ageHeartbeat(t, url, nb.ID())
	restart := func() (*pgstore.Node, time.Time) {
		return join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:3", Lease: testLease, Beat: testBeat}), time.Now()
	}
	nc, at := restart()
	// A is calm a lease after it joined; then it must take T1 at once.
	for deadline := time.Now().Add(4 * testLease); ; time.Sleep(testBeat) {
		if time.Since(at) >= testLease*6/10 {
			nc.Crash()
			nc, at = restart()
		}
		got, err := na.Take(ctx, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			if len(got) != 1 || got[0].ID != "T1" {
				t.Fatalf("A took %v, want T1", ids(got))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no server took a dead server's table while another restarted again and again")
		}
	}
}

// join opens url and joins a server with o, both closed at the test's end.
func join(t *testing.T, url string, o pgstore.NodeOptions) *pgstore.Node {
	t.Helper()
	db, err := pgstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	n, err := db.Join(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	return n
}

// ageHeartbeat makes server id's heartbeat an hour old: its tables are
// orphans to any lease.
func ageHeartbeat(t *testing.T, url, id string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE servers SET heartbeat = heartbeat - interval '1 hour' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
}

// waitRenewed waits until server id has renewed its heartbeat since
// PostgreSQL last started.
func waitRenewed(t *testing.T, url, id string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(time.Minute); ; {
		var renewed bool
		if err := conn.QueryRow(ctx, `SELECT heartbeat > pg_postmaster_start_time() FROM servers WHERE id = $1`,
			id).Scan(&renewed); err != nil {
			t.Fatal(err)
		}
		if renewed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no heartbeat renewed within a minute of PostgreSQL's start")
		}
		time.Sleep(testBeat) // the next heartbeat
	}
}

// waitLine returns the first line of lines that contains want, failing
// the test if none comes within a minute.
func waitLine(t *testing.T, lines <-chan string, want string) string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, want) {
				return l
			}
		case <-timeout:
			t.Fatalf("no line with %q within a minute", want)
		}
	}
}

// ids is the tables' ids.
func ids(ts []table.Stored) []string {
	out := make([]string, len(ts))
	for i, s := range ts {
		out[i] = s.ID
	}
	return out
}

// TestNodeTellsDeadServer: the server that takes a dead server's tables
// logs which server it was, at which address, how long it has been
// silent and how many of its tables it took; a table given back (no
// owner) is no dead server's and is not told so.
func TestNodeTellsDeadServer(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, _, na, _ := twoServers(t, url)
	for _, id := range []string{"T1", "T2", "T3"} {
		if err := a.CreateTable(ctx, newStored(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := na.Release(ctx, []string{"T3"}); err != nil {
		t.Fatal(err)
	}
	na.Crash()
	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var mu sync.Mutex
	var lines []string
	nc, err := db.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:3", Lease: testLease, Beat: testBeat,
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, fmt.Sprintf(format, args...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close(context.Background()) })
	var got []string
	for len(got) < 3 {
		for _, s := range takeWithin(t, nc, 10*testLease) {
			got = append(got, s.ID)
		}
	}
	var told []string
	mu.Lock()
	defer mu.Unlock()
	for _, l := range lines {
		if strings.Contains(l, "lease") {
			told = append(told, l)
		}
	}
	want := "server " + na.ID() + " at 127.0.0.1:1 has not renewed its lease for "
	if len(told) != 1 || !strings.HasPrefix(told[0], want) || !strings.HasSuffix(told[0], "s: took 2 of its tables") {
		t.Fatalf("lines %q, want one %q...", lines, want)
	}
}

// TestLongNodeNewServerAfterOutage: PostgreSQL stops for longer than
// the lease and starts again; a server started just then (as a failed
// server restarted within a second) takes none of the tables of a
// server that is alive, whose heartbeat simply had not been renewed yet.
func TestLongNodeNewServerAfterOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("stops PostgreSQL; the quick version is TestNodeNewServerWaitsALease")
	}
	ctx := context.Background()
	url := pgtest.DB(t)
	a, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	lines := make(chan string, 100)
	// A beats at half its lease, so that C's first scans come before
	// A's first heartbeat after the outage, as they may on any cluster.
	na, err := a.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: testLease, Beat: testLease / 2,
		Logf: func(format string, args ...any) {
			select {
			case lines <- fmt.Sprintf(format, args...):
			default:
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { na.Close(context.Background()) })
	for _, id := range []string{"T1", "T2", "T3"} {
		if err := a.CreateTable(ctx, newStored(id)); err != nil {
			t.Fatal(err)
		}
	}
	pgtest.Stop(t)
	waitLine(t, lines, "server heartbeat") // A's heartbeat failed
	<-time.After(2 * testLease)            // the outage outlasts the lease
	pgtest.Start(t)
	nc := join(t, url, pgstore.NodeOptions{Addr: "127.0.0.1:3", Lease: testLease, Beat: testBeat})
	for end := time.Now().Add(3 * testLease); time.Now().Before(end); time.Sleep(testBeat) {
		if got, err := nc.Take(ctx, 10, nil); err != nil || len(got) > 0 {
			t.Fatalf("a server started just after PostgreSQL's return took %v (%v) of a live server", ids(got), err)
		}
	}
}
