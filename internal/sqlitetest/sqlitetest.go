// Package sqlitetest makes SQLite files for tests of the commands and the
// store that read them, with no store: another program's file, a file a
// crash left half written. It imports no package of cardtable, so the
// store's own tests can use it.
package sqlitetest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // the driver the store uses
)

// Exec runs stmts on the SQLite file at path, making it if need be, in
// SQLite's default rollback-journal mode.
func Exec(tb testing.TB, path, stmts string) {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmts); err != nil {
		tb.Fatal(err)
	}
}

// HotFile makes, in dir, hot.db with a hot journal beside it: the file
// and -journal a program killed in a write past its page cache leaves.
func HotFile(tb testing.TB, dir string) string {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), "hot.db")
	Exec(tb, path, "CREATE TABLE t(x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) INSERT INTO t SELECT randomblob(2000) FROM n")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=cache_size(1)")
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Close()
	c, err := w.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	// A write past the page cache spills pages into the file, its
	// journal beside it, before the commit: the two copied now are what
	// a crash leaves.
	if _, err := c.ExecContext(ctx, "BEGIN; UPDATE t SET x = randomblob(2000)"); err != nil {
		tb.Fatal(err)
	}
	hot := filepath.Join(dir, "hot.db")
	for _, side := range []string{"", "-journal"} {
		b, err := os.ReadFile(path + side)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(hot+side, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := c.ExecContext(ctx, "ROLLBACK"); err != nil {
		tb.Fatal(err)
	}
	return hot
}
