package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var stepName = map[ckptStep]string{ckptLocked: "locked", ckptCopied: "copied", ckptNoted: "noted"}

// duringCheckpoint runs a checkpoint of the store's own through pool (the
// background one through the readers' pool, the writer's backstop through
// the writer's), stops it at step at, runs f there and lets it finish,
// returning its error. The background checkpointer must be stopped.
func duringCheckpoint(db *DB, pool *sql.DB, at ckptStep, f func()) error {
	paused, resume := make(chan struct{}), make(chan struct{})
	db.ckptHook = func(s ckptStep) {
		if s == at {
			close(paused)
			<-resume
		}
	}
	errc := make(chan error, 1)
	go func() { // exits once resumed: its checkpoint returns
		_, _, err := db.checkpointOn(context.Background(), pool)
		errc <- err
	}()
	<-paused
	f()
	close(resume)
	err := <-errc
	db.ckptHook = nil
	return err
}

// openWithWAL opens a store at dir/ct.db holding 10 saves in the file,
// a backup of them at dir/backup.db, and 20 newer saves in the WAL only
// (the background checkpointer stopped).
func openWithWAL(t *testing.T) (db *DB, path, backup string) {
	t.Helper()
	dir := t.TempDir()
	path, backup = filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() { // else the test closed it
			db.Close()
		}
	})
	fillSaves(t, db, 10)
	if _, _, err := db.checkpoint(context.Background()); err != nil {
		t.Fatal(err)
	}
	copyDB(t, db, backup)
	db.ckpt.stop()
	text := strings.Repeat("move 1 2 3\n", 300)
	for i := range 20 {
		if err := db.PutSave(context.Background(), SaveRecord{Player: "p", Name: fmt.Sprint("n", i), Lineage: "x", Save: text, Updated: t0}); err != nil {
			t.Fatal(err)
		}
	}
	return db, path, backup
}

