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
// names the database) nor the error of a database that cannot be reached,
// nor db copy's output, nor the error quoting a URL typed where no
// argument belongs. The query's password and sslpassword were shown
// before (only the user information's was masked), and a URL quoted back
// was shown whole.
func TestServeDBPasswordsNotShown(t *testing.T) {
	url := withSecrets(pgtest.DB(t))
	_, logged := serveInProcess(t, "--db", url)
	if !strings.Contains(logged.String(), `db="postgres://postgres:xxxxx@127.0.0.1:`) {
		t.Fatalf("the server does not say which database it serves: %s", logged)
	}
	noSecret(t, "serve's log", logged.String())

	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	target := withSecrets(pgtest.DB(t))
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

	unreachable := withSecrets("postgres://postgres@127.0.0.1:1/none?connect_timeout=2")
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--db", unreachable},
		{"db", "copy", "--from", unreachable, "--to", filepath.Join(t.TempDir(), "x.db")},
		{"db", "copy", "--from", from, "--to", unreachable},
		{"db", "copy", "--from", from, "--to", unreachable + "&connect_timeout=x"}, // pgx cannot parse it
		// Typed where no argument belongs, and quoted back.
		{"db", "copy", unreachable},
		{"serve", unreachable},
		{unreachable, "--addr", "127.0.0.1:0"},
	} {
		out, errOut, code := run(t, "", args...)
		if code == exitOK || !strings.Contains(errOut, "postgres:xxxxx@127.0.0.1:1/none") {
			t.Fatalf("%v: exit %d: %s%s", args[0], code, out, errOut)
		}
		noSecret(t, args[0]+"'s error", out+errOut)
	}
	// The quote around it stays.
	_, errOut, _ = run(t, "", "db", "copy", unreachable)
	if want := "cardtable: db copy: unexpected argument \"postgres://postgres:xxxxx@127.0.0.1:1/none?connect_timeout=2&password=xxxxx&sslpassword=xxxxx\"\n"; errOut != want {
		t.Fatalf("db copy with a URL for argument: %q, want %q", errOut, want)
	}
}
