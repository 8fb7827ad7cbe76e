package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// The ACME certificate cache's bounds, as the SQLite store's. autocert
// keeps a few entries: the account key, two certificates a domain (ECDSA
// and RSA) and, while an order is in flight, its challenge answers; a
// certificate with its chain and key is a few kilobytes. What a visitor
// can make a server store is bounded by the --acme domains already; these
// bound the rest (a bug, a flood of orders).
const (
	ACMEMaxEntries = 200
	ACMEMaxBytes   = 64 << 10 // one entry's data
	ACMEMaxKey     = 300      // a domain name (253) and autocert's suffix
)

// acmeStale is the age past which a challenge's entry, left by a server
// that stopped in the middle of an order, is deleted: an order takes
// minutes.
const acmeStale = 24 * time.Hour

// acmeLock is the advisory lock under which an entry is added, so that
// two servers adding entries at once count in turn.
const acmeLock = 0x61636d65 // "acme"

var (
	// ErrACMEFull: the certificate cache holds ACMEMaxEntries entries.
	ErrACMEFull = errors.New("the ACME certificate cache is full")
	// ErrACMETooBig: an entry's key or data is past its bound.
	ErrACMETooBig = errors.New("too big for the ACME certificate cache")
)

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
// any. A new key is refused once the cache holds ACMEMaxEntries entries
// (ErrACMEFull), after the challenges' entries older than a day are
// deleted; a key or data past its bound is refused (ErrACMETooBig).
func (db *DB) ACMEPut(ctx context.Context, key string, data []byte) error {
	if err := acmeCheck(key, data); err != nil {
		return err
	}
	now := time.Now()
	return db.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, acmeLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM acme_cache WHERE updated < $1 AND (key LIKE '%+http-01' OR key LIKE '%+token')`,
			millis(now.Add(-acmeStale))); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM acme_cache WHERE key <> $1`, key).Scan(&n); err != nil {
			return err
		}
		if n >= ACMEMaxEntries {
			return fmt.Errorf("storing %q: %w (%d entries)", key, ErrACMEFull, ACMEMaxEntries)
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

// acmeCheck refuses an entry past the bounds, naming the bound, and a
// key that is no text (as the PostgreSQL store must). A key
// PostgreSQL's text cannot hold (a NUL, invalid UTF-8) is refused here
// rather than by the server, as the SQLite store refuses it.
func acmeCheck(key string, data []byte) error {
	switch {
	case key == "" || strings.ContainsRune(key, 0) || !utf8.ValidString(key):
		return fmt.Errorf("ACME certificate cache: key %q: want a name", key)
	case len(key) > ACMEMaxKey:
		return fmt.Errorf("key %.40q... of %d bytes, more than %d: %w", key, len(key), ACMEMaxKey, ErrACMETooBig)
	case len(data) > ACMEMaxBytes:
		return fmt.Errorf("%q: %d bytes, more than %d: %w", key, len(data), ACMEMaxBytes, ErrACMETooBig)
	}
	return nil
}
