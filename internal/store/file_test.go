package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneServerPerFile: the lock belongs to the database file, so a second
// Open is refused however the path names the file.
func TestOneServerPerFile(t *testing.T) {
	tests := []struct {
		name  string
		alias func(tb testing.TB, path string) string
	}{
		{"symlink", func(tb testing.TB, path string) string {
			link := filepath.Join(tb.TempDir(), "link.db")
			if err := os.Symlink(path, link); err != nil {
				tb.Fatal(err)
			}
			return link
		}},
		{"hard link", func(tb testing.TB, path string) string {
			link := filepath.Join(filepath.Dir(path), "other-name.db")
			if err := os.Link(path, link); err != nil {
				tb.Fatal(err)
			}
			return link
		}},
		{"another spelling", func(tb testing.TB, path string) string {
			dir := filepath.Dir(path)
			return dir + "/../" + filepath.Base(dir) + "/./" + filepath.Base(path)
		}},
		{"lock file deleted", func(tb testing.TB, path string) string {
			// Earlier versions locked PATH.lock, which could be deleted
			// from under a running server.
			if err := os.Remove(path + ".lock"); err != nil && !errors.Is(err, os.ErrNotExist) {
				tb.Fatal(err)
			}
			return path
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, path := openTemp(t)
			alias := tc.alias(t, path)
			if db2, err := Open(ctx, alias); !errors.Is(err, errInUse) {
				if err == nil {
					db2.Close()
				}
				t.Fatalf("second open through %s: err = %v, want in use", alias, err)
			}
			// Released with the first server: the alias opens now.
			db.Close()
			db2, err := Open(ctx, alias)
			if err != nil {
				t.Fatalf("open after close: %v", err)
			}
			db2.Close()
		})
	}
}

// makeDamaged makes a real database at path with 200 games in it, and
// writes garbage over one of its pages.
func makeDamaged(tb testing.TB, path string) {
	tb.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 200 {
		id := fmt.Sprint(i)
		g := GameRecord{ID: id, Lineage: id, Save: strings.Repeat("move 1 2 3\n", 20), Created: t0, Updated: t0}
		if err := db.CreateGame(ctx, g); err != nil {
			tb.Fatal(err)
		}
	}
	var pageSize, pages int64
	db.w.QueryRow("PRAGMA page_size").Scan(&pageSize)
	db.w.QueryRow("PRAGMA page_count").Scan(&pages)
	if err := db.Close(); err != nil { // checkpoints the WAL into the file
		tb.Fatal(err)
	}
	if pages < 4 {
		tb.Fatalf("only %d pages", pages)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	// Page 3 (1-based), past the schema page: part of a table.
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), 2*pageSize); err != nil {
		tb.Fatal(err)
	}
}

// TestDamagedRefused: a damaged file, or one that is not a database, is
// refused at Open with what to do, and left exactly as it was.
func TestDamagedRefused(t *testing.T) {
	tests := []struct {
		name string
		make func(tb testing.TB, path string)
	}{
		{"garbage in a page", makeDamaged},
		{"not a database", func(tb testing.TB, path string) {
			text := strings.Repeat("these are my notes, not a database\n", 200)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				tb.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cardtable.db")
			tc.make(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			db, err := Open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatal("a damaged database was opened")
			}
			msg := err.Error()
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(msg, path) || !strings.Contains(msg, "backup") || !strings.Contains(msg, "aside") {
				t.Fatalf("err = %v", err)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Fatal("the refused file was changed")
			}
			// The refused Open let go of the file: a second attempt gives
			// the same answer, not "in use".
			if _, err := Open(context.Background(), path); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("second attempt: %v", err)
			}
		})
	}
}

// makeReadOnly makes path unwritable for this process and undoes it at the end
// of the test. Root ignores permission bits, so as root the file or
// directory is made immutable (chattr +i, which root's writes obey too);
// the test is skipped where neither works.
func makeReadOnly(tb testing.TB, path string) {
	tb.Helper()
	if os.Geteuid() != 0 {
		fi, err := os.Stat(path)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.Chmod(path, fi.Mode().Perm()&^0o222); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.Chmod(path, fi.Mode().Perm()) })
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		tb.Skipf("running as root, and chattr +i is not available here to make a read-only file: %v %s", err, out)
	}
	tb.Cleanup(func() {
		if out, err := exec.Command("chattr", "-i", path).CombinedOutput(); err != nil {
			tb.Errorf("chattr -i %s: %v %s", path, err, out)
		}
	})
}

