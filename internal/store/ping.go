package store

import (
	"context"
	"fmt"
)

// Ping proves the database can take a write now, for the server's
// readiness check: the file is still at its path (a stat of the path and
// an fstat of the held descriptor), and SQLite's write lock can be taken
// (an immediate transaction, rolled back: it leaves nothing). Its error
// says which failed.
//
// It never opens the database, -wal or -shm file itself: on Linux, closing
// any descriptor on a file drops every POSIX lock the process holds on it,
// SQLite's included, and a -shm whose locks vanished is reset by the next
// process that believes itself alone — the way a WAL database is damaged.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.file.check(); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil) // _txlock=immediate: takes the write lock
	if err != nil {
		return fmt.Errorf("store: taking the write lock: %w", err)
	}
	return tx.Rollback()
}
