package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"cardtable/internal/dbcopy"
)

// ACMEGet is the data of the certificate cache's entry key; found is
// false when there is none.
func (db *DB) ACMEGet(ctx context.Context, key string) (data []byte, found bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT data FROM acme_cache WHERE key = ?`, key).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %q from the ACME certificate cache: %w", key, err)
	}
	return data, true, nil
}

// ACMEPut stores data as the certificate cache's entry key, replacing
// any. A new key is refused once the cache holds dbcopy.ACMEMaxEntries entries
// (dbcopy.ErrACMEFull), after the challenges' entries older than a day are
// deleted; a key or data past its bound is refused (dbcopy.ErrACMETooBig). The
// entries hold private keys: the database's files are first made readable
// by their owner alone.
func (db *DB) ACMEPut(ctx context.Context, key string, data []byte) error {
	if err := dbcopy.ACMECheck(key, data); err != nil {
		return err
	}
	if err := db.file.makePrivate(); err != nil {
		return fmt.Errorf("storing %q: %s is readable by others and could not be made private, so no private key is written in it: %w", key, db.file.path, err)
	}
	now := time.Now()
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM acme_cache WHERE updated < ? AND `+dbcopy.ACMEChallengeSQL,
			millis(now.Add(-dbcopy.ACMEStale))); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM acme_cache WHERE key <> ?`, key).Scan(&n); err != nil {
			return err
		}
		if err := dbcopy.ACMEFullErr(key, n); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO acme_cache (key, data, updated) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated = excluded.updated`, key, data, millis(now))
		return err
	})
}

// ACMEDelete deletes the certificate cache's entry key, if there is one.
func (db *DB) ACMEDelete(ctx context.Context, key string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM acme_cache WHERE key = ?`, key)
		return err
	})
}
