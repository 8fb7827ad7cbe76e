// Package store keeps cardtable's games, named saves, statistics and
// settings in SQLite (modernc.org/sqlite, no cgo). The schema comes from the
// embedded migrations, applied when the database is opened.
//
// The store knows nothing of the rules: a game is its save text plus a few
// columns copied out of it for listing.
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
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// ErrNotFound is returned when a game or a save does not exist.
var ErrNotFound = errors.New("not found")

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
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
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

// Summary is what listings show of a game: copied from its save text.
type Summary struct {
	Variant string
	Suits   int
	Deal    uint64 // 0 for a custom position
	Moves   int
	Score   int
}

// GameRecord is a stored game in play.
type GameRecord struct {
	ID string
	// Lineage groups a game with the games opened from its named saves:
	// statistics count a lineage once.
	Lineage string
	Save    string // spider save format
	Summary
	Created, Updated time.Time
}

// Result is one statistics entry: how a game lineage ended.
type Result struct {
	Lineage string
	Variant string
	Suits   int
	Won     bool
	Score   int
	At      time.Time
}

// CreateGame stores a new game.
func (db *DB) CreateGame(ctx context.Context, g GameRecord) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, lineage, save, variant, suits, deal, moves, score, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.Lineage, g.Save, g.Variant, g.Suits, strconv.FormatUint(g.Deal, 10),
			g.Moves, g.Score, millis(g.Created), millis(g.Updated))
		return err
	})
}

// UpdateGame stores a game's new state and, in the same transaction, the
// results given (see RecordResult). It returns ErrNotFound if the game does
// not exist.
func (db *DB) UpdateGame(ctx context.Context, g GameRecord, results ...Result) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET save = ?, variant = ?, suits = ?,
			deal = ?, moves = ?, score = ?, updated = ? WHERE id = ?`,
			g.Save, g.Variant, g.Suits, strconv.FormatUint(g.Deal, 10), g.Moves, g.Score,
			millis(g.Updated), g.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("game %q: %w", g.ID, ErrNotFound)
		}
		for _, r := range results {
			if err := recordResult(ctx, tx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// Game returns the stored game id.
func (db *DB) Game(ctx context.Context, id string) (GameRecord, error) {
	var g GameRecord
	var deal string
	var created, updated int64
	err := db.r.QueryRowContext(ctx, `SELECT id, lineage, save, variant, suits, deal, moves,
		score, created, updated FROM games WHERE id = ?`, id).Scan(
		&g.ID, &g.Lineage, &g.Save, &g.Variant, &g.Suits, &deal, &g.Moves, &g.Score, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, err
	}
	g.Deal, _ = strconv.ParseUint(deal, 10, 64)
	g.Created, g.Updated = fromMillis(created), fromMillis(updated)
	return g, nil
}

// CountGames is the number of stored games.
func (db *DB) CountGames(ctx context.Context) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&n)
	return n, err
}

// RecordResult records how a game lineage ended. A lineage has one entry: a
// loss is recorded only if nothing is yet, and a win replaces a loss (the
// player took the moves back and went on to win) but never another win.
func (db *DB) RecordResult(ctx context.Context, r Result) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return recordResult(ctx, tx, r) })
}

func recordResult(ctx context.Context, tx *sql.Tx, r Result) error {
	if r.Lineage == "" {
		return errors.New("result without a lineage")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO results (lineage, variant, suits, won, score, at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (lineage) DO UPDATE SET won = excluded.won, score = excluded.score,
			at = excluded.at, variant = excluded.variant, suits = excluded.suits
		WHERE excluded.won = 1 AND results.won = 0`,
		r.Lineage, r.Variant, r.Suits, r.Won, r.Score, millis(r.At))
	return err
}

// SaveRecord is a named saved game.
type SaveRecord struct {
	Name    string
	Lineage string
	Save    string // empty in listings
	Summary
	Updated time.Time
}

