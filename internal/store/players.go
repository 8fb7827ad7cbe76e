package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Seen records that player was seen at at, if the store knows player: a
// player recorded before, or one owning a row PruneUnseen would delete
// (docs/api.md, "Retention"). It reports whether it knows player. It
// reads first, on the read pool, so that a made-up identity, or one
// recorded at at or later already, costs no write; an earlier time never
// replaces a later one (servers' clocks, a clock stepping back).
func (db *DB) Seen(ctx context.Context, player string, at time.Time) (bool, error) {
	var seen int64
	err := db.r.QueryRowContext(ctx, `SELECT seen FROM players WHERE player = ?`, player).Scan(&seen)
	switch {
	case err == nil:
		if seen >= millis(at) {
			return true, nil
		}
	case errors.Is(err, sql.ErrNoRows):
		var owns bool
		if err := db.r.QueryRowContext(ctx, ownsRow, player, "p:"+player).Scan(&owns); err != nil {
			return false, err
		}
		if !owns {
			return false, nil
		}
	default:
		return false, err
	}
	return true, db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO players (player, seen) VALUES (?, ?)
			ON CONFLICT (player) DO UPDATE SET seen = excluded.seen WHERE excluded.seen > players.seen`,
			player, millis(at))
		return err
	})
}

// ownsRow is whether the player (first argument; the second is its rating's
// key) has a row PruneUnseen deletes: each lookup uses an index.
const ownsRow = `SELECT EXISTS (SELECT 1 FROM games WHERE player = ?1)
	OR EXISTS (SELECT 1 FROM saves WHERE player = ?1)
	OR EXISTS (SELECT 1 FROM results WHERE player = ?1)
	OR EXISTS (SELECT 1 FROM settings WHERE player = ?1)
	OR EXISTS (SELECT 1 FROM ratings WHERE entrant = ?2 AND bot = 0)`

// unseen selects the players last seen before the query's first argument.
const unseen = `SELECT player FROM players WHERE seen < ?`

// PruneUnseen deletes everything of the players last seen before before
// (their games with their logs, named saves, results, settings and a
// person's rating), pruneBatch rows a transaction, and then their record;
// it returns how many players it forgot. A player seen again meanwhile
// keeps their record and whatever they store from then on.
func (db *DB) PruneUnseen(ctx context.Context, before time.Time) (int64, error) {
	at := millis(before)
	for _, q := range []string{
		`DELETE FROM games WHERE id IN (SELECT id FROM games WHERE player IN (` + unseen + `) LIMIT ?)`,
		`DELETE FROM saves WHERE rowid IN (SELECT rowid FROM saves WHERE player IN (` + unseen + `) LIMIT ?)`,
		`DELETE FROM results WHERE rowid IN (SELECT rowid FROM results WHERE player IN (` + unseen + `) LIMIT ?)`,
		`DELETE FROM settings WHERE rowid IN (SELECT rowid FROM settings WHERE player IN (` + unseen + `) LIMIT ?)`,
		`DELETE FROM ratings WHERE entrant IN (SELECT entrant FROM ratings
			WHERE bot = 0 AND entrant IN (SELECT 'p:' || player FROM players WHERE seen < ?) LIMIT ?)`,
	} {
		if _, err := db.pruneLoop(ctx, q, at); err != nil {
			return 0, err
		}
	}
	return db.pruneLoop(ctx, `DELETE FROM players WHERE player IN (`+unseen+` LIMIT ?)`, at)
}
