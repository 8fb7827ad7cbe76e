package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"cardtable/internal/dbcopy"
)

// walWithoutShm makes at path a cardtable database whose last writes,
// settings rows, lie in its -wal, with no -shm beside it, as a server
// killed and its -shm removed leave it; it returns how many rows
// settings holds.
func walWithoutShm(t *testing.T, path string) int {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work.db")
	db, err := Open(context.Background(), work)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	w, err := sql.Open("sqlite", "file:"+work+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
		INSERT INTO settings (player, json) SELECT printf('p%d', i), '{}' FROM n`); err != nil {
		t.Fatal(err)
	}
	// Copied while the connection is open and idle: the file and its
	// -wal as a killed process leaves them.
	for _, side := range []string{"", "-wal"} {
		b, err := os.ReadFile(work + side)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+side, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return 50
}

// TestReadOnlyLookLeavesNoShm: the read-only looks at a database with a
// -wal and no -shm (db copy's checks of either side, Backup's reading)
// read its -wal's writes and leave the directory as they found it:
// SQLite must make a -shm to read a -wal, and it was left behind (32
// KiB), as no read-only connection removes it; it is removed once no
// connection uses it.
func TestReadOnlyLookLeavesNoShm(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "killed.db")
	want := walWithoutShm(t, path)
	before := files(t, dir)
	if err := CheckCopySource(ctx, path); err != nil {
		t.Errorf("source: %v", err)
	}
	sameFiles(t, dir, before)
	if err := CheckCopyTarget(ctx, path); !errors.Is(err, dbcopy.ErrNotEmpty) {
		t.Errorf("target: %v, want ErrNotEmpty (the -wal's rows read)", err)
	}
	sameFiles(t, dir, before)
	to := filepath.Join(t.TempDir(), "backup.db")
	if err := Backup(ctx, path, to); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, dir, before)
	c, err := sql.Open("sqlite", "file:"+to+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow("SELECT count(*) FROM settings").Scan(&n); err != nil || n != want {
		t.Errorf("the backup holds %d settings (%v), want the -wal's %d", n, err, want)
	}
}

