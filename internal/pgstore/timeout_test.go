package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
)

// TestStatementTimeoutOperatorWins: the store's 15 s statement_timeout
// is the default only: one the operator set anywhere (the URL's
// parameter or options=-c, ALTER ROLE ... SET, PGOPTIONS) is the one a
// connection of the pool has.
func TestStatementTimeoutOperatorWins(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	setting := func(t *testing.T, u string) string {
		t.Helper()
		db, err := pgstore.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		v, err := db.Setting(ctx, "statement_timeout")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	t.Run("default", func(t *testing.T) {
		if got := setting(t, base); got != "15s" {
			t.Errorf("statement_timeout with none set: %q, want 15s", got)
		}
	})
	t.Run("url", func(t *testing.T) {
		if got := setting(t, base+"&statement_timeout=60000"); got != "1min" {
			t.Errorf("statement_timeout set by the URL: %q, want 1min", got)
		}
	})
	t.Run("options", func(t *testing.T) {
		if got := setting(t, base+"&options="+strings.ReplaceAll(url.QueryEscape("-c statement_timeout=7s"), "+", "%20")); got != "7s" {
			t.Errorf("statement_timeout set by options=-c: %q, want 7s", got)
		}
	})
	t.Run("pgoptions", func(t *testing.T) {
		t.Setenv("PGOPTIONS", "-c statement_timeout=9s")
		if got := setting(t, base); got != "9s" {
			t.Errorf("statement_timeout set by PGOPTIONS: %q, want 9s", got)
		}
	})
	t.Run("alter role", func(t *testing.T) {
		// A role of this test's own (ALTER ROLE is the whole server's),
		// owning the tables of a schema of its own.
		base := pgtest.DB(t)
		schema := base[strings.LastIndex(base, "=")+1:]
		role := schema + "_role"
		admin, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close(ctx)
		for _, q := range []string{
			"CREATE ROLE " + role + " LOGIN",
			"GRANT ALL ON SCHEMA " + schema + " TO " + role,
			"ALTER ROLE " + role + " SET statement_timeout = '8s'",
		} {
			if _, err := admin.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if got := setting(t, strings.Replace(base, "postgres@", role+"@", 1)); got != "8s" {
			t.Errorf("statement_timeout set by ALTER ROLE: %q, want 8s", got)
		}
	})
}

// TestTimeoutByCodeAlone: a statement cancelled for its timeout is told
// by its SQLSTATE, whatever the language of PostgreSQL's message
// (lc_messages): a 503 "too slow", not a 500. A cancel the client made
// itself (its context ended) is not the database's slowness.
func TestTimeoutByCodeAlone(t *testing.T) {
	type slow interface {
		Unavailable() bool
		TooSlow() bool
	}
	for _, pe := range []*pgconn.PgError{
		{Severity: "FEHLER", Code: "57014", Message: "storniere Anfrage wegen Zeitüberschreitung der Anweisung"},
		{Severity: "ERREUR", Code: "55P03", Message: "annulation de l'instruction en raison du délai d'attente du verrou"},
	} {
		err := pgstore.Classify(fmt.Errorf("reading a game: %w", pe))
		var s slow
		if !errors.As(err, &s) || !s.Unavailable() || !s.TooSlow() {
			t.Errorf("%s %q: %v; want a database too slow", pe.Code, pe.Message, err)
		}
	}
	for _, ctxErr := range []error{context.Canceled, context.DeadlineExceeded} {
		pe := &pgconn.PgError{Code: "57014", Message: "canceling statement due to user request"}
		err := pgstore.Classify(fmt.Errorf("%w: %w", ctxErr, pe))
		var s slow
		if errors.As(err, &s) {
			t.Errorf("a cancel of the client's own (%v) classified as the database too slow: %v", ctxErr, err)
		}
	}
}

// TestLockTimeout: with lock_timeout set in the URL, a request whose
// lock another connection holds fails at that timeout (SQLSTATE 55P03) as
// a database too slow, 503, not as a 500.
func TestLockTimeout(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	db, err := pgstore.Open(ctx, base+"&lock_timeout=200")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx := holdLock(t, base, "games", "ACCESS EXCLUSIVE")
	defer tx.Rollback(ctx)

	got := make(chan error, 1)
	go func() { _, err := db.Game(ctx, "p", "G"); got <- err }()
	select {
	case err = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("a read waiting on a lock still waits after 10 s: no lock_timeout")
	}
	var pe *pgconn.PgError
	var s interface{ TooSlow() bool }
	if !errors.As(err, &pe) || pe.Code != "55P03" || !errors.As(err, &s) || !s.TooSlow() {
		t.Fatalf("read past lock_timeout: %v; want 55P03, a database too slow", err)
	}
}

// TestTimeoutExemptions: migrations and db copy's reads and writes are
// not bound by statement_timeout (here 300 ms, in the URL): each waits
// on a lock until a statement under the same timeout, waiting on the
// same lock after it, was canceled by it, and succeeds once the lock is
// released. Decision: the condition is that cancellation, not a time:
// the test waited 250 ms past a 50 ms timeout, a bound the store's own
// bound statements (opening it) could miss under load.
func TestTimeoutExemptions(t *testing.T) {
	ctx := context.Background()
	base := pgtest.DB(t)
	watch, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	const app = "cardtable_exempt"
	u := base + "&statement_timeout=300&application_name=" + app
	// outlived waits until the store's statement waits on a lock, then
	// runs control, which waits on the same lock under the same
	// statement_timeout and must be canceled by it; the store's call must
	// not have ended by then (done).
	outlived := func(t *testing.T, done <-chan error, control func() error) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			select {
			case err := <-done:
				t.Fatalf("ended with the lock still held: %v", err)
			default:
			}
			var ok bool
			if err := watch.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE application_name = $1
				AND wait_event_type = 'Lock')`, app).Scan(&ok); err != nil {
				t.Fatal(err)
			}
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("not waiting on the lock after 10 s")
			}
			time.Sleep(testBeat) // the next look
		}
		var pe *pgconn.PgError
		if err := control(); !errors.As(err, &pe) || pe.Code != "57014" {
			t.Fatalf("a statement under the same statement_timeout waiting on the same lock: %v; want it canceled (57014)", err)
		}
		select {
		case err := <-done:
			t.Fatalf("ended with the lock still held, by its statement_timeout as the other: %v", err)
		default:
		}
	}

	t.Run("migrations", func(t *testing.T) {
		if _, err := watch.Exec(ctx, `SELECT pg_advisory_lock($1)`, pgstore.MigrateLock); err != nil {
			t.Fatal(err)
		}
		opened := make(chan error, 1)
		go func() {
			db, err := pgstore.Open(ctx, u)
			if err == nil {
				db.Close()
			}
			opened <- err
		}()
		outlived(t, opened, func() error {
			c, err := pgx.Connect(ctx, u)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			_, err = c.Exec(ctx, `SELECT pg_advisory_lock($1)`, pgstore.MigrateLock)
			return err
		})
		if _, err := watch.Exec(ctx, `SELECT pg_advisory_unlock($1)`, pgstore.MigrateLock); err != nil {
			t.Fatal(err)
		}
		if err := <-opened; err != nil {
			t.Fatalf("migrations waiting on another server's past statement_timeout: %v", err)
		}
	})

	db, err := pgstore.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t.Run("import", func(t *testing.T) {
		tx := holdLock(t, base, "acme_cache", "SHARE")
		done := make(chan error, 1)
		go func() {
			done <- db.Import(ctx, "acme_cache", []any{dbcopy.ACMEEntry{Key: "a.example", Data: []byte("c"), Updated: 1}})
		}()
		outlived(t, done, func() error { return db.ACMEPut(ctx, "b.example", []byte("d")) })
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("db copy's write waiting past statement_timeout: %v", err)
		}
	})
	t.Run("export", func(t *testing.T) {
		tx := holdLock(t, base, "acme_cache", "ACCESS EXCLUSIVE")
		done := make(chan error, 1)
		rows := 0
		go func() {
			done <- db.Export(ctx, "acme_cache", func(any) error { rows++; return nil })
		}()
		outlived(t, done, func() error { _, _, err := db.ACMEGet(ctx, "a.example"); return err })
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil || rows != 1 {
			t.Fatalf("db copy's read waiting past statement_timeout: %d rows, %v; want 1", rows, err)
		}
	})
}

// holdLock takes table's lock in mode in a transaction of a connection
// of its own, as an operator's connection would; the test ends it.
func holdLock(t testing.TB, u, table, mode string) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE "+table+" IN "+mode+" MODE"); err != nil {
		t.Fatal(err)
	}
	return tx
}