// copyOver copies backup over the file at path in place (cp backup path).
func copyOver(t *testing.T, backup, path string) {
	t.Helper()
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCopiedOverDuringCheckpoint: a backup copied over the live file
// (cp backup.db ct.db) while a checkpoint of the store's own is under way,
// the background one or the writer's backstop, stopped where it holds the
// checkpoint lock but has not yet looked at the file, or has noted the file
// as it left it: the next write is refused with ErrReplaced, not
// acknowledged into a WAL that Close moves aside, and the file at the path
// holds exactly the backup afterwards.
func TestCopiedOverDuringCheckpoint(t *testing.T) {
	for _, pool := range []string{"background", "backstop"} {
		for _, at := range []ckptStep{ckptLocked, ckptNoted} {
			t.Run(pool+"/"+stepName[at], func(t *testing.T) {
				db, path, backup := openWithWAL(t)
				p := db.r
				if pool == "backstop" {
					p = db.w
				}
				var werr error
				cerr := duringCheckpoint(db, p, at, func() {
					copyOver(t, backup, path)
					werr = db.PutSave(context.Background(), SaveRecord{Player: "p", Name: "late", Lineage: "x", Save: "s", Updated: t0})
				})
				if !errors.Is(werr, ErrReplaced) || !strings.Contains(werr.Error(), "overwritten in place") {
					t.Fatalf("write after the copy, during the checkpoint: %v (acknowledged, it would be only in the WAL moved aside)", werr)
				}
				if at == ckptLocked && !errors.Is(cerr, ErrReplaced) {
					t.Errorf("the checkpoint that had not looked yet: %v, want ErrReplaced", cerr)
				}
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
				if n := checkFile(t, path); n != 10 {
					t.Fatalf("the copied-over file has %d saves, want the backup's 10", n)
				}
				if aside, _ := filepath.Glob(path + "-wal.overwritten-*"); len(aside) != 1 {
					t.Fatalf("the old WAL moved aside: %v", aside)
				}
			})
		}
	}
}

// TestWriteDuringOwnCheckpoint: a write while a checkpoint of the store's
// own has copied the WAL into the file but not yet noted the file's new
// time and size is not taken for one after a copy over the file, nor is
// the next: both are acknowledged and in the file after Close.
func TestWriteDuringOwnCheckpoint(t *testing.T) {
	for _, pool := range []string{"background", "backstop"} {
		t.Run(pool, func(t *testing.T) {
			db, path, _ := openWithWAL(t)
			p := db.r
			if pool == "backstop" {
				p = db.w
			}
			var werr error
			cerr := duringCheckpoint(db, p, ckptCopied, func() {
				werr = db.PutSave(context.Background(), SaveRecord{Player: "p", Name: "during", Lineage: "x", Save: "s", Updated: t0})
			})
			if werr != nil || cerr != nil {
				t.Fatalf("write during the checkpoint: %v; the checkpoint: %v", werr, cerr)
			}
			if err := db.PutSave(context.Background(), SaveRecord{Player: "p", Name: "after", Lineage: "x", Save: "s", Updated: t0}); err != nil {
				t.Fatalf("write after the checkpoint: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if n := checkFile(t, path); n != 32 {
				t.Fatalf("the file has %d saves, want 32", n)
			}
		})
	}
}

// TestCopiedOverWhileOpening: a backup copied over the file while the
// store opens it (after the quick check and the migrations, before the
// readers' pool is filled) fails the open with ErrReplaced, once, in
// words for a start. The file opened is one a server left when it was
// killed, its -wal holding commits: that WAL is moved aside, not
// checkpointed into the copy, which passes the integrity check with the
// backup's saves; the next open opens the backup as it was.
func TestCopiedOverWhileOpening(t *testing.T) {
	ctx := context.Background()
	live, livePath, backup := openWithWAL(t) // 20 of its 30 saves in the WAL only
	path := filepath.Join(t.TempDir(), "ct.db")
	for _, side := range []string{"", "-wal"} { // a killed server's files
		copyOver(t, livePath+side, path+side)
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	openHook = func() { copyOver(t, backup, path) }
	db, err := Open(ctx, path)
	openHook = nil
	if err == nil {
		err = db.PutSave(ctx, SaveRecord{Player: "p", Name: "late", Lineage: "x", Save: "s", Updated: t0})
		db.Close()
		t.Fatalf("opened a file copied over while opening; a write then: %v", err)
	}
	if !errors.Is(err, ErrReplaced) || !strings.Contains(err.Error(), "overwritten in place") ||
		strings.Count(err.Error(), path) != 1 || strings.Contains(err.Error(), "restarted") {
		t.Fatalf("open of a file copied over meanwhile: %v", err)
	}
	if aside, _ := filepath.Glob(path + "-wal.overwritten-*"); len(aside) != 1 {
		t.Fatalf("the old WAL moved aside: %v", aside)
	}
	if n := checkFile(t, path); n != 10 {
		t.Fatalf("the copied-over file has %d saves, want the backup's 10", n)
	}
	if db, err = Open(ctx, path); err != nil {
		t.Fatalf("the next open: %v", err)
	}
	defer db.Close()
	if l, err := db.Saves(ctx, "p"); err != nil || len(l) != 10 {
		t.Fatalf("the next open reads %d saves, %v; want the backup's 10", len(l), err)
	}
}

// TestCopiedOverDamagedWhileOpening: a damaged copy put over the file
// while the store opens it, before the quick check, fails that check,
// but the open says the file was swapped (start again), once, not that
// it is damaged: the file checked was not the one opened.
func TestCopiedOverDamagedWhileOpening(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, damagedCopy := filepath.Join(dir, "ct.db"), filepath.Join(dir, "damaged.db")
	makeDamaged(t, damagedCopy)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fillSaves(t, db, 10)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	prepareHook = func() { copyOver(t, damagedCopy, path) }
	db, err = Open(ctx, path)
	prepareHook = nil
	if err == nil {
		db.Close()
		t.Fatal("opened a damaged file copied over while opening")
	}
	msg := err.Error()
	if !errors.Is(err, ErrReplaced) || errors.Is(err, ErrCorrupt) || strings.Count(msg, path) != 1 ||
		strings.Count(msg, "swapped") != 1 || !strings.Contains(msg, "start the server again") ||
		strings.Contains(msg, "backup") {
		t.Fatalf("open of a file a damaged copy was put over: %v", err)
	}
	// The copy is what the quick check met: the next open finds it damaged.
	if db, err = Open(ctx, path); !errors.Is(err, ErrCorrupt) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("the next open of the damaged copy: %v, want ErrCorrupt", err)
	}
}
