package pgstore

import (
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
// form (host=H password=P), a keyword. The URL is read as pgx reads it
// (pgconn's parse_url.go), not with net/url, whose reading of an unusual
// URL can differ: the user information is all before the last @ ahead of
// the first /, and the query everything after the first ? past it.
// A query parameter or keyword whose name holds "password", in any case
// or %-encoding, is masked, and one whose name cannot be decoded too.
func Redact(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !IsURL(s) {
		return redactKeywords(s)
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	head := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		head = rest[:i]
	}
	if at := strings.LastIndexByte(head, '@'); at >= 0 {
		user, _, hasPassword := strings.Cut(head[:at], ":")
		b.WriteString(user)
		if hasPassword {
			b.WriteString(":" + masked)
		}
		b.WriteString("@")
		rest = rest[at+1:]
	}
	place, query, hasQuery := strings.Cut(rest, "?")
	b.WriteString(place)
	if hasQuery {
		parts := strings.Split(query, "&")
		for i, p := range parts {
			key, _, _ := strings.Cut(p, "=")
			if name, err := url.QueryUnescape(key); err != nil || secretKey(name) {
				parts[i] = key + "=" + masked
			}
		}
		b.WriteString("?" + strings.Join(parts, "&"))
	}
	return b.String()
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
