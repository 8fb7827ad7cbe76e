package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
)

// The behaviour of the store is tested with the SQLite store's, by the
// same tests (internal/storetest); here, what is PostgreSQL's own.

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestMigrations: servers starting together on a new database apply each
// migration once; a database from a newer program is refused untouched.
func TestMigrations(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			db, err := pgstore.Open(ctx, url)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a server starting beside others: %v", err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v, rows int
	if err := conn.QueryRow(ctx, `SELECT version, (SELECT count(*) FROM cardtable_schema) FROM cardtable_schema`).Scan(&v, &rows); err != nil ||
		v != pgstore.Version() || rows != 1 || v < 1 {
		t.Fatalf("schema version %d in %d rows (%v), want %d in 1", v, rows, err, pgstore.Version())
	}
	// The test server listens on loopback only (internal/pgtest).
	var listen string
	if err := conn.QueryRow(ctx, "SHOW listen_addresses").Scan(&listen); err != nil || listen != "127.0.0.1" {
		t.Fatalf("listen_addresses %q, %v", listen, err)
	}
	if _, err := conn.Exec(ctx, `UPDATE cardtable_schema SET version = 999`); err != nil {
		t.Fatal(err)
	}
	// Refused as the SQLite store refuses it: the same error (the
	// command line's bad input, exit 2), in its own words.
	if _, err := pgstore.Open(ctx, url); !errors.Is(err, dbcopy.ErrNewer) ||
		!strings.Contains(err.Error(), fmt.Sprintf(": database schema version 999 is newer than this program's %d: it was made by a newer cardtable", pgstore.Version())) {
		t.Fatalf("newer schema: %v", err)
	}
}

// TestURL: which --db values are PostgreSQL, and a URL shown without its
// password.
func TestURL(t *testing.T) {
	for s, want := range map[string]bool{"postgres://u@h/db": true, "postgresql://h/db": true,
		"cardtable.db": false, "/var/lib/postgres/x.db": false, "file:postgres://x": false} {
		if pgstore.IsURL(s) != want {
			t.Errorf("IsURL(%q) = %v", s, !want)
		}
	}
	if r := pgstore.Redact("postgres://u:secret@h/db?sslmode=disable"); strings.Contains(r, "secret") || !strings.Contains(r, "u:") {
		t.Fatalf("redacted %q", r)
	}
	if _, err := pgstore.Open(context.Background(), "postgres://u:secret@127.0.0.1:1/db?connect_timeout=1"); err == nil ||
		strings.Contains(err.Error(), "secret") {
		t.Fatalf("an unreachable server: %v", err)
	}
}
