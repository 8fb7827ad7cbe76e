package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"cardtable/internal/spidergame"
)

// The record types of Spider play are declared in internal/spidergame,
// whose store interfaces these methods implement; these names keep the
// store's API.
type (
	Summary    = spidergame.Summary
	GameRecord = spidergame.Game
	Change     = spidergame.Change
	Result     = spidergame.Result
	SaveRecord = spidergame.Save
	Group      = spidergame.Group
)

// CreateGame stores a new game at version 1 with an empty log (g.Log and
// g.Version are ignored), and in the same transaction the results given
// (see RecordResult): a game opened already given up stores its mark and
// its loss together.
func (db *DB) CreateGame(ctx context.Context, g GameRecord, results ...Result) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games
			(id, player, lineage, save, variant, suits, deal, moves, score, created, updated,
			 version, logn, played, gave_up)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?)`,
			g.ID, g.Player, g.Lineage, g.Save, g.Variant, g.Suits, strconv.FormatUint(g.Deal, 10),
			g.Moves, g.Score, millis(g.Created), millis(g.Updated), g.Played.Milliseconds(), g.GaveUp)
		if err != nil {
			return err
		}
		for _, r := range results {
			if err := recordResult(ctx, tx, g.Player, r); err != nil {
				return err
			}
		}
		return nil
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
				updated = ?, played = ?, version = version + 1
				WHERE id = ? AND player = ? AND version = ? RETURNING logn`,
				c.Snapshot, c.Moves, c.Score, millis(c.Updated), c.Played.Milliseconds(),
				c.ID, c.Player, c.Version).Scan(&logn)
		} else {
			err = tx.QueryRowContext(ctx, `UPDATE games SET logn = logn + 1, moves = ?, score = ?,
				updated = ?, played = ?, version = version + 1
				WHERE id = ? AND player = ? AND version = ? RETURNING logn`,
				c.Moves, c.Score, millis(c.Updated), c.Played.Milliseconds(),
				c.ID, c.Player, c.Version).Scan(&logn)
		}
		if errors.Is(err, sql.ErrNoRows) {
			return missed(ctx, tx, c.Player, c.ID, c.Version)
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

// missed is the error of a conditional write to player's game id at
// version that changed no row: the game is not found, or is at another
// version.
func missed(ctx context.Context, tx *sql.Tx, player, id string, version int64) error {
	var v int64
	err := tx.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ? AND player = ?`,
		id, player).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("game %q at version %d, the change was based on %d: %w", id, v, version, ErrStale)
}

// GiveUp marks player's game id, at version, as given up for its analysis
// (docs/analysis.md "The web route"): it takes no more commands. In the
// same transaction it records r, the loss, as final for the lineage
// (Result.GaveUp), which gives up the lineage's other games too, unless
// the lineage was won (RecordResult). The game's version goes up by one,
// as with a command. ErrStale and ErrNotFound as for UpdateGame; nothing is written then.
func (db *DB) GiveUp(ctx context.Context, player, id string, version int64, at time.Time, r Result) error {
	if r.Won {
		return errors.New("giving up a game with a win")
	}
	r.GaveUp = true
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET gave_up = 1, updated = ?, version = version + 1
			WHERE id = ? AND player = ? AND version = ?`, millis(at), id, player, version)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return missed(ctx, tx, player, id, version)
		}
		return recordResult(ctx, tx, player, r)
	})
}

// Game returns player's stored game id, with its log.
func (db *DB) Game(ctx context.Context, player, id string) (GameRecord, error) {
	var g GameRecord
	var deal string
	var created, updated, logn, played int64
	var gaveUp bool
	// One read transaction, so the log matches the row.
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return g, err
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, `SELECT id, player, lineage, save, variant, suits, deal, moves,
		score, created, updated, version, logn, played, gave_up FROM games WHERE id = ? AND player = ?`, id, player).Scan(
		&g.ID, &g.Player, &g.Lineage, &g.Save, &g.Variant, &g.Suits, &deal, &g.Moves, &g.Score,
		&created, &updated, &g.Version, &logn, &played, &gaveUp)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return g, err
	}
	if g.Deal, err = spidergame.ParseDeal(deal); err != nil {
		return g, fmt.Errorf("game %q: %w", id, err)
	}
	g.Created, g.Updated = fromMillis(created), fromMillis(updated)
	g.Played = time.Duration(played) * time.Millisecond
	g.GaveUp = gaveUp
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
// no move played last changed before unplayed, with their logs, then the
// settings of players left with nothing else. Named saves and statistics
// stay. It returns how many games it deleted.
func (db *DB) PruneGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	total, err := db.pruneLoop(ctx, `DELETE FROM games WHERE id IN (
		SELECT id FROM games WHERE updated < ? OR (moves = 0 AND updated < ?) LIMIT ?)`,
		millis(idle), millis(unplayed))
	if err != nil {
		return total, err
	}
	return total, db.pruneSettings(ctx)
}

// pruneSettings deletes the settings of players who have nothing else
// stored (no game, save or result): what a stream of throwaway identities
// leaves, or a player whose games were all pruned and who never saved or
// finished one. The legacy player's wait for their owner.
func (db *DB) pruneSettings(ctx context.Context) error {
	_, err := db.pruneLoop(ctx, `DELETE FROM settings WHERE rowid IN (
		SELECT s.rowid FROM settings s WHERE s.player != ''
		AND NOT EXISTS (SELECT 1 FROM games g WHERE g.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM saves v WHERE v.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM results r WHERE r.player = s.player)
		LIMIT ?)`)
	return err
}

// pruneLoop runs query, a DELETE whose last argument is its batch's
// LIMIT, one transaction a batch, until a batch deletes fewer than
// pruneBatch rows; it returns how many it deleted.
func (db *DB) pruneLoop(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, pruneBatch)
	var total int64
	for {
		var n int64
		err := db.tx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, query, args...)
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
