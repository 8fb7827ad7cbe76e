package pgstore

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/pgtest"
)

// TestRestartIsOutOfReach: after PostgreSQL restarts in fast mode (as
// `pg_ctl restart -m fast`), a connection the pool held is ended with
// SQLSTATE 57P01, "terminating connection due to administrator command";
// its error is the database out of reach (a request answers 503, to be
// tried again), not an error of the query (500). A query on a new
// connection then works.
func TestRestartIsOutOfReach(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	held, err := db.pool.raw.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Restart(t)
	_, err = held.Exec(ctx, "SELECT 1")
	held.Release()
	var u interface{ Unavailable() bool }
	if err == nil || !errors.As(full(err), &u) || !u.Unavailable() {
		t.Fatalf("a connection ended by the restart: %v, not out of reach", err)
	}
	for _, code := range []string{"57P01", "57P02", "57P03", "08006"} {
		if !goneAway(pgError(code)) {
			t.Errorf("SQLSTATE %s not out of reach", code)
		}
	}
	if goneAway(pgError("23505")) {
		t.Error("a unique violation taken for the database out of reach")
	}
	// The pool's other connections, idle, were ended too: each is given
	// up at its first use (out of reach), so a few tries reach a new one.
	for i := 0; ; i++ {
		_, err := db.Settings(ctx, "p")
		if err == nil {
			break
		}
		if !errors.As(err, &u) || i == 20 {
			t.Fatalf("after the restart, try %d: %v", i+1, err)
		}
	}
}

func pgError(code string) error { return &pgconn.PgError{Code: code, Message: "m"} }
