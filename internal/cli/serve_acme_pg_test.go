package cli

import (
	"os"
	"path/filepath"
	"testing"

	"cardtable/internal/pgtest"
)

// TestServeACMEOnPostgres: on PostgreSQL, whose URL names no directory,
// the ACME certificates are kept in acme/ in the data directory where the
// default SQLite file would be, and nothing is made in the working
// directory (a --db URL cut at its last slash is no place for them).
func TestServeACMEOnPostgres(t *testing.T) {
	db := pgtest.DB(t)
	data, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Chdir(work)
	startServe(t, "--addr", "127.0.0.1:0", "--http-redirect-addr", "off", "--db", db, "--acme", "cards.example.org")
	if fi, err := os.Stat(filepath.Join(data, "cardtable", "acme")); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("acme/ in the data directory: %v", err)
	}
	left, err := os.ReadDir(work)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("made in the working directory: %v", left)
	}
}
