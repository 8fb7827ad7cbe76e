package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"cardtable/internal/pgtest"
)

// dbSecrets are the passwords withSecrets puts into a --db URL.
var dbSecrets = []string{"pw1secret", "secret2pw", "s3sslkey"}

// withSecrets is the PostgreSQL URL url with a password in each place pgx
// takes one from: the user information and the password and sslpassword
// query parameters. The test server trusts every connection from this
// machine, so they change nothing there.
func withSecrets(url string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return strings.Replace(url, "postgres@", "postgres:"+dbSecrets[0]+"@", 1) +
		sep + "password=" + dbSecrets[1] + "&sslpassword=" + dbSecrets[2]
}

// noSecret fails the test if text shows any of dbSecrets.
func noSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range dbSecrets {
		if strings.Contains(text, s) {
			t.Errorf("%s shows the password %q: %s", what, s, text)
		}
	}
}

// TestServeDBPasswordsNotShown: a --db URL's passwords, wherever pgx takes
// them from, reach neither serve's log (its "cardtable serving" line
// names the database) nor db copy's output or refusal
// (TestUnreachableDBPasswordsNotShown has the errors of a database that
// cannot be reached). The query's password and sslpassword were shown
// before (only the user information's was masked).
func TestServeDBPasswordsNotShown(t *testing.T) {
	url := withSecrets(pgtest.DB(t))
	_, logged := serveInProcess(t, "--db", url)
	if !strings.Contains(logged.String(), `db="postgres://postgres:xxxxx@127.0.0.1:`) {
		t.Fatalf("the server does not say which database it serves: %s", logged)
	}
	noSecret(t, "serve's log", logged.String())

	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	// The database serve made its tables in, with no rows yet: one
	// database less to make.
	target := url
	out, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", target)
	if code != exitOK || !strings.Contains(out, "postgres:xxxxx@") {
		t.Fatalf("db copy to PostgreSQL: exit %d: %s%s", code, out, errOut)
	}
	noSecret(t, "db copy's output", out+errOut)
	// Refused (the target now has rows): the error names it too.
	out, errOut, code = run(t, "", "db", "copy", "--from", from, "--to", target)
	if code == exitOK || !strings.Contains(errOut, "postgres:xxxxx@") {
		t.Fatalf("db copy onto rows: exit %d: %s%s", code, out, errOut)
	}
	noSecret(t, "db copy's refusal", out+errOut)

}

// TestUnreachableDBPasswordsNotShown: the error of a database that cannot
// be reached (serve, db copy on either side, a URL pgx cannot parse) and
// the error quoting a URL typed where no argument belongs show none of
// the URL's passwords, wherever pgx takes them from. No server is
// needed: port 1 refuses at once.
func TestUnreachableDBPasswordsNotShown(t *testing.T) {
	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	unreachable := withSecrets("postgres://postgres@127.0.0.1:1/none?connect_timeout=2")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"serve --db", []string{"serve", "--addr", "127.0.0.1:0", "--db", unreachable}},
		{"db copy --from", []string{"db", "copy", "--from", unreachable, "--to", filepath.Join(t.TempDir(), "x.db")}},
		{"db copy --to", []string{"db", "copy", "--from", from, "--to", unreachable}},
		{"db copy --to pgx cannot parse", []string{"db", "copy", "--from", from, "--to", unreachable + "&connect_timeout=x"}},
		// Typed where no argument belongs, and quoted back.
		{"db copy URL", []string{"db", "copy", unreachable}},
		{"serve URL", []string{"serve", unreachable}},
		{"URL --addr", []string{unreachable, "--addr", "127.0.0.1:0"}},
	} {
		out, errOut, code := run(t, "", c.args...)
		if code == exitOK || !strings.Contains(errOut, "postgres:xxxxx@127.0.0.1:1/none") {
			t.Fatalf("%s: exit %d: %s%s", c.name, code, out, errOut)
		}
		noSecret(t, c.name+"'s error", out+errOut)
	}
	// The quote around it stays.
	_, errOut, _ := run(t, "", "db", "copy", unreachable)
	if want := "cardtable: db copy: unexpected argument \"postgres://postgres:xxxxx@127.0.0.1:1/none?connect_timeout=2&password=xxxxx&sslpassword=xxxxx\"\n"; errOut != want {
		t.Fatalf("db copy with a URL for argument: %q, want %q", errOut, want)
	}
}