// PutSave stores a named save, replacing any of the same name.
func (db *DB) PutSave(ctx context.Context, s SaveRecord) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO saves
			(name, lineage, save, variant, suits, deal, moves, score, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET lineage = excluded.lineage, save = excluded.save,
				variant = excluded.variant, suits = excluded.suits, deal = excluded.deal,
				moves = excluded.moves, score = excluded.score, updated = excluded.updated`,
			s.Name, s.Lineage, s.Save, s.Variant, s.Suits, strconv.FormatUint(s.Deal, 10),
			s.Moves, s.Score, millis(s.Updated))
		return err
	})
}

// Saves lists the named saves, most recently updated first, without their
// text.
func (db *DB) Saves(ctx context.Context) ([]SaveRecord, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT name, lineage, variant, suits, deal, moves, score,
		updated FROM saves ORDER BY updated DESC, name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []SaveRecord{}
	for rows.Next() {
		var s SaveRecord
		var deal string
		var updated int64
		if err := rows.Scan(&s.Name, &s.Lineage, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score, &updated); err != nil {
			return nil, err
		}
		s.Deal, _ = strconv.ParseUint(deal, 10, 64)
		s.Updated = fromMillis(updated)
		out = append(out, s)
	}
	return out, rows.Err()
}

// Save returns the named save with its text.
func (db *DB) Save(ctx context.Context, name string) (SaveRecord, error) {
	var s SaveRecord
	var deal string
	var updated int64
	err := db.r.QueryRowContext(ctx, `SELECT name, lineage, save, variant, suits, deal, moves,
		score, updated FROM saves WHERE name = ?`, name).Scan(
		&s.Name, &s.Lineage, &s.Save, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("saved game %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return s, err
	}
	s.Deal, _ = strconv.ParseUint(deal, 10, 64)
	s.Updated = fromMillis(updated)
	return s, nil
}

// DeleteSave deletes the named save.
func (db *DB) DeleteSave(ctx context.Context, name string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM saves WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("saved game %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

// Settings returns the stored settings JSON, or "{}" if none were stored.
func (db *DB) Settings(ctx context.Context) (string, error) {
	var s string
	err := db.r.QueryRowContext(ctx, `SELECT json FROM settings WHERE id = 1`).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "{}", nil
	}
	return s, err
}

// PutSettings stores the settings JSON as given. The caller validates it.
func (db *DB) PutSettings(ctx context.Context, json string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (id, json) VALUES (1, ?)
			ON CONFLICT (id) DO UPDATE SET json = excluded.json`, json)
		return err
	})
}

// HistoryLimit is how many of a group's latest results Stats returns in
// History; the counts cover every result.
const HistoryLimit = 1000

// Group is the statistics of one variant and suit count.
type Group struct {
	Variant string
	Suits   int
	Played  int
	Won     int
	// CurrentStreak is the number of wins in a row ending with the latest
	// game (0 if it was lost); LongestStreak the most wins in a row ever.
	CurrentStreak int
	LongestStreak int
	// BestScore is the highest counted score of any game, won or lost
	// (0 when none).
	BestScore int
	History   []Result // oldest first, the latest HistoryLimit
}

// WinRate is the share of games won, 0 to 1 (0 when none played).
func (g Group) WinRate() float64 {
	if g.Played == 0 {
		return 0
	}
	return float64(g.Won) / float64(g.Played)
}

// Variants and SuitCounts fix the statistics groups and their order.
var (
	Variants   = []string{"arachnid", "spider"}
	SuitCounts = []int{1, 2, 4}
)

// Stats returns the statistics of every variant and suit count, in the order
// of Variants then SuitCounts, including groups with no games.
func (db *DB) Stats(ctx context.Context) ([]Group, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT lineage, variant, suits, won, score, at
		FROM results ORDER BY at, rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var groups []Group
	index := map[string]int{}
	key := func(v string, s int) string { return v + "/" + strconv.Itoa(s) }
	for _, v := range Variants {
		for _, s := range SuitCounts {
			index[key(v, s)] = len(groups)
			groups = append(groups, Group{Variant: v, Suits: s, History: []Result{}})
		}
	}
	for rows.Next() {
		var r Result
		var at int64
		if err := rows.Scan(&r.Lineage, &r.Variant, &r.Suits, &r.Won, &r.Score, &at); err != nil {
			return nil, err
		}
		r.At = fromMillis(at)
		i, ok := index[key(strings.ToLower(r.Variant), r.Suits)]
		if !ok {
			continue // not a group this program knows; kept, not shown
		}
		g := &groups[i]
		g.Played++
		if r.Won {
			g.Won++
			g.CurrentStreak++
			g.LongestStreak = max(g.LongestStreak, g.CurrentStreak)
		} else {
			g.CurrentStreak = 0
		}
		if g.Played == 1 || r.Score > g.BestScore {
			g.BestScore = r.Score
		}
		g.History = append(g.History, r)
		if len(g.History) > HistoryLimit {
			g.History = g.History[len(g.History)-HistoryLimit:]
		}
	}
	return groups, rows.Err()
}
