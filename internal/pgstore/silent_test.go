package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestSilentDatabase: with PostgreSQL accepting connections and never
// answering them (a paused server, a proxy that swallows the handshake),
// a visit's record, a table's write and a readiness check that run out
// of time while a connection is still being opened are PostgreSQL not
// answering, out of reach: not "no connection free" with every
// connection said waiting on a lock (0 of 4 were in use), and not
// counted as refused. Before, each counted and sent the operator after
// a lock.
func TestSilentDatabase(t *testing.T) {
	db := silentDB(t)

	calls := []struct {
		name string
		call func(context.Context) error
	}{
		{"a visit's record", func(ctx context.Context) error { _, err := db.Seen(ctx, "p", time.Now()); return err }},
		{"a table's write", func(ctx context.Context) error {
			_, err := db.tables.Exec(ctx, `UPDATE servers SET draining = true WHERE id = 1`)
			return err
		}},
		{"a readiness check", db.Ping},
	}
	for _, c := range calls {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := c.call(ctx)
		cancel()
		var u interface{ Unavailable() bool }
		var s interface{ TooSlow() bool }
		if !errors.As(err, &u) || !u.Unavailable() || errors.As(err, &s) {
			t.Errorf("%s with PostgreSQL silent: %v; want the database out of reach, not too slow", c.name, err)
			continue
		}
		if w := err.Error(); !strings.Contains(w, "PostgreSQL did not answer within") ||
			strings.Contains(w, "no connection of the pool free") || strings.Contains(w, "lock held") {
			t.Errorf("%s with PostgreSQL silent: %q; want it said not answering, no lock named", c.name, w)
		}
	}
	if n := db.Refused(); n != 0 {
		t.Errorf("refusals counted %d with PostgreSQL silent, want 0 (no connection was in use)", n)
	}
}

// silentDB is a store of four connections (three for requests) on a
// listener that accepts connections and never answers them: PostgreSQL
// paused, or a proxy swallowing the handshake.
func silentDB(t *testing.T) *DB {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() { // exits when the listener is closed, at the test's end
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, unanswered
			mu.Unlock()
		}
	}()
	raw, err := pgxpool.New(context.Background(), "postgres://u@"+ln.Addr().String()+"/d?sslmode=disable&pool_max_conns=4")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close) // after the connections below are closed: it waits for those being opened
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	db := &DB{name: "silent"}
	db.setPools(raw)
	return db
}

// TestSilentShareFilled: with PostgreSQL silent, three visits take the
// requests' whole share of the pool while their connections are still
// being opened; a fourth that waits its 300 ms for a place in the share
// is PostgreSQL not answering (three being opened), not "no connection
// free" with 0 of 4 in use, and is not counted as refused: the share
// counts as in use only for the connections its callers hold, not for
// the places taken by calls still opening one.
func TestSilentShareFilled(t *testing.T) {
	db := silentDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() }) // before the connections close: registered after them
	for range cap(db.pool.share) {
		wg.Add(1)
		go func() { // ends at its own bound (a visit's 2 s) or when canceled
			defer wg.Done()
			db.Seen(ctx, "p", time.Now())
		}()
	}
	for deadline := time.Now().Add(5 * time.Second); len(db.pool.share) < cap(db.pool.share) ||
		db.pool.raw.Stat().ConstructingConns() < int32(cap(db.pool.share)); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("share %d of %d taken, %d connections being opened after 5 s; want the share full, all being opened",
				len(db.pool.share), cap(db.pool.share), db.pool.raw.Stat().ConstructingConns())
		}
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer wcancel()
	_, err := db.Seen(wctx, "q", time.Now())
	var s interface{ TooSlow() bool }
	if w := fmt.Sprint(err); !strings.Contains(w, "PostgreSQL did not answer within") ||
		!strings.Contains(w, "3 being opened got no answer") || errors.As(err, &s) {
		t.Errorf("a fourth visit with the share filled by connections being opened: %q; want PostgreSQL not answering, 3 being opened", w)
	}
	if n := db.Refused(); n != 0 {
		t.Errorf("refusals counted %d, want 0 (no connection was in use)", n)
	}
}
