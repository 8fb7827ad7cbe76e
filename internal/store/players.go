package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Seen records that player was seen at now, if the store knows player: a
// player recorded before, or one owning a row PruneUnseen would delete
// (docs/api.md, "Retention"). It reports whether it knows player. It
// reads first, on the read pool, so that a made-up identity, or one
// recorded at now or later already, costs no write; an earlier time never
// replaces a later one (a clock stepping back). One server uses a SQLite
// database, so its clock is the only one.
func (db *DB) Seen(ctx context.Context, player string, now time.Time) (bool, error) {
	var seen int64
	err := db.r.QueryRowContext(ctx, `SELECT seen FROM players WHERE player = ?`, player).Scan(&seen)
	switch {
	case err == nil:
		if seen >= millis(now) {
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
			player, millis(now))
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

// forgetBatch is how many players PruneUnseen forgets at a time: their
// rows are found through each table's player index, so a batch costs the
// same however many players wait to be forgotten.
const forgetBatch = 100

// PruneUnseen deletes everything of the players last seen more than age
// before now (their games with their logs, named saves, results,
// settings and a person's rating), and then their record, forgetBatch
// players at a time, each table's rows pruneBatch a transaction; it
// returns how many players it forgot. A player seen again meanwhile keeps
// their record and whatever is not deleted yet.
func (db *DB) PruneUnseen(ctx context.Context, now time.Time, age time.Duration) (int64, error) {
	before := millis(now.Add(-age))
	var total int64
	for {
		ids, err := db.unseen(ctx, before)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		n, err := db.forget(ctx, ids, before)
		total += n
		if err != nil || len(ids) < forgetBatch {
			return total, err
		}
	}
}

// unseen is the next forgetBatch players last seen before before, the
// longest unseen first (through the players_seen index).
func (db *DB) unseen(ctx context.Context, before int64) ([]any, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT player FROM players WHERE seen < ? ORDER BY seen LIMIT ?`, before, forgetBatch)
	if err != nil {
		return nil, fmt.Errorf("reading the players table: %w", err)
	}
	defer rows.Close()
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("reading the players table: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the players table: %w", err)
	}
	return ids, nil
}

// forget deletes the rows of the players ids still unseen since before,
// then their record, and returns how many records it deleted.
func (db *DB) forget(ctx context.Context, ids []any, before int64) (int64, error) {
	marks := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	still := `SELECT player FROM players WHERE player IN (` + marks + `) AND seen < ?`
	args := append(append([]any{}, ids...), before)
	for _, step := range []struct{ table, q string }{
		{"games", `DELETE FROM games WHERE id IN (SELECT id FROM games WHERE player IN (` + still + `) LIMIT ?)`},
		{"saves", `DELETE FROM saves WHERE rowid IN (SELECT rowid FROM saves WHERE player IN (` + still + `) LIMIT ?)`},
		{"results", `DELETE FROM results WHERE rowid IN (SELECT rowid FROM results WHERE player IN (` + still + `) LIMIT ?)`},
		{"settings", `DELETE FROM settings WHERE rowid IN (SELECT rowid FROM settings WHERE player IN (` + still + `) LIMIT ?)`},
		{"ratings", `DELETE FROM ratings WHERE entrant IN (SELECT entrant FROM ratings
			WHERE bot = 0 AND entrant IN (SELECT 'p:' || player FROM (` + still + `)) LIMIT ?)`},
	} {
		if _, err := db.pruneLoop(ctx, step.q, args...); err != nil {
			return 0, fmt.Errorf("deleting unseen players' rows from %s: %w", step.table, err)
		}
	}
	n, err := db.pruneLoop(ctx, `DELETE FROM players WHERE player IN (SELECT player FROM (`+still+`) LIMIT ?)`, args...)
	if err != nil {
		return n, fmt.Errorf("deleting unseen players from the players table: %w", err)
	}
	return n, nil
}
