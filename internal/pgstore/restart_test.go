package pgstore

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/pgtest"
)

// TestRestartIsOutOfReach: after PostgreSQL restarts in fast mode (as
// `pg_ctl restart -m fast`), a connection the pool held is ended with
// SQLSTATE 57P01, "terminating connection due to administrator command";
// its error is the database out of reach (a request answers 503, to be
// tried again), not an error of the query (500). An idle connection the
// restart ended is out of reach at its first use too; a new connection
// then works.
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
	idle, err := db.pool.raw.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pgtest.Restart(t)
	_, err = held.Exec(ctx, "SELECT 1")
	held.Release()
	if !outOfReach(err) {
		t.Fatalf("a connection ended by the restart: %v, not out of reach", err)
	}
	for _, code := range []string{"57P01", "57P02", "57P03", "08006", "08P01"} {
		if !goneAway(pgError(code)) {
			t.Errorf("SQLSTATE %s not out of reach", code)
		}
	}
	if goneAway(pgError("23505")) {
		t.Error("a unique violation taken for the database out of reach")
	}
	// Released now, the pool hands it out next without checking it (it
	// checks only those idle over a second): the first use meets it.
	idle.Release()
	if _, err := db.Settings(ctx, "p"); !outOfReach(err) {
		t.Fatalf("an idle connection the restart ended, at its first use: %v, not out of reach", err)
	}
	// The pool's other connections, ended too, are given up the same
	// way, so a few tries reach a new one.
	for i := 0; ; i++ {
		_, err := db.Settings(ctx, "p")
		if err == nil {
			break
		}
		if !outOfReach(err) || i == 20 {
			t.Fatalf("after the restart, try %d: %v", i+1, err)
		}
	}
}

// TestTerminatedIsOutOfReach: a connection PostgreSQL ended with 57P01
// (pg_terminate_backend, as a fast restart does to each) is the database
// out of reach, not an error of the query; the next query, on a new
// connection, works.
func TestTerminatedIsOutOfReach(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	held, err := db.pool.raw.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var ended bool // waits until the connection is gone
	if err := other.QueryRow(ctx, "SELECT pg_terminate_backend($1, 5000)", held.Conn().PgConn().PID()).Scan(&ended); err != nil || !ended {
		t.Fatalf("ending the connection: %v, %v", ended, err)
	}
	_, err = held.Exec(ctx, "SELECT 1")
	held.Release()
	if !outOfReach(err) {
		t.Fatalf("a connection PostgreSQL ended: %v, not out of reach", err)
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57P01" {
		t.Errorf("a connection PostgreSQL ended: %v, want SQLSTATE 57P01", err)
	}
	if _, err := db.Settings(ctx, "p"); err != nil {
		t.Fatalf("a query on a new connection: %v", err)
	}
}

// outOfReach is whether err is marked the database out of reach (the
// web layer answers it 503).
func outOfReach(err error) bool {
	var u interface{ Unavailable() bool }
	return err != nil && errors.As(full(err), &u) && u.Unavailable()
}

func pgError(code string) error { return &pgconn.PgError{Code: code, Message: "m"} }
