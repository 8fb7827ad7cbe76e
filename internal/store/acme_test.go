package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cardtable/internal/dbcopy"
)

// openAt opens the database at path for the test.
func openAt(tb testing.TB, path string) *DB {
	tb.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// mode is path's permission bits.
func mode(tb testing.TB, path string) os.FileMode {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestACMEPrivate: the certificate cache holds private keys, so a
// database readable by others (made by an earlier version) is made
// readable by its owner alone, -wal and -shm too, before the first entry
// is written, or imported by a copy; a new database is its owner's from
// the start, and so is a backup.
func TestACMEPrivate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.db")
	db := openAt(t, fresh)
	if m := mode(t, fresh); m != 0o600 {
		t.Errorf("a new database: %v", m)
	}
	db.Close()

	old := filepath.Join(dir, "old.db")
	if err := os.WriteFile(old, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	db = openAt(t, old)
	if _, err := db.CountGames(ctx); err != nil { // the -wal and -shm exist
		t.Fatal(err)
	}
	for _, side := range []string{"-wal", "-shm"} {
		if err := os.Chmod(old+side, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if m := mode(t, old); m != 0o644 {
		t.Fatalf("opening changed the mode: %v", m)
	}
	if err := db.ACMEPut(ctx, "acme_account+key", []byte("-----BEGIN EC PRIVATE KEY-----")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{old, old + "-wal", old + "-shm"} {
		if m := mode(t, p); m != 0o600 {
			t.Errorf("%s after a key was stored: %v, want -rw-------", filepath.Base(p), m)
		}
	}
	// A copy's target made by an earlier version (db copy): the same.
	target := filepath.Join(dir, "target.db")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := openAt(t, target).Import(ctx, "acme_cache", []any{dbcopy.ACMEEntry{Key: "k", Data: []byte("key"), Updated: 1}}); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, target); m != 0o600 {
		t.Errorf("a copy's target after the cache was imported: %v, want -rw-------", m)
	}

	to := filepath.Join(dir, "backup.db")
	if err := Backup(ctx, old, to); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, to); m != 0o600 {
		t.Errorf("the backup: %v, want -rw-------", m)
	}
}
