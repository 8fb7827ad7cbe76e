package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Checkpoints run in the background. SQLite's automatic checkpoint runs
// inside the commit that crosses its threshold (1,000 WAL pages), and
// with synchronous=NORMAL a checkpoint is when the files are synced to
// disk: a commit that draws it waits for two fsyncs, which on a busy disk
// take up to a second, and every table's action waits behind that commit.
// So the connections open with the automatic checkpoint off and a
// goroutine checkpoints every checkpointEvery on a connection of its own,
// in PASSIVE mode: it copies what no reader still needs and never blocks
// the writer. Durability is unchanged: a commit is in the WAL before it
// returns, as before. Every checkpoint is the store's own (the writer's
// backstop, walBackstop, included), so the store knows each change it
// made to the database file and can tell another's (swap.go).

// walBackstop is the WAL size, in pages, at which the writer checkpoints
// after its commit (as SQLite's automatic checkpoint would): the background
// pass keeps the WAL far below it at a thousand tables' pace, but a flood
// of writes within one second (TestLongCreationFlood: 5,000 new games)
// would otherwise grow the WAL, and so the files, by about 19 KB a write.
var walBackstop int64 = 4000 // a variable for the test of the backstop

// walKeep is the size, in bytes, SQLite cuts the -wal file back to when it
// starts the WAL over after a checkpoint (PRAGMA journal_size_limit, set
// per connection by limitWAL once the page size is read). SQLite reuses
// the file from its start without shrinking it: with no limit, a file once
// grown past walBackstop keeps that size, and the backstop, which goes by
// the file's size, checkpointed after every commit from then on (two
// fsyncs a write). With the limit the file's size is what was written
// since the WAL started over, or walKeep, whichever is more: a quarter of
// the backstop, above the steady second's writes (at 4 KiB pages), so the
// file is cut only after a flood. It counts in the database's pages: a
// limit in 4 KiB pages would reach the backstop of a database of 1 KiB
// pages.
func walKeep(pageSize int) int64 { return walBackstop * int64(pageSize) / 4 }

// checkpointEvery is how often the WAL is copied into the database file;
// the WAL holds at most about this long's writes beyond what readers pin.
const checkpointEvery = time.Second

// checkpointer is the background goroutine. Its exit: stop closes quit
// and waits for done.
type checkpointer struct {
	db   *DB
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

func startCheckpointer(db *DB) *checkpointer {
	c := &checkpointer{db: db, quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *checkpointer) stop() {
	c.once.Do(func() { close(c.quit) })
	<-c.done
}

func (c *checkpointer) run() {
	defer close(c.done)
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-tick.C:
			// A failure (the disk, a lock) is retried at the next tick;
			// closing the database checkpoints whatever is left. A file
			// swapped while no write came is found here.
			_, _, err := c.db.checkpoint(context.Background())
			if errors.Is(err, ErrReplaced) {
				c.db.retire(context.Background())
			}
		}
	}
}

// checkpoint copies the WAL's committed pages into the database file
// (PASSIVE: as far as readers allow, without waiting for anyone). It
// returns the WAL's pages and how many of them are now in the file.
func (db *DB) checkpoint(ctx context.Context) (log, done int, err error) {
	return db.checkpointOn(ctx, db.r)
}

// checkpointOn checkpoints through pool, after checking the file is still
// the one opened and unchanged by others, and notes the file as left.
func (db *DB) checkpointOn(ctx context.Context, pool *sql.DB) (log, done int, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	db.file.ckptMu.Lock()
	defer db.file.ckptMu.Unlock()
	db.atCkpt(ckptLocked)
	if err := db.file.startCopy(); err != nil {
		return 0, 0, err
	}
	var busy int
	err = pool.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &done)
	db.atCkpt(ckptCopied)
	db.file.noteOwnChange()
	db.atCkpt(ckptNoted)
	return log, done, err
}

// The steps of a checkpoint a test can stop it at (DB.ckptHook).
type ckptStep int

const (
	ckptLocked ckptStep = iota // ckptMu taken, the file not yet checked
	ckptCopied                 // the WAL copied into the file, not yet noted
	ckptNoted                  // the file noted as left, ckptMu still held
)

// atCkpt calls the test's hook, if any.
func (db *DB) atCkpt(at ckptStep) {
	if db.ckptHook != nil {
		db.ckptHook(at)
	}
}

// backstop checkpoints after a commit when the WAL holds more than
// walBackstop pages since it last started over (a flood of writes faster
// than the background pass): the file's size says so, walKeep being less.
func (db *DB) backstop(ctx context.Context) {
	fi, err := os.Stat(db.file.path + "-wal")
	if err != nil || fi.Size() < walBackstop*int64(db.pageSize) {
		return
	}
	_, _, _ = db.checkpointOn(ctx, db.w)
}

// limitWAL sets the -wal file's size limit (walKeep) on the writer's
// connection, and on every connection dialled from then on, once the page
// size is known.
func (db *DB) limitWAL(ctx context.Context) error {
	keep := walKeep(db.pageSize)
	db.conn.walKeep.Store(keep)
	_, err := db.w.ExecContext(ctx, fmt.Sprintf("PRAGMA journal_size_limit(%d)", keep))
	return err
}
