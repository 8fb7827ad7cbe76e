package pgstore

import (
	"context"
	"time"
)

// Seen records that player was seen at at, if the store knows player: a
// player recorded before, or one owning a row PruneUnseen would delete
// (docs/api.md, "Retention"). It reports whether it knows player. It
// reads first, so that a made-up identity, or one recorded at at or later
// already, costs no write; an earlier time never replaces a later one
// (servers' clocks differ, and each records the player once a day).
func (db *DB) Seen(ctx context.Context, player string, at time.Time) (bool, error) {
	var recorded, owned bool
	var seen int64
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM players WHERE player = $1),
		COALESCE((SELECT seen FROM players WHERE player = $1), 0), `+owns, player, "p:"+player).Scan(&recorded, &seen, &owned)
	if err != nil {
		return false, err
	}
	if recorded && seen >= millis(at) {
		return true, nil
	}
	if !recorded && !owned {
		return false, nil
	}
	_, err = db.exec(ctx, `INSERT INTO players (player, seen) VALUES ($1, $2)
		ON CONFLICT (player) DO UPDATE SET seen = excluded.seen WHERE excluded.seen > players.seen`,
		player, millis(at))
	return true, full(err)
}

// owns is whether the player ($1; $2 is its rating's key) has a row
// PruneUnseen deletes: each lookup uses an index.
const owns = `EXISTS (SELECT 1 FROM games WHERE player = $1)
	OR EXISTS (SELECT 1 FROM saves WHERE player = $1)
	OR EXISTS (SELECT 1 FROM results WHERE player = $1)
	OR EXISTS (SELECT 1 FROM settings WHERE player = $1)
	OR EXISTS (SELECT 1 FROM ratings WHERE entrant = $2 AND NOT bot)`

// unseen selects the players last seen before the query's first argument.
const unseen = `SELECT player FROM players WHERE seen < $1`

// PruneUnseen deletes everything of the players last seen before before
// (their games with their logs, named saves, results, settings and a
// person's rating), pruneBatch rows a transaction, and then their record;
// it returns how many players it forgot. A player seen again meanwhile
// keeps their record and whatever they store from then on.
func (db *DB) PruneUnseen(ctx context.Context, before time.Time) (int64, error) {
	at := millis(before)
	for _, q := range []string{
		`DELETE FROM games WHERE id IN (SELECT id FROM games WHERE player IN (` + unseen + `) LIMIT $2)`,
		`DELETE FROM saves WHERE ctid IN (SELECT ctid FROM saves WHERE player IN (` + unseen + `) LIMIT $2)`,
		`DELETE FROM results WHERE n IN (SELECT n FROM results WHERE player IN (` + unseen + `) LIMIT $2)`,
		`DELETE FROM settings WHERE player IN (SELECT player FROM settings WHERE player IN (` + unseen + `) LIMIT $2)`,
		`DELETE FROM ratings WHERE entrant IN (SELECT entrant FROM ratings
			WHERE NOT bot AND entrant IN (SELECT 'p:' || player FROM players WHERE seen < $1) LIMIT $2)`,
	} {
		if _, err := db.pruneLoop(ctx, q, at); err != nil {
			return 0, err
		}
	}
	return db.pruneLoop(ctx, `DELETE FROM players WHERE player IN (`+unseen+` LIMIT $2)`, at)
}
