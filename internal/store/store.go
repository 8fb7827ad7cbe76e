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
	"net/url"
	"sort"
	"strconv"
	"time"

	"cardtable/internal/spidergame"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// ErrNotFound is returned when a game or a save does not exist, or belongs
// to another player.
var ErrNotFound = spidergame.ErrNotFound

// ErrStale is returned when a write is based on a version of a game that is
// no longer the stored one: the write is refused, nothing changes.
var ErrStale = spidergame.ErrStale

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
}

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
//
// Durability: WAL journal with synchronous=NORMAL. A committed transaction is
// in the WAL file before Commit returns, so it survives the process being
// killed (kill -9); only an operating-system crash or power loss can lose the
// last transactions, never corrupt the database.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	file, err := openFile(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db, err := open(ctx, file)
	if err != nil {
		file.Close()
		return nil, err
	}
	return db, nil
}

func open(ctx context.Context, file *dbFile) (*DB, error) {
	path := file.path
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// checkpoint.go checkpoints in the background; the automatic one stays
	// as a backstop at walBackstop pages, so a burst of writes faster than
	// the background pass cannot grow the WAL without bound.
	q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", walBackstop))
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	db := &DB{w: w, file: file}
	if err := db.prepare(ctx); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	db.r = r
	db.app = startAppender(db)
	db.ckpt = startCheckpointer(db)
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
	db.app.stop()
	db.ckpt.stop()
	return errors.Join(db.r.Close(), db.w.Close(), db.file.Close())
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

// migrate applies the migrations the database has not seen. Migration i
// (1-based, in file-name order) sets PRAGMA user_version to i in the same
// transaction as its statements, so a crash leaves either all or nothing.
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
		return fmt.Errorf("database schema version %d is newer than this program's %d", have, len(names))
	}
	for i := have; i < len(names); i++ {
		text, err := migrations.ReadFile(names[i])
		if err != nil {
			return err
		}
		err = db.tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, string(text)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(i+1))
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
	}
	return nil
}

// tx runs f in a write transaction, committing if it returns nil. It
// refuses to write, and reports a write as failed, when the database file
// is no longer at its path (ErrReplaced): that write would be lost.
func (db *DB) tx(ctx context.Context, f func(*sql.Tx) error) error {
	if err := db.file.check(); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.file.check()
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
