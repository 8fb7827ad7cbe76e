package store

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestMadeShmInUseKept: a -shm a connection still uses (a server that
// opened the file meanwhile) is not removed; once it is closed, it is.
// (The test only stats the -shm while the connection is open: closing
// any descriptor of this process's on it would drop SQLite's locks.)
func TestMadeShmInUseKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	walWithoutShm(t, path)
	c, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRow("SELECT count(*) FROM settings").Scan(&n); err != nil {
		t.Fatal(err)
	}
	shm, err := os.Stat(path + "-shm")
	if err != nil {
		t.Fatalf("no -shm made by the reader: %v", err)
	}
	dropMadeShm(path)
	if after, err := os.Stat(path + "-shm"); err != nil || !os.SameFile(after, shm) {
		t.Fatalf("the -shm a connection uses was removed or replaced (%v)", err)
	}
	if err := c.QueryRow("SELECT count(*) FROM settings").Scan(&n); err != nil || n != 50 {
		t.Fatalf("the connection reads %d settings (%v) after, want 50", n, err)
	}
	c.Close()
	dropMadeShm(path)
	if _, err := os.Stat(path + "-shm"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the -shm no connection uses is still there (%v)", err)
	}
}
