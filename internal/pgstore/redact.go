package pgstore

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// masked stands for a password taken out of a --db value.
const masked = "xxxxx"

// Redact is a --db value as it may be shown in a log line or an error
// message: every password in it masked. pgx takes a password in three
// places (pgconn.ParseConfig): the URL's user information
// (postgres://USER:PASSWORD@HOST/...), a query parameter (?password=...,
// and ?sslpassword=... for the client key), and, in the keyword/value
// form (host=H password=P), a keyword. pgx reads a password from the
// first : to the first @ when that @ comes ahead of every /
// (pgconn's parse_url.go), but a password pasted as is may hold a /, ?,
// # or @ (base64 holds / and +), and pgx then reads part of it as a
// host, port, database name or query. So the masking is wider than
// pgx's reading: secretRegion, from the URL's first : to its last @
// whenever no @ comes ahead of that :, is masked whole; and every query
// parameter (from the first ? on) whose name holds "password", in any
// case or %-encoding, or cannot be decoded, is masked to its next &.
func Redact(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !IsURL(s) {
		return redactKeywords(s)
	}
	if from, to, ok := secretRegion(rest); ok {
		rest = rest[:from] + masked + rest[to:]
	}
	place, query, hasQuery := strings.Cut(rest, "?")
	if !hasQuery {
		return scheme + "://" + place
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		key, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(key); err != nil || secretKey(name) {
			parts[i] = key + "=" + masked
		}
	}
	return scheme + "://" + place + "?" + strings.Join(parts, "&")
}

// secretRegion is where a password may stand in rest, a URL after its
// "://": rest[from:to], from the first : to the last @. An @ ahead of
// that : ends a user name with no password (postgres://u@h:5432/db), and
// the : is then a port's: nothing is secret, whatever @ the query holds
// (?sslrootcert=/home/me@corp/ca.pem). A : ahead of every @ may begin a
// password holding any of / ? # @, so all up to the last @ is taken; a
// URL with no user name whose query holds an @ (postgres://h:1/db?x=a@b)
// is masked from its port on too, as it cannot be told from a password
// pasted with a / in it.
func secretRegion(rest string) (from, to int, ok bool) {
	c := strings.IndexByte(rest, ':')
	at := strings.LastIndexByte(rest, '@')
	if c < 0 || at < c || strings.IndexByte(rest[:c], '@') >= 0 {
		return 0, 0, false
	}
	return c + 1, at, true
}

// secretKey reports whether a connection parameter's name is a password's.
func secretKey(name string) bool {
	return strings.Contains(strings.ToLower(name), "password")
}

// keywordPassword is a keyword/value setting whose keyword names a
// password, its value quoted ('...', with \' and \\ inside) or plain (up
// to the next space).
var keywordPassword = regexp.MustCompile(`(?i)([a-z_]*password\s*=\s*)('(?:[^'\\]|\\.)*'?|\S*)`)

// redactKeywords masks the passwords of a keyword/value connection string
// (host=H password=P); any other text is returned as it is.
func redactKeywords(s string) string {
	return keywordPassword.ReplaceAllString(s, "${1}"+masked)
}

// minPiece is the shortest piece of a password masked wherever it
// appears in pgx's words: a piece of one or two letters would mask
// those letters in every host, port and word of the message, and tells
// little of the password.
const minPiece = 3

// secretPieces are the pieces of url's passwords pgx may print as
// something else: secretRegion's text split where pgx splits a URL
// (at / ? # @ : and ,), as typed and %-decoded, and the values of the
// query's password parameters. pgx prints postgres://u:/SECB+b==@h/db
// as "failed to connect to `user=root database=SECB+b==@h/db`": it reads
// the host u and the database SECB+b==@h/db.
func secretPieces(u string) []string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok || !IsURL(u) {
		return nil
	}
	var pieces []string
	add := func(p string) {
		if len(p) >= minPiece {
			pieces = append(pieces, p)
		}
		if d, err := url.PathUnescape(p); err == nil && d != p && len(d) >= minPiece {
			pieces = append(pieces, d)
		}
	}
	if from, to, ok := secretRegion(rest); ok {
		for _, p := range strings.FieldsFunc(rest[from:to], func(r rune) bool { return strings.ContainsRune("/?#@:,", r) }) {
			add(p)
		}
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, p := range strings.Split(query, "&") {
			key, value, _ := strings.Cut(p, "=")
			if name, err := url.QueryUnescape(key); err != nil || secretKey(name) {
				add(strings.TrimSpace(value))
			}
		}
	}
	return pieces
}

// redactedError is err from the database at url, with the passwords in
// its words masked: pgx names the user, database and host it read
// ("failed to connect to `user=... database=...`"), which hold a
// password's text when a password pasted with a / in it was misread, so
// every secretPieces piece is masked wherever it stands, as are
// keyword/value passwords (password=...).
type redactedError struct {
	url string
	err error
}

func (e redactedError) Error() string {
	msg := e.err.Error()
	for _, p := range secretPieces(e.url) {
		msg = strings.ReplaceAll(msg, p, masked)
	}
	return redactKeywords(msg)
}

func (e redactedError) Unwrap() error { return e.err }

// urlError is err from the database at url, for an error line: the URL
// and pgx's words with their passwords masked.
func urlError(url string, err error) error {
	return fmt.Errorf("%s: %w", Redact(url), redactedError{url, err})
}
