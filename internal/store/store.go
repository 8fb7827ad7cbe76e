// Package store keeps cardtable's games, named saves, statistics and
// settings in SQLite (modernc.org/sqlite, no cgo). The schema comes from the
// embedded migrations, applied when the database is opened.
//
// The store knows nothing of the rules: a game is a save text (its last
// snapshot) plus the commands accepted since, and a few columns copied out
// for listing. Every row belongs to a player (the server's key for a
// browser); a row of another player is not found.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/table"
	"modernc.org/sqlite" // also the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned when a game or a save does not exist, or belongs
// to another player.
var ErrNotFound = spidergame.ErrNotFound

// ErrStale is returned when a write is based on a version of a game that is
// no longer the stored one: the write is refused, nothing changes.
var ErrStale = spidergame.ErrStale

// ErrDiskFull is returned when a write failed because the database could
// not grow: nothing of it was stored.
var ErrDiskFull = spidergame.ErrDiskFull

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open cardtable database. It is safe for concurrent use.
type DB struct {
	// w has a single connection, so writers queue in Go rather than
	// spinning on SQLite's busy lock; r serves reads alongside (WAL mode).
	w, r *sql.DB
	// file is the database file itself, locked while open: the server
	// keeps games in memory, so two servers on one database would
	// overwrite each other's moves. Each write checks the path still
	// names it (file.go).
	file *dbFile
	// app commits the live tables' actions in batches (batch.go).
	app *appender
	// ckpt checkpoints the WAL in the background (checkpoint.go).
	ckpt *checkpointer
	// quota bounds each player's named saves (data.go).
	quota SaveQuota
	// pageSize is the database's page size, for the WAL's size in pages.
	pageSize int
	// conn dials the pools' connections (conn.go).
	conn *fileConnector
	// retired: the file was swapped and made whole (swap.go); under
	// file.ckptMu.
	retired bool
	// ckptHook, set by tests only (before the checkpoints it is to see),
	// is called at each step of a checkpoint (checkpoint.go).
	ckptHook func(ckptStep)
	// closeOnce runs Close once; closeErr is what it returned.
	closeOnce sync.Once
	closeErr  error
	// logger is the server's (SetLogger); nil: slog's default.
	logger atomic.Pointer[slog.Logger]
}

// SetLogger makes the store write what an operator must see (its file
// swapped under it, a close that could not wait) through l, the server's
// logger, so those lines take the server's format (--log-format json)
// and go where its other lines go. It may be called while the store runs.
func (db *DB) SetLogger(l *slog.Logger) { db.logger.Store(l) }

// log is the logger set with SetLogger, else slog's default.
func (db *DB) log() *slog.Logger {
	if l := db.logger.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
//
// Durability: WAL journal with synchronous=NORMAL. A committed transaction is
// in the WAL file before Commit returns, so it survives the process being
// killed (kill -9); only an operating-system crash or power loss can lose the
// last transactions, never corrupt the database.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenLogged(ctx, path, nil)
}

// OpenLogged is Open with the server's logger set from the start (nil:
// slog's default), so that what a failed open writes (a connection it
// could not wait for) takes the server's format too; SetLogger can only
// follow a successful open.
func OpenLogged(ctx context.Context, path string, log *slog.Logger) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	if err := refuseForeign(ctx, path); err != nil {
		return nil, err
	}
	file, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db, err := open(ctx, file, log)
	if err != nil {
		file.Close()
		return nil, err
	}
	return db, nil
}

