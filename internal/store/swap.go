package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// A database file swapped under the running server is found before
// anything more is written to it (file.go, check), and the store then
// keeps what it acknowledged and leaves nothing that could damage the
// file now at the path. The ways a file is swapped, and what each needs:
//
//   - renamed or moved away (mv ct.db moved.db): the open file is still
//     the database, but SQLite's -wal beside the old path no longer goes
//     with it, and SQLite will not checkpoint a moved file when it
//     closes. retire checkpoints the whole WAL into the open file at
//     once, so moved.db holds every acknowledged write by itself, then
//     removes the -wal and -shm at the old path: a file put there later
//     (a backup restored with mv) must not have this WAL replayed into it.
//   - replaced (mv backup.db ct.db) or deleted: the same, the open file
//     being the one replaced; nothing of the new file is touched.
//   - overwritten in place (cp backup.db ct.db): same inode, other bytes.
//     Found by the file's modification time and size: in WAL mode only a
//     checkpoint writes the database file, and every checkpoint is this
//     store's own (checkpoint.go; SQLite's automatic one is off), which
//     notes the time and size it left; any other change is someone
//     else's. (The header's change counter is not enough: in WAL mode
//     SQLite bumps it only when page 1 changes, so a copy taken since the
//     last such commit carries the same counter. PRAGMA data_version only
//     sees commits made through SQLite.) The WAL's pages belong to the
//     file as it was, so nothing more is checkpointed: at Close the store
//     holds a lock that keeps SQLite from checkpointing into the copied
//     file, and moves the WAL aside.
//
// What is promised, for a write: a swap made before its check after its
// commit refuses it (ErrReplaced, not acknowledged); one made before its
// check before the transaction refuses it before anything is written. A
// swap after that last check is one after the write, which is kept as
// above (in the WAL moved aside, for a copy over the file: the copy took
// its place, as the operator asked). Once found, every write is refused
// until a restart. The exceptions, all for a copy over the file, are
// below.
//
// The comparison of time and size needs only mu, so a write's check never
// waits for a checkpoint. A checkpoint of ours marks the file as being
// copied into (copying) in the same hold of mu as its own check of the
// file, and clears the mark as it notes what it left. In between, its
// change cannot be told from another's: a write checked then passes, as it
// would have just before the checkpoint's check (waiting for the
// checkpoint would find no more, its note taking in a copy all the same,
// and would hold the write for its fsyncs), and a copy made entirely
// within that window (while the checkpoint copies pages: milliseconds,
// once a second while writes come, and after a flood of writes at the
// writer's backstop) is taken for the store's own change. That copy is not
// found: the store's later checkpoints write into it and damage it. Nor is
// one that ends after Close's last check, before SQLite's own closing
// checkpoint (its last connection's close), nor one that ends while the
// writer's connection opens the file, before the store notes it (SQLite
// itself writes the file then, switching a new one to WAL, so there is
// nothing to compare with yet). These are why a backup is restored with
// the server stopped (cardtable restore), not copied under it. A copy
// found later in the open (the quick check and the migrations take seconds
// on a large file) fails it with ErrReplaced, the WAL moved aside
// (failOpen): the next start opens the copy.
//
// A change of the file's metadata only (chmod, a hard link) changes
// neither time nor size and is not taken for a swap; touch(1) on the live
// file is, harmlessly: writes stop until a restart.

// fileStamp is what an overwrite changes.
type fileStamp struct {
	mod  time.Time
	size int64
}

func stampOf(fi os.FileInfo) fileStamp { return fileStamp{fi.ModTime(), fi.Size()} }

// overwritten says why the open file was changed by someone else since
// this process last changed it ("" if it was not, or if that cannot be
// told: while a checkpoint of ours copies into it; see above). Called
// with mu.
func (d *dbFile) overwritten() string {
	if d.last == (fileStamp{}) || d.copying {
		return "" // still opening (noted once the pools are open), or copying
	}
	fi, err := d.f.Stat()
	if err != nil || stampOf(fi) == d.last {
		return ""
	}
	return "the file was overwritten in place, by a copy over it or another program writing it"
}

// noteOwnChange records the file as this process left it, after a
// checkpoint of ours (ckptMu held: it ends the copying startCopy began)
// or at open.
func (d *dbFile) noteOwnChange() {
	fi, err := d.f.Stat()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		d.last = stampOf(fi)
	}
	d.copying = false
}

// noteSides records SQLite's -wal and -shm beside the file as opened.
func (d *dbFile) noteSides() {
	wal, _ := os.Stat(d.path + "-wal")
	shm, _ := os.Stat(d.path + "-shm")
	held.mu.Lock()
	defer held.mu.Unlock()
	d.wal, d.shm = wal, shm
}

// removeSide removes name if it is still the side file the store opened
// (was): never one that came with a file put at the path since. aside, if
// not empty, moves it to name+aside instead.
func removeSide(name string, was os.FileInfo, aside string) error {
	now, err := os.Stat(name)
	if was == nil || errors.Is(err, fs.ErrNotExist) || (err == nil && !os.SameFile(was, now)) {
		return nil
	}
	if err != nil {
		return err
	}
	if aside != "" {
		return os.Rename(name, name+aside)
	}
	return os.Remove(name)
}

// retire makes the open file whole by itself and removes the -wal and
// -shm at the path, once the file was swapped away (not for an overwrite
// in place: see above). It runs at most once successfully; a checkpoint
// that readers kept from finishing is tried again at the next tick and at
// Close.
func (db *DB) retire(ctx context.Context) {
	d := db.file
	if d.isInPlace() {
		return // before ckptMu: a write refused waits for no checkpoint
	}
	d.ckptMu.Lock()
	defer d.ckptMu.Unlock()
	if db.retired {
		return
	}
	var busy, log, done int
	err := db.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(FULL)").Scan(&busy, &log, &done)
	if err == nil && (busy != 0 || done < log) {
		err = fmt.Errorf("checkpoint incomplete: %d of %d pages", done, log)
	}
	if err == nil {
		err = errors.Join(removeSide(d.path+"-wal", d.wal, ""), removeSide(d.path+"-shm", d.shm, ""))
	}
	if err != nil {
		db.log().Error("store: keeping the swapped database file whole", "path", d.path, "err", err)
		return
	}
	db.retired = true
	db.log().Error("store: the database file was swapped under the server; every write it acknowledged is in the file it had open, and writes are refused until a restart",
		"path", d.path, "why", d.lost)
}

// isInPlace says the file was found overwritten in place (it stays so).
func (d *dbFile) isInPlace() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inPlace
}

// closeOverwritten keeps SQLite, closing, from checkpointing the WAL into
// a file that was overwritten in place (it would mix two databases), and
// afterwards moves that WAL aside so no later open replays it.
func (db *DB) closeOverwritten() (after func() error) {
	unlock, err := holdShared(db.file.f)
	if err != nil {
		db.log().Error("store: cannot stop the closing checkpoint", "path", db.file.path, "err", err)
	}
	return func() error {
		unlock()
		aside := fmt.Sprintf(".overwritten-%d", time.Now().Unix())
		return errors.Join(removeSide(db.file.path+"-wal", db.file.wal, aside),
			removeSide(db.file.path+"-shm", db.file.shm, ""))
	}
}