// TestReadOnlyRefused: a database cardtable cannot write (the file, or the
// directory where SQLite creates its -wal and -shm files) is refused at
// Open rather than failing every write later.
func TestReadOnlyRefused(t *testing.T) {
	for _, what := range []string{"file", "directory"} {
		t.Run(what, func(t *testing.T) {
			ctx := context.Background()
			db, path := openTemp(t)
			if err := db.PutSettings(ctx, "p", `{"a":1}`); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if what == "file" {
				makeReadOnly(t, path)
			} else {
				makeReadOnly(t, filepath.Dir(path))
			}
			db, err := Open(ctx, path)
			if err == nil {
				db.Close()
				t.Fatal("a read-only database was opened")
			}
			if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "writable") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestWritesRefusedWhenFileReplaced: once the path no longer names the
// open database file, writes are refused (they would be lost at the next
// start) and stay refused, even if the file comes back.
func TestWritesRefusedWhenFileReplaced(t *testing.T) {
	tests := []struct {
		name   string
		change func(tb testing.TB, path string)
	}{
		{"deleted", func(tb testing.TB, path string) {
			if err := os.Remove(path); err != nil {
				tb.Fatal(err)
			}
		}},
		{"renamed away", func(tb testing.TB, path string) {
			if err := os.Rename(path, path+".old"); err != nil {
				tb.Fatal(err)
			}
		}},
		{"replaced by a copy", func(tb testing.TB, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(path+".new", b, 0o644); err != nil {
				tb.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				tb.Fatal(err)
			}
		}},
		{"symlink pointed elsewhere", func(tb testing.TB, path string) {
			// path is a symlink here (see below): retarget it.
			other := filepath.Join(tb.TempDir(), "other.db")
			if err := os.WriteFile(other, nil, 0o644); err != nil {
				tb.Fatal(err)
			}
			if err := os.Remove(path); err != nil {
				tb.Fatal(err)
			}
			if err := os.Symlink(other, path); err != nil {
				tb.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "cardtable.db")
			if tc.name == "symlink pointed elsewhere" {
				real := filepath.Join(t.TempDir(), "real.db")
				if err := os.Symlink(real, path); err != nil {
					t.Fatal(err)
				}
			}
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.PutSettings(ctx, "p", `{"n":1}`); err != nil {
				t.Fatal(err)
			}
			tc.change(t, path)
			for i := range 2 {
				if err := db.PutSettings(ctx, "p", `{"n":2}`); !errors.Is(err, ErrReplaced) {
					t.Fatalf("write %d after the file changed: %v", i+1, err)
				}
			}
			if tc.name == "renamed away" {
				// Back in place, it is still refused: the running server
				// cannot know what happened to the file meanwhile.
				if err := os.Rename(path+".old", path); err != nil {
					t.Fatal(err)
				}
				if err := db.PutSettings(ctx, "p", `{"n":3}`); !errors.Is(err, ErrReplaced) {
					t.Fatalf("write after the file came back: %v", err)
				}
			}
		})
	}
}

// BenchmarkFileCheck is what each write transaction adds (twice: before
// and after): an fstat of the open file and a stat of its path.
func BenchmarkFileCheck(b *testing.B) {
	db, _ := openTemp(b)
	for b.Loop() {
		if err := db.file.check(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuickCheck is what the check at start costs on a database of
// 10,000 games of 150 moves each.
func BenchmarkQuickCheck(b *testing.B) {
	ctx := context.Background()
	db, path := openTemp(b)
	save := strings.Repeat("move 3 7 2\n", 150)
	for i := range 10000 {
		id := fmt.Sprint(i)
		if err := db.CreateGame(ctx, GameRecord{ID: id, Lineage: id, Save: save, Created: t0, Updated: t0}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := quickCheck(ctx, db.w); err != nil {
			b.Fatal(err)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "MB")
	}
}

// TestDiskFull: a write the database has no room for (SQLITE_FULL, here
// from PRAGMA max_page_count, as a full disk gives it) fails with
// ErrDiskFull, stores nothing, and the database stays usable.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	var pages int
	if err := db.w.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages+8)); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("move 3 7 2\n", 10000) // 110 KB: more than 8 pages
	err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "big", Lineage: "l", Save: big, Updated: t0})
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("write past the limit: %v", err)
	}
	if _, err := db.Save(ctx, "p", "big"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the refused save was stored: %v", err)
	}
	if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "small", Lineage: "l", Save: "s", Updated: t0}); err != nil {
		t.Fatalf("a write that fits, after: %v", err)
	}
}
