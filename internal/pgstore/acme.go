package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
)

// acmeLock is the advisory lock under which an entry is added, so that
// two servers adding entries at once count in turn.
const acmeLock = 0x61636d65 // "acme"

// ACMEGet is the data of the certificate cache's entry key; found is
// false when there is none.
func (db *DB) ACMEGet(ctx context.Context, key string) (data []byte, found bool, err error) {
	err = db.pool.QueryRow(ctx, `SELECT data FROM acme_cache WHERE key = $1`, key).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
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
// deleted; a key or data past its bound is refused (dbcopy.ErrACMETooBig).
func (db *DB) ACMEPut(ctx context.Context, key string, data []byte) error {
	if err := dbcopy.ACMECheck(key, data); err != nil {
		return err
	}
	now := time.Now()
	return db.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, acmeLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM acme_cache WHERE updated < $1 AND `+dbcopy.ACMEChallengeSQL,
			millis(now.Add(-dbcopy.ACMEStale))); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM acme_cache WHERE key <> $1`, key).Scan(&n); err != nil {
			return err
		}
		if err := dbcopy.ACMEFullErr(key, n); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO acme_cache (key, data, updated) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated = excluded.updated`, key, data, millis(now))
		return err
	})
}

// ACMEDelete deletes the certificate cache's entry key, if there is one.
func (db *DB) ACMEDelete(ctx context.Context, key string) error {
	_, err := db.exec(ctx, `DELETE FROM acme_cache WHERE key = $1`, key)
	return err
}
