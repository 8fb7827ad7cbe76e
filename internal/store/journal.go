package store

import (
	"context"
	"database/sql"
	"fmt"
)

// walAfterVersion reads the schema version of the file the writer w has
// open and then, unless a newer cardtable made it, makes it a WAL
// database. Setting WAL rewrites a rollback-journal file's header (and
// makes the -wal and -shm beside it), so it comes after the version is
// read: a file this program must not change (a newer cardtable's, or
// another program's with a version past this one's) is refused byte for
// byte as it was. SQLite's refusal to read the file at all (not SQLite,
// damaged) is returned for open to explain (damaged), as before.
func walAfterVersion(ctx context.Context, w *sql.DB, path string) error {
	var have int
	if err := w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	if have > Version() {
		// migrate's words, which it keeps for a file made newer meanwhile.
		return fmt.Errorf("store: %s: database schema version %d is newer than this program's %d: it was %w", path, have, Version(), ErrNewer)
	}
	// The mode SQLite answers is not checked, as it was not when WAL
	// was each connection's pragma.
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode(WAL)").Scan(&mode); err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	return nil
}
