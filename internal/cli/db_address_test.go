package cli

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"
)

// runFor is run with a deadline: a command that took the value for a
// SQLite file would serve it until stopped.
func runFor(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, args, nil, &out, &errb)
	return out.String(), errb.String(), code
}

// TestDBAddressNotURLRefused: a database flag that looks like a
// PostgreSQL address but is not a postgres:// URL (its scheme in
// capitals, or pgx's keyword form) is refused as bad usage in one
// sentence that shows no password, and no file is made of it. It was
// taken for a SQLite file name: POSTGRES://u:SEC2@... was named, password
// and all, in "the directory ... does not exist", and host=... password=...
// was logged and made a file of. A value from CARDTABLE_DB is refused
// naming the variable (it was named --db, which the command line lacked).
func TestDBAddressNotURLRefused(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // a relative file name would be made here
	want := func(cmd, flag string) string {
		return "cardtable: " + cmd + ": " + flag + " looks like a PostgreSQL address but is not a postgres:// URL: " +
			"give postgres://USER@HOST/DB, the scheme in lower case, a password after USER: (the host=H password=P form is not taken)\n" +
			"Run 'cardtable " + cmd + " --help' for usage.\n"
	}
	for _, db := range []string{
		"POSTGRES://u:SEC2@127.0.0.1:1/db",
		"PostgreSQL://u:SEC2@127.0.0.1:1/db",
		"host=127.0.0.1 port=1 password=SEC3",
		"dbname=x sslpassword='SEC4'",
	} {
		for _, c := range []struct {
			cmd, flag string
			args      []string
		}{
			{"serve", "--db", []string{"serve", "--addr", "127.0.0.1:0", "--db", db}},
			{"db copy", "--to", []string{"db", "copy", "--from", "x.db", "--to", db}},
			{"db copy", "--from", []string{"db", "copy", "--from", db, "--to", "y.db"}},
			{"backup", "--db", []string{"backup", "--db", db, "--to", "b.db"}},
			{"restore", "--db", []string{"restore", "--db", db, "--from", "b.db"}},
			{"serve bench", "--db", []string{"serve", "bench", "--db", db}},
		} {
			out, errOut, code := runFor(t, c.args...)
			if code != exitUsage || out != "" || errOut != want(c.cmd, c.flag) {
				t.Errorf("%q %s: exit %d, %s%s\nwant exit 2 and\n%s", db, c.args[:2], code, out, errOut, want(c.cmd, c.flag))
			}
		}
		// CARDTABLE_DB is serve's --db too, and backup's and restore's
		// without --db; the refusal names the variable, where the
		// value is to be mended.
		t.Setenv("CARDTABLE_DB", db)
		for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"backup", "--to", "b.db"}, {"restore", "--from", "b.db"}} {
			if out, errOut, code := runFor(t, args...); code != exitUsage || errOut != want(args[0], "CARDTABLE_DB (--db)") {
				t.Errorf("CARDTABLE_DB=%q %s: exit %d, %s%s", db, args[0], code, out, errOut)
			}
		}
		os.Unsetenv("CARDTABLE_DB")
	}
	if names, err := os.ReadDir(dir); err != nil || len(names) != 0 {
		t.Errorf("files made: %v (%v)", names, err)
	}
}
