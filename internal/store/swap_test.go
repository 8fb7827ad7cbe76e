package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fillSaves stores n games, each with a named save of a ~2 KB text: the
// acknowledged writes the swap tests count afterwards.
func fillSaves(tb testing.TB, db *DB, n int) {
	tb.Helper()
	ctx := context.Background()
	text := strings.Repeat("move 3 7 2\n", 200)
	for i := range n {
		id := fmt.Sprint("g", i)
		if err := db.CreateGame(ctx, GameRecord{ID: id, Player: "p", Lineage: id, Save: text, Created: t0, Updated: t0}); err != nil {
			tb.Fatal(err)
		}
		if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: id, Lineage: id, Save: text, Updated: t0}); err != nil {
			tb.Fatal(err)
		}
	}
}

// readParallel runs readers goroutines each listing the saves rounds times
// (the reader pool grows to its size); read errors are returned.
func readParallel(db *DB, readers, rounds int) error {
	var wg sync.WaitGroup
	errs := make(chan error, readers*rounds)
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if _, err := db.Saves(context.Background(), "p"); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return errors.Join(func() (all []error) {
		for err := range errs {
			all = append(all, err)
		}
		return all
	}()...)
}

// checkFile opens path with plain database/sql (not the store, which
// would migrate or refuse it) and returns its saves count after SQLite's
// integrity check passed.
func checkFile(tb testing.TB, path string) int {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var ok string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		tb.Fatalf("integrity check of %s: %q %v", path, ok, err)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM saves").Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestRenamedUnderServerLosesNothing: the database file renamed while the
// store is open (mv ct.db moved.db), then read by many readers at once
// (which used to open new connections by path: they created an empty file
// at the path and deleted the original's WAL) and written: every
// acknowledged write is in the renamed file, which passes SQLite's
// integrity check; nothing is created at the old path; writes are refused
// with ErrReplaced.
func TestRenamedUnderServerLosesNothing(t *testing.T) {
	dir := t.TempDir()
	path, moved := filepath.Join(dir, "ct.db"), filepath.Join(dir, "moved.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const games = 25
	fillSaves(t, db, games)
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if err := readParallel(db, 16, 10); err != nil {
		t.Errorf("reads after the rename: %v", err)
	}
	err = db.PutSave(context.Background(), SaveRecord{Player: "p", Name: "late", Lineage: "x", Save: "s", Updated: t0})
	if !errors.Is(err, ErrReplaced) || !strings.Contains(err.Error(), "renamed") {
		t.Fatalf("write after the rename: %v", err)
	}
	// Restarted as told, a server with no file at the path would start
	// an empty database: the words say where the file went, and to move
	// it back first.
	if runtime.GOOS == "linux" && !strings.Contains(err.Error(), "(now "+moved+"): move it back to the path before the restart") {
		t.Fatalf("write after the rename: %v, want the file's new name and to move it back", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was created at the old path: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, moved); n != games {
		t.Fatalf("the renamed file has %d saves, want the %d acknowledged", n, games)
	}
}

// copyDB makes a consistent copy of db's database at to (VACUUM INTO).
func copyDB(tb testing.TB, db *DB, to string) {
	tb.Helper()
	if _, err := db.r.Exec("VACUUM INTO ?", to); err != nil {
		tb.Fatal(err)
	}
}

// TestRestoredUnderServerNotDamaged: a backup put at the path under the
// running store, by a rename (mv backup.db ct.db) or a copy over the live
// file (cp backup.db ct.db, the same inode), is found before the next
// write, which is refused with ErrReplaced and why; after Close the
// restored file is intact and holds exactly the backup (the old WAL was
// not replayed into it).
func TestRestoredUnderServerNotDamaged(t *testing.T) {
	tests := []struct {
		name, why string
		put       func(tb testing.TB, backup, path string)
	}{
		{"renamed into place", "deleted", func(tb testing.TB, backup, path string) {
			if err := os.Rename(backup, path); err != nil {
				tb.Fatal(err)
			}
		}},
		{"copied over", "overwritten in place", func(tb testing.TB, backup, path string) {
			b, err := os.ReadFile(backup)
			if err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				tb.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			fillSaves(t, db, 10)
			copyDB(t, db, backup)
			// No checkpoint of the store's own runs from here: the test
			// is of the write's own check, and a copy made while a
			// checkpoint copies into the file is not found (swap.go;
			// checkpoints stopped at each step: swap_ckpt_test.go).
			db.ckpt.stop()
			text := strings.Repeat("move 1 2 3\n", 300)
			for i := range 20 { // newer writes, in the WAL
				if err := db.PutSave(context.Background(), SaveRecord{Player: "p", Name: fmt.Sprint("n", i), Lineage: "x", Save: text, Updated: t0}); err != nil {
					t.Fatal(err)
				}
			}
			tc.put(t, backup, path)
			if err := readParallel(db, 8, 5); err != nil && tc.name != "copied over" {
				// Reads of a file copied over under them may fail; those
				// of a renamed one go on from the file they had open.
				t.Errorf("reads: %v", err)
			}
			err = db.PutSave(context.Background(), SaveRecord{Player: "p", Name: "late", Lineage: "x", Save: "s", Updated: t0})
			if !errors.Is(err, ErrReplaced) || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("write after the restore: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if n := checkFile(t, path); n != 10 {
				t.Fatalf("the restored file has %d saves, want the backup's 10", n)
			}
		})
	}
}

// TestSecondStoreWaitsForSwappedOne: after a file is put at the path under
// an open store (mv), another store on the path is refused while the first
// still has the -wal and -shm at the path open, so the two never share
// them; once the first has found the swap and let go of them, it opens.
func TestSecondStoreWaitsForSwappedOne(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// No checkpoint of the store's own runs: its pass, once a second,
	// finds the swap too and lets go of the -wal and -shm, so a pass
	// between the rename and the second open (a second on a loaded
	// machine) let the second store open. The write below is what is
	// to find it here.
	db.ckpt.stop()
	fillSaves(t, db, 3)
	copyDB(t, db, backup)
	if err := os.Rename(backup, path); err != nil {
		t.Fatal(err)
	}
	if db2, err := Open(ctx, path); !errors.Is(err, errInUse) || !strings.Contains(err.Error(), "-shm") {
		if err == nil {
			db2.Close()
		}
		t.Fatalf("second store while the first holds the -shm: %v", err)
	}
	if err := db.PutSettings(ctx, "p", "{}"); !errors.Is(err, ErrReplaced) {
		t.Fatalf("write after the swap: %v", err)
	}
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("second store once the first let go: %v", err)
	}
	defer db2.Close()
	if l, err := db2.Saves(ctx, "p"); err != nil || len(l) != 3 {
		t.Fatalf("the second store reads %d saves, %v; want the backup's 3", len(l), err)
	}
}

// TestRenamedThenClosed: a file renamed just before the store closes (no
// write or checkpoint in between) still gets every acknowledged write,
// which SQLite alone leaves in the -wal at the old path.
func TestRenamedThenClosed(t *testing.T) {
	dir := t.TempDir()
	path, moved := filepath.Join(dir, "ct.db"), filepath.Join(dir, "moved.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	fillSaves(t, db, 8)
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, moved); n != 8 {
		t.Fatalf("the renamed file has %d saves, want 8", n)
	}
	if left, _ := filepath.Glob(path + "*"); len(left) != 0 {
		t.Fatalf("left at the old path: %v", left)
	}
}

// TestStatFailureNotSwap: a check that cannot stat the path (an error
// other than "no such file") refuses that write but is no swap: the file
// is not retired (its -wal is kept beside it), the next write is taken,
// and every acknowledged write is in the file after Close.
func TestStatFailureNotSwap(t *testing.T) {
	db, path, _ := openWithWAL(t) // 30 saves, 20 of them in the WAL only
	defer statFault.Store(nil)
	eio := func() error { return syscall.EIO }
	statFault.Store(&eio)
	ctx := context.Background()
	err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "refused", Lineage: "x", Save: "s", Updated: t0})
	statFault.Store(nil)
	if err == nil || errors.Is(err, ErrReplaced) {
		t.Fatalf("a write whose check could not stat the path: %v, want a plain error", err)
	}
	if _, serr := os.Stat(path + "-wal"); serr != nil {
		t.Fatalf("the live -wal after a failed stat: %v (retired as if swapped)", serr)
	}
	if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "next", Lineage: "x", Save: "s", Updated: t0}); err != nil {
		t.Fatalf("the next write: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, path); n != 31 {
		t.Fatalf("the file has %d saves, want 31", n)
	}
}
