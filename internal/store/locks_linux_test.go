//go:build linux

package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// posixLocks lists the classic POSIX locks this process holds on name's
// file, as /proc/locks shows them ("READ 128 128"): SQLite's locks.
func posixLocks(tb testing.TB, name string) []string {
	tb.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		tb.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	dev := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	f, err := os.Open("/proc/locks")
	if err != nil {
		tb.Skipf("no /proc/locks: %v", err)
	}
	defer f.Close()
	pid := fmt.Sprint(os.Getpid())
	var found []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: POSIX  ADVISORY  READ 1234 00:2a:5678 128 128"
		fs := strings.Fields(sc.Text())
		if len(fs) >= 8 && fs[1] == "POSIX" && fs[4] == pid && fs[5] == dev {
			found = append(found, strings.Join([]string{fs[3], fs[6], fs[7]}, " "))
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(found)
	return found
}

// TestSQLiteLocksKept: nothing the store does besides SQLite itself opens
// and closes the database, -wal or -shm file (closing any descriptor on a
// file drops all of this process's POSIX locks on it, SQLite's too, and a
// -shm without them is reset by the next process, damaging the database).
// Each path is followed by a look at /proc/locks; the control closes a
// descriptor on the -shm as the readiness check once did, and the lock
// must vanish.
func TestSQLiteLocksKept(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	// No checkpoint of the store's own runs: the locks SQLite takes for
	// one come and go, and a pass during a look at /proc/locks (a second
	// apart, closer on a loaded machine) made two looks differ.
	db.ckpt.stop()
	if err := db.CreateGame(ctx, GameRecord{ID: "locks", Lineage: "locks", Save: "move 1 2 3\n", Created: t0, Updated: t0}); err != nil {
		t.Fatal(err)
	}
	shm, before := path+"-shm", posixLocks(t, path+"-shm")
	dbBefore := posixLocks(t, path)
	if !slices.Contains(before, "READ 128 128") {
		t.Fatalf("-shm locks = %q, want SQLite's READ 128 128 (the test cannot see the locks)", before)
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"ping", func() error { return db.Ping(ctx) }},
		{"swap check", db.file.check},
		// The store's own checkpoint, run here as the background pass
		// would (stopped above): its look at the file before and after
		// copying must leave SQLite's locks alone too. A write first, so
		// there is something to copy.
		{"write and checkpoint", func() error {
			if err := db.CreateGame(ctx, GameRecord{ID: "locks2", Lineage: "locks2", Save: "move 1 2 3\n", Created: t0, Updated: t0}); err != nil {
				return err
			}
			log, done, err := db.checkpoint(ctx)
			if err == nil && done == 0 {
				err = fmt.Errorf("checkpoint copied %d of %d WAL pages, want some", done, log)
			}
			return err
		}},
		{"backup in this process", func() error { return Backup(ctx, path, filepath.Join(t.TempDir(), "b.db")) }},
		{"second open", func() error {
			if db2, err := Open(ctx, path); err == nil {
				db2.Close()
				return fmt.Errorf("second open of a held database succeeded")
			}
			return nil
		}},
		{"open through a hard link", func() error {
			link := filepath.Join(filepath.Dir(path), "link.db")
			if err := os.Link(path, link); err != nil {
				return err
			}
			if db2, err := Open(ctx, link); err == nil {
				db2.Close()
				return fmt.Errorf("open through a hard link succeeded")
			}
			return nil
		}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if err := s.do(); err != nil {
				t.Fatal(err)
			}
			if got := posixLocks(t, shm); !slices.Equal(got, before) {
				t.Errorf("-shm locks after %s = %q, want %q", s.name, got, before)
			}
			if got := posixLocks(t, path); !slices.Equal(got, dbBefore) {
				t.Errorf("database locks after %s = %q, want %q", s.name, got, dbBefore)
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		f, err := os.OpenFile(shm, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got := posixLocks(t, shm); slices.Contains(got, "READ 128 128") {
			t.Errorf("-shm locks after an open and close = %q: the check cannot see a dropped lock", got)
		}
	})
}
