package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/spidergame"
)

var _ spidergame.Store = (*DB)(nil)

// CreateGame stores a new game at version 1 with an empty log (g.Log and
// g.Version are ignored), and in the same transaction the results given.
func (db *DB) CreateGame(ctx context.Context, g spidergame.Game, results ...spidergame.Result) error {
	return db.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO games
			(id, player, lineage, save, variant, suits, deal, moves, score, created, updated,
			 version, logn, played, gave_up)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, 0, $12, $13)`,
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
// transaction the results given: ErrStale if the game is not at
// c.Version, ErrNotFound if it is not c.Player's; nothing is written then.
func (db *DB) UpdateGame(ctx context.Context, c spidergame.Change, results ...spidergame.Result) error {
	return db.tx(ctx, func(tx pgx.Tx) error {
		var logn int64
		var err error
		// The row lock of the UPDATE orders concurrent writers of a game:
		// the second sees the first's version and changes nothing.
		if c.Snapshot != "" {
			err = tx.QueryRow(ctx, `UPDATE games SET save = $1, logn = 0, moves = $2, score = $3,
				updated = $4, played = $5, version = version + 1
				WHERE id = $6 AND player = $7 AND version = $8 RETURNING logn`,
				c.Snapshot, c.Moves, c.Score, millis(c.Updated), c.Played.Milliseconds(),
				c.ID, c.Player, c.Version).Scan(&logn)
		} else {
			err = tx.QueryRow(ctx, `UPDATE games SET logn = logn + 1, moves = $1, score = $2,
				updated = $3, played = $4, version = version + 1
				WHERE id = $5 AND player = $6 AND version = $7 RETURNING logn`,
				c.Moves, c.Score, millis(c.Updated), c.Played.Milliseconds(),
				c.ID, c.Player, c.Version).Scan(&logn)
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return missed(ctx, tx, c.Player, c.ID, c.Version)
		}
		if err != nil {
			return err
		}
		if c.Snapshot != "" {
			_, err = tx.Exec(ctx, `DELETE FROM game_log WHERE game = $1`, c.ID)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO game_log (game, seq, cmd) VALUES ($1, $2, $3)`,
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
// version that changed no row.
func missed(ctx context.Context, tx pgx.Tx, player, id string, version int64) error {
	var v int64
	err := tx.QueryRow(ctx, `SELECT version FROM games WHERE id = $1 AND player = $2`, id, player).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("game %q at version %d, the change was based on %d: %w", id, v, version, ErrStale)
}

// GiveUp marks player's game id, at version, given up for its analysis,
// and records r as its lineage's final loss, in one transaction.
func (db *DB) GiveUp(ctx context.Context, player, id string, version int64, at time.Time, r spidergame.Result) error {
	if r.Won {
		return errors.New("giving up a game with a win")
	}
	r.GaveUp = true
	return db.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE games SET gave_up = true, updated = $1, version = version + 1
			WHERE id = $2 AND player = $3 AND version = $4`, millis(at), id, player, version)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return missed(ctx, tx, player, id, version)
		}
		return recordResult(ctx, tx, player, r)
	})
}

// Game returns player's stored game id, with its log.
func (db *DB) Game(ctx context.Context, player, id string) (spidergame.Game, error) {
	var g spidergame.Game
	err := db.read(ctx, func(tx pgx.Tx) error {
		var deal string
		var created, updated, logn, played int64
		err := tx.QueryRow(ctx, `SELECT id, player, lineage, save, variant, suits, deal, moves,
			score, created, updated, version, logn, played, gave_up FROM games WHERE id = $1 AND player = $2`,
			id, player).Scan(&g.ID, &g.Player, &g.Lineage, &g.Save, &g.Variant, &g.Suits, &deal, &g.Moves,
			&g.Score, &created, &updated, &g.Version, &logn, &played, &g.GaveUp)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("game %q: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if g.Deal, err = spidergame.ParseDeal(deal); err != nil {
			return fmt.Errorf("game %q: %w", id, err)
		}
		g.Created, g.Updated = fromMillis(created), fromMillis(updated)
		g.Played = time.Duration(played) * time.Millisecond
		rows, err := tx.Query(ctx, `SELECT cmd FROM game_log WHERE game = $1 ORDER BY seq`, id)
		if err != nil {
			return err
		}
		g.Log, err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		if int64(len(g.Log)) != logn {
			return fmt.Errorf("game %q: %d log rows, the game says %d", id, len(g.Log), logn)
		}
		return nil
	})
	if g.Log == nil && err == nil {
		g.Log = []string{}
	}
	return g, err
}

// GameVersion is the stored version of game id (any player's), or
// ErrNotFound.
func (db *DB) GameVersion(ctx context.Context, id string) (int64, error) {
	var v int64
	err := db.pool.QueryRow(ctx, `SELECT version FROM games WHERE id = $1`, id).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return v, err
}

// CountGames is the number of stored games.
func (db *DB) CountGames(ctx context.Context) (int, error) {
	var n int
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&n)
	return n, err
}

// pruneBatch bounds the rows one pruning transaction deletes, so that
// writes waiting on those rows wait milliseconds, not seconds.
const pruneBatch = 500

// PruneGames deletes the games last changed before idle, and the games
// with no move played last changed before unplayed, with their logs, then
// the settings of players left with nothing else. It returns how many
// games it deleted.
func (db *DB) PruneGames(ctx context.Context, idle, unplayed time.Time) (int64, error) {
	n, err := db.pruneLoop(ctx, `DELETE FROM games WHERE id IN (
		SELECT id FROM games WHERE updated < $1 OR (moves = 0 AND updated < $2) LIMIT $3)`,
		millis(idle), millis(unplayed))
	if err != nil {
		return n, err
	}
	_, err = db.pruneLoop(ctx, `DELETE FROM settings WHERE player IN (
		SELECT s.player FROM settings s WHERE s.player != ''
		AND NOT EXISTS (SELECT 1 FROM games g WHERE g.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM saves v WHERE v.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM results r WHERE r.player = s.player)
		LIMIT $1)`)
	return n, err
}

// pruneLoop runs a DELETE bounded by LIMIT pruneBatch (its last
// parameter) until it deletes fewer, each round its own transaction.
func (db *DB) pruneLoop(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, pruneBatch)
	var total int64
	for {
		tag, err := db.exec(ctx, query, args...)
		if err != nil {
			return total, err
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < pruneBatch {
			return total, nil
		}
	}
}
