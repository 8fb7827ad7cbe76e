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
// form (host=H password=P), a keyword. pgx ends the user information at
// the first @ ahead of the first / (pgconn's parse_url.go), but a
// password pasted as is may hold a / or an @ (base64 does), and pgx then
// reads it as a host and port it cannot parse, or as a user name. So the
// masking is wider than pgx's reading: whenever an @ follows the scheme,
// all from the first : up to the last @ is masked; and every query
// parameter (from the first ? on) whose name holds "password", in any
// case or %-encoding, or cannot be decoded, is masked to its next &.
func Redact(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !IsURL(s) {
		return redactKeywords(s)
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
			rest = rest[:c+1] + masked + rest[at:]
		}
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

// quotedURL is a URL pgx quotes in its own error ("cannot parse `...`").
var quotedURL = regexp.MustCompile("`postgres(?:ql)?://[^`]*`")

// redactedError is err with the passwords in its words masked: pgx masks
// a URL it cannot parse only where it can tell the password apart, and
// names the user it read ("failed to connect to `user=...`"), which is a
// password's text when the URL's user information was misread.
type redactedError struct{ err error }

func (e redactedError) Error() string {
	msg := quotedURL.ReplaceAllStringFunc(e.err.Error(), func(q string) string {
		return "`" + Redact(q[1:len(q)-1]) + "`"
	})
	return redactKeywords(msg)
}

func (e redactedError) Unwrap() error { return e.err }

// urlError is err from the database at url, for an error line: the URL
// and pgx's words with their passwords masked.
func urlError(url string, err error) error {
	return fmt.Errorf("%s: %w", Redact(url), redactedError{err})
}
