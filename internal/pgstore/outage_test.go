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
)

// TestNodeOutageTakesNothing: when PostgreSQL stops for longer than the
// lease, every server's heartbeat stops with it; the first server back
// must not take the others' tables for a dead server's (each one of
// them would move, and all to that server). A server whose own
// heartbeat failed takes no orphan until it has had a lease of good
// heartbeats since, and logs the database's return: here B, with a lease of a minute, takes nothing
// just after the outage, although A's table is an orphan by its
// heartbeat; a server that saw no outage (C, joined after it) takes it.
func TestNodeOutageTakesNothing(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	a, _, na, _ := twoServers(t, url)
	if err := a.CreateTable(ctx, newStored("T1")); err != nil {
		t.Fatal(err)
	}
	// A dies, and its heartbeat is an hour old: T1 is an orphan to any
	// lease.
	na.Crash()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE servers SET heartbeat = heartbeat - interval '1 hour' WHERE id = $1`, na.ID()); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	failed := make(chan struct{}, 1)
	back := make(chan string, 1)
	nb, err := db.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:2", Lease: time.Minute, Beat: testBeat,
		Logf: func(format string, args ...any) {
			line := fmt.Sprintf(format, args...)
			switch {
			case strings.Contains(line, "answers again"):
				select {
				case back <- line:
				default:
				}
			case strings.HasPrefix(line, "server heartbeat"):
				select {
				case failed <- struct{}{}:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nb.Close(context.Background()) })

	pgtest.Stop(t)
	<-failed // B's heartbeat failed
	pgtest.Start(t)
	// B's heartbeat renewed after the outage.
	conn, err = pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for {
		var renewed bool
		if err := conn.QueryRow(ctx, `SELECT heartbeat > pg_postmaster_start_time() FROM servers WHERE id = $1`,
			nb.ID()).Scan(&renewed); err != nil {
			t.Fatal(err)
		}
		if renewed {
			break
		}
		time.Sleep(testBeat) // B's next heartbeat
	}
	if got, err := nb.Take(ctx, 10, nil); err != nil || len(got) > 0 {
		t.Fatalf("a server just back from an outage took %d tables (%v)", len(got), err)
	}
	// The log says the database is back, not only that it went.
	select {
	case line := <-back:
		if !strings.Contains(line, "out of reach") {
			t.Errorf("the line of the return: %q", line)
		}
	case <-time.After(time.Minute):
		t.Fatal("no line said the database answers again")
	}
	c, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	nc, err := c.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:3", Lease: testLease, Beat: testBeat})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close(context.Background()) })
	if got := takeWithin(t, nc, 10*testLease); len(got) != 1 || got[0].ID != "T1" {
		t.Fatalf("C took %+v", got)
	}
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