func open(ctx context.Context, file *dbFile, log *slog.Logger) (*DB, error) {
	path := file.path
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	// No journal_mode here: WAL is set once the schema version is read
	// (walAfterVersion), so that a file this program must not change is
	// refused as it was.
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// checkpoint.go checkpoints in the background, and the writer at
	// walBackstop pages; SQLite's automatic checkpoint is off, so that
	// every change to the database file is the store's own (swap.go).
	q.Add("_pragma", "wal_autocheckpoint(0)")
	// Each connection keeps a page cache of its own, outside the Go heap
	// (the server's RSS, not its go_memstats): bounded here, not left to
	// the library's default (docs/operating.md "Memory").
	q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", pageCacheKiB))
	q.Set("_txlock", "immediate")
	// mode=rw: SQLite never creates a file at the path (conn.go).
	q.Set("mode", "rw")
	c, err := newConnector("file:"+path+"?"+q.Encode(), file)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w, err := openPool(ctx, c, 1)
	if err == nil {
		err = walAfterVersion(ctx, w, path)
		if err != nil {
			w.Close()
		}
	}
	if err != nil {
		if d := damaged(path, err); errors.Is(d, ErrCorrupt) {
			return nil, fmt.Errorf("store: %w", d)
		}
		return nil, err
	}
	// SQLite has made the file a WAL database: from here only the
	// store's checkpoints change it, so it is noted now, and a copy over
	// it during the quick check and the migrations is found (swap.go).
	file.noteOwnChange()
	db := &DB{w: w, file: file, conn: c, quota: DefaultSaveQuota}
	if log != nil {
		db.SetLogger(log)
	}
	if err := db.prepare(ctx); err != nil {
		return nil, db.failOpen(err)
	}
	if openHook != nil {
		openHook()
	}
	r, err := openPool(ctx, c, poolSize)
	if err != nil {
		return nil, db.failOpen(err)
	}
	db.r = r
	file.noteSides()
	db.app = startAppender(db)
	db.ckpt = startCheckpointer(db)
	return db, nil
}

// openHook, set by tests only, runs in open once the file is prepared.
var openHook func()

// failOpen closes the writer of a store that failed to open (err), as
// Close does (closeConns), keeping SQLite from checkpointing into a file
// overwritten meanwhile (swap.go), and says why the open failed. A swap
// found is the reason, whatever failed besides: a copy over the file may
// itself have failed the quick check or a migration, and the remedy for
// damage (put a backup in its place) is not the one for a swap (start
// again).
func (db *DB) failOpen(err error) error {
	after := func() error { return nil }
	swapped := errors.Is(db.file.check(), ErrReplaced)
	if swapped && db.file.isInPlace() {
		db.file.noteSides() // what it moves aside: the WAL of this open
		after = db.closeOverwritten()
	}
	// closeConns, not the pool's Close alone: a connection still in use
	// (a migration's transaction its context cut short, given back by
	// database/sql's goroutine) closes later, and its closing checkpoint
	// must still meet the lock closeOverwritten holds, and the WAL not
	// yet moved aside.
	cerr := errors.Join(closeConns(db.log(), db.file.path, namedPool{"writer", db.w}), after())
	if swapped {
		d := db.file
		d.mu.Lock()
		why := d.why
		d.mu.Unlock()
		err = fmt.Errorf("store: %s was swapped while the server was opening it: %w (%s); "+
			"start the server again to open the file now at the path", d.path, ErrReplaced, why)
	}
	return errors.Join(err, cerr)
}

// Close closes the database. It returns once every connection has
// closed (closeConns), so that SQLite's closing checkpoint has run and no
// connection of the store's is left to checkpoint the WAL later, or, if a
// caller still holds one (rows not closed), after waiting closeConnsWithin
// for it, which is logged. A second Close returns the first one's
// result at once.
func (db *DB) Close() error {
	db.closeOnce.Do(func() { db.closeErr = db.close() })
	return db.closeErr
}

func (db *DB) close() error {
	db.app.stop()
	db.ckpt.stop()
	after := func() error { return nil }
	// Looked for now too: a swap since the last write and tick.
	if errors.Is(db.file.check(), ErrReplaced) {
		if db.file.isInPlace() {
			after = db.closeOverwritten()
		} else {
			db.retire(context.Background())
		}
	}
	err := closeConns(db.log(), db.file.path, namedPool{"readers", db.r}, namedPool{"writer", db.w})
	return errors.Join(err, after(), db.file.Close())
}

// closeConnsWithin bounds closeConns' wait for connections still in use;
// a variable for the test of the wait running out.
var closeConnsWithin = 5 * time.Second

// connsWaitHook, set by tests only, is called when closeConns finds a
// pool's connection still open after closing the pool, before it waits.
var connsWaitHook func()

// namedPool is a pool and its name for the log.
type namedPool struct {
	name string
	p    *sql.DB
}

