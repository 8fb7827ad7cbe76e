package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

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
	ID     string
	Player string
	// Lineage groups a game with the games opened from its named saves:
	// statistics count a lineage once.
	Lineage string
	// Save is the game's last snapshot (spider save format) and Log the
	// commands accepted since, oldest first: replaying Log on Save gives
	// the game.
	Save string
	Log  []string
	// Version counts the game's writes; a Change must name the version it
	// was based on.
	Version int64
	Summary
	Created, Updated time.Time
}

// Change is one accepted command on a stored game.
type Change struct {
	ID, Player string
	// Version is the version the command was applied to; the change is
	// refused (ErrStale) if the stored game is at another.
	Version int64
	// Cmd is appended to the game's log.
	Cmd string
	// Snapshot, if not empty, is the whole game after Cmd: it replaces the
	// save and empties the log (Cmd included, being in it).
	Snapshot string
	Summary
	Updated time.Time
}

// CreateGame stores a new game at version 1 with an empty log (g.Log and
// g.Version are ignored).
func (db *DB) CreateGame(ctx context.Context, g GameRecord) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, player, lineage, save, variant, suits, deal, moves, score, created, updated,
			 version, logn)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0)`,
			g.ID, g.Player, g.Lineage, g.Save, g.Variant, g.Suits, strconv.FormatUint(g.Deal, 10),
			g.Moves, g.Score, millis(g.Created), millis(g.Updated))
		return err
	})
}

// UpdateGame stores one accepted command on a game, and in the same
// transaction the results given (see RecordResult). Its cost does not grow
// with the game's length, except on a snapshot. It returns ErrStale if the
// game is not at c.Version (nothing is written), ErrNotFound if the game
// does not exist for c.Player.
func (db *DB) UpdateGame(ctx context.Context, c Change, results ...Result) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		var logn int64
		var err error
		if c.Snapshot != "" {
			err = tx.QueryRowContext(ctx, `UPDATE games SET save = ?, logn = 0, moves = ?, score = ?,
				updated = ?, version = version + 1
				WHERE id = ? AND player = ? AND version = ? RETURNING logn`,
				c.Snapshot, c.Moves, c.Score, millis(c.Updated), c.ID, c.Player, c.Version).Scan(&logn)
		} else {
			err = tx.QueryRowContext(ctx, `UPDATE games SET logn = logn + 1, moves = ?, score = ?,
				updated = ?, version = version + 1
				WHERE id = ? AND player = ? AND version = ? RETURNING logn`,
				c.Moves, c.Score, millis(c.Updated), c.ID, c.Player, c.Version).Scan(&logn)
		}
		if errors.Is(err, sql.ErrNoRows) {
			var v int64
			err := tx.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ? AND player = ?`,
				c.ID, c.Player).Scan(&v)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("game %q: %w", c.ID, ErrNotFound)
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("game %q at version %d, the change was based on %d: %w", c.ID, v, c.Version, ErrStale)
		}
		if err != nil {
			return err
		}
		if c.Snapshot != "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM game_log WHERE game = ?`, c.ID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO game_log (game, seq, cmd) VALUES (?, ?, ?)`,
				c.ID, logn-1, c.Cmd)
		}
		if err != nil {
			return err
		}
		for _, r := range results {
			if err := recordResult(ctx, tx, c.Player, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// Game returns player's stored game id, with its log.
func (db *DB) Game(ctx context.Context, player, id string) (GameRecord, error) {
	var g GameRecord
	var deal string
	var created, updated, logn int64
	// One read transaction, so the log matches the row.
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return g, err
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, `SELECT id, player, lineage, save, variant, suits, deal, moves,
		score, created, updated, version, logn FROM games WHERE id = ? AND player = ?`, id, player).Scan(
		&g.ID, &g.Player, &g.Lineage, &g.Save, &g.Variant, &g.Suits, &deal, &g.Moves, &g.Score,
		&created, &updated, &g.Version, &logn)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, err
	}
	g.Deal, _ = strconv.ParseUint(deal, 10, 64)
	g.Created, g.Updated = fromMillis(created), fromMillis(updated)
	rows, err := tx.QueryContext(ctx, `SELECT cmd FROM game_log WHERE game = ? ORDER BY seq`, id)
	if err != nil {
		return g, err
	}
	defer rows.Close()
	g.Log = make([]string, 0, logn)
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return g, err
		}
		g.Log = append(g.Log, c)
	}
	if err := rows.Err(); err != nil {
		return g, err
	}
	if int64(len(g.Log)) != logn {
		return g, fmt.Errorf("game %q: %d log rows, the game says %d", id, len(g.Log), logn)
	}
	return g, nil
}

// GameVersion is the stored version of game id (any player's), or
// ErrNotFound.
func (db *DB) GameVersion(ctx context.Context, id string) (int64, error) {
	var v int64
	err := db.r.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ?`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return v, err
}

// CountGames is the number of stored games.
func (db *DB) CountGames(ctx context.Context) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&n)
	return n, err
}

// pruneBatch bounds the rows one pruning transaction deletes, so that moves
// queued behind it wait milliseconds, not seconds.
const pruneBatch = 500

// PruneGames deletes the games last changed before idle, and the games with
// no move played last changed before unplayed, with their logs. Named saves
// and statistics stay. It returns how many games it deleted.
func (db *DB) PruneGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	var total int64
	for {
		var n int64
		err := db.tx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id IN (
				SELECT id FROM games WHERE updated < ? OR (moves = 0 AND updated < ?) LIMIT ?)`,
				millis(idle), millis(unplayed), pruneBatch)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}
