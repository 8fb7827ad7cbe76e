package pgstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
)

// TestConnectErrorOneLine: a server that cannot be reached, and a
// database the server refuses, are each said in one line that gives the
// cause, not pgx's line per attempt. Against a server without TLS, the
// default sslmode (prefer) tries TLS first: its refusal must not stand
// in the place of the real cause, the server's own answer.
func TestConnectErrorOneLine(t *testing.T) {
	url := pgtest.DB(t)
	base, _, _ := strings.Cut(url, "?")
	missing := strings.TrimSuffix(base, "/postgres") + "/no_such_database" // sslmode: the default, prefer
	for _, c := range []struct{ name, url, cause string }{
		{"nothing listening", "postgres://u:secret@127.0.0.1:1/db", "nothing listens at 127.0.0.1:1 (connection refused)"},
		{"no such database", missing, `database "no_such_database" does not exist`},
	} {
		_, err := pgstore.Open(context.Background(), c.url)
		if err == nil {
			t.Fatalf("%s: opened", c.name)
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, c.cause) || strings.Contains(msg, "TLS") ||
			strings.Contains(msg, "secret") {
			t.Errorf("%s: %q, want one line with %q", c.name, msg, c.cause)
		}
		var ce *pgconn.ConnectError
		if !errors.As(err, &ce) {
			t.Errorf("%s: pgx's error is no longer found in %v", c.name, err)
		}
	}
}
