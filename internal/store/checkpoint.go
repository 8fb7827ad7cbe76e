package store

import (
	"context"
	"sync"
	"time"
)

// Checkpoints run in the background. SQLite's automatic checkpoint runs
// inside the commit that crosses its threshold (1,000 WAL pages), and
// with synchronous=NORMAL a checkpoint is when the files are synced to
// disk: a commit that draws it waits for two fsyncs, which on a busy disk
// take up to a second, and every table's action waits behind that commit.
// So the connections open with the automatic checkpoint off
// (wal_autocheckpoint only as a backstop, walBackstop) and a goroutine checkpoints every
// checkpointEvery on a connection of its own, in PASSIVE mode: it copies
// what no reader still needs and never blocks the writer. Durability is
// unchanged: a commit is in the WAL before it returns, as before.

// walBackstop is the WAL size, in pages, at which SQLite checkpoints
// inside the commit after all (its automatic checkpoint): the background
// pass keeps the WAL far below it at a thousand tables' pace, but a flood
// of writes within one second (TestLongCreationFlood: 5,000 new games)
// would otherwise grow the WAL, and so the files, by about 19 KB a write.
const walBackstop = 4000

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
			// closing the database checkpoints whatever is left.
			_, _, _ = c.db.checkpoint(context.Background())
		}
	}
}

// checkpoint copies the WAL's committed pages into the database file
// (PASSIVE: as far as readers allow, without waiting for anyone). It
// returns the WAL's pages and how many of them are now in the file.
func (db *DB) checkpoint(ctx context.Context) (log, done int, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var busy int
	err = db.r.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &done)
	return log, done, err
}
