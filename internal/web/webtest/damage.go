package webtest

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the "sqlite" driver the store uses
)

// Damage runs query (with args) on the SQLite database at path behind the
// server's back, as a hand edit or a failing disk would change a row, and
// closes its connection before returning (one server per database: a
// restart needs it gone).
func Damage(tb testing.TB, path, query string, args ...any) {
	tb.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(query, args...); err != nil {
		tb.Fatal(err)
	}
}
