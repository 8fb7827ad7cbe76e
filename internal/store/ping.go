package store

import (
	"context"
	"fmt"
)

// Ping proves the database can take a write now, for the server's
// readiness check: the file is still at its path, its directory and
// journal files are writable (a file is created and removed beside it),
// and the write lock can be taken (an immediate transaction, rolled back:
// it leaves nothing). Its error says which failed.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.file.check(); err != nil {
		return err
	}
	if err := db.file.writable(); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil) // _txlock=immediate: takes the write lock
	if err != nil {
		return fmt.Errorf("store: taking the write lock: %w", err)
	}
	return tx.Rollback()
}