// closeConns closes the pools and waits, for at most closeConnsWithin,
// until their last connection has closed. sql.DB.Close closes the idle
// connections only; one still in use closes when it is given back,
// later: a transaction whose context ended is rolled back and given back
// by database/sql's own goroutine, which may run after Close. Until then
// that connection holds the -shm's lock, and the last one to close runs
// SQLite's closing checkpoint, which after closeOverwritten moved the
// -wal aside could write the old WAL into the file copied over it. A
// pool still holding connections when the wait runs out (a caller
// holding rows open) is logged by name (path is the database's), and
// Close returns without them.
func closeConns(log *slog.Logger, path string, pools ...namedPool) error {
	var err error
	for _, np := range pools {
		err = errors.Join(err, np.p.Close())
	}
	deadline := time.Now().Add(closeConnsWithin)
	for _, np := range pools {
		if connsWaitHook != nil && np.p.Stats().OpenConnections > 0 {
			connsWaitHook()
		}
		// No event tells of a connection's close: its count is polled.
		for np.p.Stats().OpenConnections > 0 && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		if n := np.p.Stats().OpenConnections; n > 0 {
			log.Warn("store: closed without waiting for connections still in use",
				"path", path, "pool", np.name, "open_connections", n, "waited", closeConnsWithin)
		}
	}
	return err
}

// Version is the schema version the embedded migrations reach.
func Version() int {
	names, _ := migrationNames()
	return len(names)
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// migrate applies the migrations the database has not seen, all in one
// transaction: migration i (1-based, in file-name order) sets PRAGMA
// user_version to i after its statements, and a crash or a failed
// migration leaves the database as it was. (One transaction rather than
// one each: a new database gets its whole schema in one commit.)
func (db *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	var have int
	if err := db.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if have > len(names) {
		return fmt.Errorf("database schema version %d is newer than this program's %d: it was %w", have, len(names), ErrNewer)
	}
	if have == len(names) {
		return nil
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		for i := have; i < len(names); i++ {
			text, err := migrations.ReadFile(names[i])
			if err == nil {
				_, err = tx.ExecContext(ctx, string(text))
			}
			if err == nil {
				_, err = tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(i+1))
			}
			if err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
		}
		return nil
	})
}

// tx runs f in a write transaction, committing if it returns nil. It
// refuses to write, and reports a write as failed, when the database file
// is no longer at its path (ErrReplaced): that write would be lost. Only
// a swap found retires the file (swap.go): a check that could not tell
// (a failed stat) refuses the write and leaves the file and its WAL be.
func (db *DB) tx(ctx context.Context, f func(*sql.Tx) error) error {
	if err := db.checkWrite(ctx); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return full(err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return full(err)
	}
	if err := tx.Commit(); err != nil {
		return full(err)
	}
	if err := db.checkWrite(ctx); err != nil {
		return err
	}
	db.backstop(ctx)
	return nil
}

// checkWrite is the file's check around a write, retiring a file found
// swapped.
func (db *DB) checkWrite(ctx context.Context) error {
	err := db.file.check()
	if errors.Is(err, ErrReplaced) {
		db.retire(ctx)
	}
	return err
}

// full classifies a write that failed for want of room (SQLite's
// SQLITE_FULL: the disk is full or the database at its max_page_count;
// ENOSPC from a write SQLite did not map) as ErrDiskFull, once, here.
func full(err error) error {
	var se *sqlite.Error
	if (errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL) || errors.Is(err, syscall.ENOSPC) {
		// Both games' sentinels: a table's write reaches the web layer
		// through the table package, a Spider game's through spidergame.
		return fmt.Errorf("%w: %w", errors.Join(ErrDiskFull, table.ErrDiskFull), err)
	}
	return err
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// SetMaxPages bounds the database to pages pages (SQLite's
// max_page_count, on the one connection that writes, until the store
// closes; SQLite never sets it below the pages in use) and returns the
// bound now in force. A write needing a page past it fails as on a full
// disk, with the same SQLITE_FULL (ErrDiskFull); a bound set higher
// again is room come back. For tests and drills of a full disk, which
// cannot be had on demand.
func (db *DB) SetMaxPages(ctx context.Context, pages int64) (int64, error) {
	var got int64
	err := db.w.QueryRowContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages)).Scan(&got)
	return got, err
}
