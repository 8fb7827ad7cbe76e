package dbcopy

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The ACME certificate cache (acme_cache) is bounded alike in both
// stores; its bounds, errors and check are here, beside its row
// (ACMEEntry), where both stores already look.

// The ACME certificate cache's bounds. autocert keeps a few entries: the
// account key, two certificates a domain (ECDSA and RSA) and, while an
// order is in flight, its challenge answers; a certificate with its chain
// and key is a few kilobytes. What a visitor can make a server store is
// bounded by the --acme domains already; these bound the rest (a bug, a
// flood of orders).
const (
	ACMEMaxEntries = 200
	ACMEMaxBytes   = 64 << 10 // one entry's data
	ACMEMaxKey     = 300      // a domain name (253) and autocert's suffix
)

// ACMEStale is the age past which a challenge's entry, left by a server
// that stopped in the middle of an order, is deleted: an order takes
// minutes.
const ACMEStale = 24 * time.Hour

// ACMEChallengeSQL is the SQL condition, in both stores' dialects, that
// an acme_cache row is a challenge's answer (ACMEChallengeKey).
const ACMEChallengeSQL = `(key LIKE '%+http-01' OR key LIKE '%+token')`

var (
	// ErrACMEFull: the certificate cache holds ACMEMaxEntries entries.
	ErrACMEFull = errors.New("the ACME certificate cache is full")
	// ErrACMETooBig: an entry's key or data is past its bound.
	ErrACMETooBig = errors.New("too big for the ACME certificate cache")
)

// ACMEChallengeKey: key is autocert's for a challenge's answer (http-01's
// token, tls-alpn-01's certificate), not the account's or a certificate's.
func ACMEChallengeKey(key string) bool {
	return strings.HasSuffix(key, "+http-01") || strings.HasSuffix(key, "+token")
}

// ACMECheck refuses an entry past the bounds, naming the bound, and a key
// that is no text: PostgreSQL's text cannot hold a NUL or invalid UTF-8,
// and the SQLite store refuses them alike.
func ACMECheck(key string, data []byte) error {
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

// ACMEFullErr is the error for a new key the cache, holding others
// entries besides it, refuses; nil when there is room.
func ACMEFullErr(key string, others int) error {
	if others < ACMEMaxEntries {
		return nil
	}
	return fmt.Errorf("storing %q: %w (%d entries)", key, ErrACMEFull, ACMEMaxEntries)
}
