package cli

import (
	"os"
	"path/filepath"
	"testing"

	"cardtable/internal/pgtest"
)

// TestServeACMEOnPostgres: on PostgreSQL, whose URL names no directory,
// --acme keeps its certificates in the database and makes no directory,
// neither in the data directory nor in the working directory (a --db URL
// cut at its last slash is no place for them).
func TestServeACMEOnPostgres(t *testing.T) {
	db := pgtest.DB(t)
	data, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Chdir(work)
	startServe(t, "--addr", "127.0.0.1:0", "--http-redirect-addr", "off", "--db", db, "--acme", "cards.example.org")
	for _, dir := range []string{work, filepath.Join(data, "cardtable")} {
		left, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if len(left) > 0 {
			t.Errorf("made in %s: %v", dir, left)
		}
	}
}
