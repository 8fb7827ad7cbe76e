package pgstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/pgstore"
)

// secrets are the passwords the --db values of these tests carry: none may
// be shown.
var secrets = []string{"pw1", "secret2", "s3", "kw4", "q5 x", "p@ss6", "hash7", "cd+ef8", "pq9", "SECB+b=="}

// TestRedact: every place pgx takes a password from (the URL's user
// information, the password and sslpassword query parameters, the
// keyword/value form's password keyword) is masked, in any case or
// %-encoding of the parameter's name, and the rest is shown as typed.
// net/url's Redacted, used before, masked the user information only.
func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw1@h/db?password=secret2&sslpassword=s3":     "postgres://u:xxxxx@h/db?password=xxxxx&sslpassword=xxxxx",
		"postgresql://u@h:5432/db?sslmode=disable&PassWord=secret2": "postgresql://u@h:5432/db?sslmode=disable&PassWord=xxxxx",
		"postgres://h/db?pass%77ord=secret2&application_name=x":     "postgres://h/db?pass%77ord=xxxxx&application_name=x",
		"postgres://u@h/db?%zz=secret2":                             "postgres://u@h/db?%zz=xxxxx",
		"postgres://u:p@ss6@h/db":                                   "postgres://u:xxxxx@h/db",
		"postgres://u:12?hash7@h/db":                                "postgres://u:xxxxx@h/db",
		"postgres://u:pw1#hash7@h,h2:5433/db?password=secret2":      "postgres://u:xxxxx@h,h2:5433/db?password=xxxxx",
		"postgres://u@h/db":                                         "postgres://u@h/db",
		// A base64 password pasted as is: pgx reads no user information
		// (its / comes first) and fails on the port "ab".
		"postgres://u:ab/cd+ef8==@db.example/cardtable": "postgres://u:xxxxx@db.example/cardtable",
		// pgx reads the user "h?password=pq9" at the host "ss".
		"postgres://h?password=pq9@ss":                        "postgres://h?password=xxxxx",
		"postgres://u@h/db?password=pq9@ss6":                  "postgres://u@h/db?password=xxxxx",
		"host=h user=u password=kw4 dbname=db":                "host=h user=u password=xxxxx dbname=db",
		"host=h sslpassword = 'q5 x' password='it\\'s hash7'": "host=h sslpassword = xxxxx password=xxxxx",
		"/var/lib/cardtable/cardtable.db":                     "/var/lib/cardtable/cardtable.db",
		// A password starting with a / (pgx reads the host u).
		"postgres://u:/SECB+b==@h/db": "postgres://u:xxxxx@h/db",
		// No password: an @ in the query leaves the port, database and
		// query as typed, whether a user name is there or not.
		"postgres://u@127.0.0.1:1/db?sslrootcert=/home/me@corp/ca.pem": "postgres://u@127.0.0.1:1/db?sslrootcert=/home/me@corp/ca.pem",
		"postgres://u@h/db?application_name=a:b@c":                     "postgres://u@h/db?application_name=a:b@c",
		// A password and an @ in the query: masked to that @, as a
		// password may hold a ? (pgx reads "pw1" here).
		"postgres://u:pw1@h/db?sslrootcert=/home/me@corp/ca.pem": "postgres://u:xxxxx@corp/ca.pem",
	} {
		got := pgstore.Redact(in)
		if got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
		// Masked again (an error line quoting a masked URL), it stays.
		if again := pgstore.Redact(got); again != got {
			t.Errorf("Redact(%q) = %q, masked again %q", in, got, again)
		}
		for _, s := range secrets {
			if strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q shows %q", in, got, s)
			}
		}
	}
	// The forms are pgx's: each of the values above with a password
	// gives pgx that password.
	for in, want := range map[string]string{
		"postgres://u:pw1@h/db?password=secret2":             "secret2",
		"postgres://u:pw1@h/db":                              "pw1",
		"postgres://u:p@ss6@h/db":                            "p",
		"postgres://u:12?hash7@h/db":                         "12?hash7",
		"postgres://h/db?sslmode=disable&pass%77ord=secret2": "secret2",
		"host=h password=kw4":                                "kw4",
	} {
		cfg, err := pgconn.ParseConfig(in)
		if err != nil || cfg.Password != want {
			t.Errorf("pgx reads %q as password %q (%v), want %q", in, cfg.Password, err, want)
		}
	}
	// Nor does Open's error show them, whether pgx reaches for the
	// server, cannot parse the URL, or reads a password as its user.
	for _, url := range []string{
		"postgres://u:pw1@127.0.0.1:1/db?connect_timeout=1&password=secret2&sslpassword=s3",
		"postgres://u:ab/cd+ef8==@127.0.0.1:1/cardtable",
		"postgres://h?connect_timeout=1&password=pq9@127.0.0.1:1",
		"postgres://u:/SECB+b==@127.0.0.1:1/db",
	} {
		if _, err := pgstore.Open(context.Background(), url); err == nil {
			t.Fatal("an unreachable server opened")
		} else {
			for _, s := range secrets {
				if strings.Contains(err.Error(), s) {
					t.Errorf("an unreachable server: %v shows %q", err, s)
				}
			}
		}
	}
}