// TestErrorLineURLPasswords: the passwords of a --db URL or of one typed
// where no argument belongs never reach the error line, whatever pgx
// makes of the URL, and the line is whole: a base64 password with a / in
// it (pgx then reads a port it cannot parse), a query's password= read
// by pgx as part of the user name, a password after spaces (pgx skips
// them), and the : after a URL pgstore masked. No server is needed: port
// 1 refuses at once.
func TestErrorLineURLPasswords(t *testing.T) {
	secrets := []string{"S1", "S2", "S3", "S4", "S5", "S6"}
	const refused = "nothing listens at 127.0.0.1:1 (connection refused): is PostgreSQL running there?"
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string // the first line of standard error
	}{
		{"a / in the password", []string{"serve", "--addr", "127.0.0.1:0", "--db", "postgres://u:pa/S5@127.0.0.1:1/x"},
			"cardtable: serve: postgres://u:xxxxx@127.0.0.1:1/x: cannot parse `postgres://u:xxxxx@127.0.0.1:1/x`: invalid port"},
		{"a / in the password, db copy --from", []string{"db", "copy", "--from", "postgres://u:pa/S5@127.0.0.1:1/x", "--to", filepath.Join(dir, "to.db")},
			"cardtable: db copy: the source: postgres://u:xxxxx@127.0.0.1:1/x: cannot parse `postgres://u:xxxxx@127.0.0.1:1/x`: invalid port"},
		{"a / in the password, typed as an argument", []string{"serve", "postgres://u:pa/S5@127.0.0.1:1/x"},
			`cardtable: serve: unexpected argument "postgres://u:xxxxx@127.0.0.1:1/x"`},
		{"password= read as the user", []string{"serve", "--addr", "127.0.0.1:0", "--db", "postgres://h?connect_timeout=1&password=S6@127.0.0.1:1"},
			"cardtable: serve: postgres://h?connect_timeout=1&password=xxxxx: failed to connect to `user=h?connect_timeout=1&password=xxxxx database=`: " + refused},
		{"password= read as the user, typed as an argument", []string{"serve", "postgres://h?password=S6@ss"},
			`cardtable: serve: unexpected argument "postgres://h?password=xxxxx"`},
		{"spaces ahead of a query's password", []string{"serve", "postgres://u:S1@127.0.0.1:1/x?password= S2"},
			`cardtable: serve: unexpected argument "postgres://u:xxxxx@127.0.0.1:1/x?password=xxxxx"`},
		{"spaces ahead of the user information's password", []string{"serve", "postgres://u: S3@127.0.0.1:1/x"},
			`cardtable: serve: unexpected argument "postgres://u:xxxxx@127.0.0.1:1/x"`},
		{"the : after a masked URL", []string{"serve", "--addr", "127.0.0.1:0", "--db", "postgres://u:S1@127.0.0.1:1/x?connect_timeout=1&password=S2&sslpassword=S4"},
			"cardtable: serve: postgres://u:xxxxx@127.0.0.1:1/x?connect_timeout=1&password=xxxxx&sslpassword=xxxxx: failed to connect to `user=u database=x`: " + refused},
	} {
		out, errOut, code := run(t, "", c.args...)
		if code == exitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, out)
		}
		if first, _, _ := strings.Cut(errOut, "\n"); first != c.want {
			t.Errorf("%s: the error line\n%s\nwant\n%s", c.name, first, c.want)
		}
		for _, s := range secrets {
			if strings.Contains(out+errOut, s) {
				t.Errorf("%s: the output shows the password %q", c.name, s)
			}
		}
	}
}

// TestSlashPasswordNotShown: a password pasted with a / ahead of it
// (base64 starts with one a time in 64), or digits then a /, makes pgx
// read the user name as the host and the rest as the database name,
// which it prints ("database=SECB+b==@127.0.0.1:1/db"): no piece of the
// password reaches serve's error, db copy's error about its --to, or
// serve bench's line of a server that exited as it started. The URL's
// host is u, which no name server resolves, so no server is needed.
func TestSlashPasswordNotShown(t *testing.T) {
	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	t.Setenv(asMain, "1") // serve bench's servers are this binary, acting as cardtable
	for _, c := range []struct {
		name, secret, url string
	}{
		{"a / first", "SECB+b==", "postgres://u:/SECB+b==@127.0.0.1:1/db"},
		{"digits then a /", "SECD+x", "postgres://u:12/SECD+x@127.0.0.1:1/db"},
	} {
		for _, args := range [][]string{
			{"serve", "--addr", "127.0.0.1:0", "--db", c.url},
			{"db", "copy", "--from", from, "--to", c.url},
			{"serve", "bench", "--servers", "2", "--tables", "1", "--db", c.url},
		} {
			out, errOut, code := run(t, "", args...)
			if code == exitOK || !strings.Contains(errOut, "database=xxxxx@127.0.0.1:1/db") {
				t.Errorf("%s, %s: exit %d, want pgx's words about the database it read, masked: %s%s", c.name, args[:2], code, out, errOut)
			}
			if strings.Contains(out+errOut, c.secret) {
				t.Errorf("%s, %s: the output shows the password %q: %s%s", c.name, args[:2], c.secret, out, errOut)
			}
		}
	}
}
