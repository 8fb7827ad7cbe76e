package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/internal/sqlitetest"
)

// TestOpenNewWithoutCheckpoint: a new database gets its schema in one
// commit to the WAL, with no checkpoint while it opens. The migrations'
// commits each drew a checkpoint (three fsyncs) when the backstop did not
// yet know the page size: the database file then held the whole schema
// by the time Open returned, where now it holds the one page SQLite
// writes when it turns the file to WAL mode.
func TestOpenNewWithoutCheckpoint(t *testing.T) {
	db, path := openTemp(t)
	db.ckpt.stop() // its first pass is a second away; this keeps it so
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if db.pageSize == 0 || fi.Size() > int64(db.pageSize) {
		t.Fatalf("database file is %d bytes after Open (page size %d): checkpointed while opening", fi.Size(), db.pageSize)
	}
	var tables int
	if err := db.r.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil || tables == 0 {
		t.Fatalf("schema: %d tables, %v", tables, err)
	}
}

// TestFailedMigrationChangesNothing: the pending migrations are applied
// in one transaction, so one that fails leaves the database at the
// version it had, with none of the others' changes, and says which.
func TestFailedMigrationChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	init, err := migrations.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	// 003 creates live_tables: a table of that name already there makes
	// it fail, after 002 went through.
	for _, q := range []string{string(init), "PRAGMA user_version = 1", "CREATE TABLE live_tables (x)"} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	if db, err := Open(context.Background(), path); err == nil {
		db.Close()
		t.Fatal("opened a database whose migration fails")
	} else if !strings.Contains(err.Error(), "003_tables.sql") {
		t.Fatalf("error does not name the failed migration: %v", err)
	}
	after, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	var version, logs int
	if err := after.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 1 {
		t.Fatalf("user_version %d (%v), want 1: a failed migration changed the version", version, err)
	}
	// 002 creates game_log.
	if err := after.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'game_log'`).Scan(&logs); err != nil || logs != 0 {
		t.Fatalf("game_log tables: %d (%v), want 0: an earlier migration stayed applied", logs, err)
	}
}

// TestOpenRefusesForeignSchema: an SQLite file of another program's is
// refused by Open with ErrNotCardtable before anything writes to it, the
// file byte for byte as it was and nothing made beside it, whether its
// schema version (PRAGMA user_version, any program's to set) is 0 or one
// a cardtable database has: cardtable's schema is told by the tables and
// columns it has at that version. By the version alone, the file at 3 was taken for
// an old cardtable database and its migration tried; the one at 0 was
// given cardtable's schema. An SQLite file with nothing in it is a new
// database, as before.
func TestOpenRefusesForeignSchema(t *testing.T) {
	dir := t.TempDir()
	for _, version := range []int{3, Version(), 0} {
		path := filepath.Join(dir, fmt.Sprintf("theirs%d.db", version))
		other, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = other.Exec(fmt.Sprintf("CREATE TABLE t(x); INSERT INTO t VALUES ('theirs'); PRAGMA user_version = %d", version))
		other.Close()
		if err != nil {
			t.Fatal(err)
		}
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		db, err := Open(context.Background(), path)
		if err == nil {
			db.Close()
			t.Fatalf("version %d: another program's database opened", version)
		}
		want := fmt.Sprintf("store: %s is not a cardtable database: it is an SQLite database with another program's schema (schema version %d); nothing changed", path, version)
		if !errors.Is(err, ErrNotCardtable) || err.Error() != want {
			t.Fatalf("version %d: %v; want %q", version, err, want)
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
			t.Fatalf("version %d: the refused file changed (%v)", version, err)
		}
		for _, side := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(path + side); err == nil {
				t.Fatalf("version %d: %s made beside the refused file", version, side)
			}
		}
	}
	empty := filepath.Join(dir, "empty.db")
	other, err := sql.Open("sqlite", "file:"+empty)
	if err == nil {
		_, err = other.Exec("CREATE TABLE x(y); DROP TABLE x") // a header, no tables
		other.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), empty)
	if err != nil {
		t.Fatalf("an SQLite file with nothing in it: %v", err)
	}
	db.Close()
}

// TestOpenMissingDirectory: a database path whose directory does not
// exist (a mistyped --db) is refused as a bad path, in words saying to
// create it, by Open and Restore alike; nothing is made. MakeDefaultDir,
// for the default data folder alone, makes it.
func TestOpenMissingDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	path := filepath.Join(missing, "x.db")
	want := "the directory " + missing + " does not exist: create it first"
	if db, err := Open(ctx, path); err == nil {
		db.Close()
		t.Error("Open made a database in a missing directory")
	} else if !errors.Is(err, ErrBadPath) || !strings.Contains(err.Error(), want) {
		t.Errorf("Open: %v; want ErrBadPath and %q", err, want)
	}
	_, good := openTemp(t)
	backup := filepath.Join(dir, "b.db")
	if err := Backup(ctx, good, backup); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, path, backup); !errors.Is(err, ErrBadPath) || !strings.Contains(err.Error(), want) {
		t.Errorf("Restore: %v; want ErrBadPath and %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Fatal("a refused open made the directory")
	}
	if err := MakeDefaultDir(path); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestLongOpenEveryOldVersion: a database an older cardtable left at
// any schema version, 1 to this program's (its migrations up to there),
// is cardtable's and opens, migrated: the schema classify asks of a file
// at a version is that version's, not this program's.
// TestOpenOldVersions is its quick version.
func TestLongOpenEveryOldVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a database at every schema version; TestOpenOldVersions opens a few")
	}
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for v := 1; v <= len(names); v++ {
		openAtVersion(t, dir, names, v)
	}
}

// TestOpenOldVersions: databases an older cardtable left at the first
// schema version and at the one before this program's open, migrated,
// as does one at this program's (TestLongOpenEveryOldVersion opens
// every version).
func TestOpenOldVersions(t *testing.T) {
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, v := range []int{1, len(names) - 1, len(names)} {
		openAtVersion(t, dir, names, v)
	}
}

// openAtVersion makes, in dir, a database at schema version v as the
// migrations names[:v] leave it, and opens it with Open.
func openAtVersion(t *testing.T, dir string, names []string, v int) {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("v%d.db", v))
	var stmts strings.Builder
	for _, name := range names[:v] {
		text, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		stmts.Write(text)
		stmts.WriteString(";\n")
	}
	fmt.Fprintf(&stmts, "PRAGMA user_version = %d", v)
	sqlitetest.Exec(t, path, stmts.String())
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("version %d: %v", v, err)
	}
	db.Close()
}

// oldSchema makes a database at schema version v, as the first v
// migrations leave it, and opens it without Open (which would migrate
// it), for a test to put rows of that version in.
func oldSchema(tb testing.TB, v int) (string, *sql.DB) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("v%d.db", v))
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	names, err := migrationNames()
	if err != nil {
		tb.Fatal(err)
	}
	for i, name := range names[:v] {
		text, err := migrations.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := old.Exec(string(text)); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		if _, err := old.Exec(fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tb.Fatal(err)
		}
	}
	return path, old
}
