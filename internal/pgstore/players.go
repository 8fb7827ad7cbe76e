package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// dbNow is the database's clock in Unix milliseconds. Servers sharing one
// database need not agree on the time (docs/scaling.md): when a player
// was seen, and how long ago, are both read on this one clock.
const dbNow = `(extract(epoch FROM now()) * 1000)::bigint`

// Seen records that player was seen now by the database's clock (the
// server's, now, is not used), if the store knows player: a player
// recorded before, or one owning a row PruneUnseen would delete
// (docs/api.md, "Retention"). It reports whether it knows player. One
// statement (seenQuery) reads the record once and writes only when it
// must, so that a made-up identity, or one recorded at this time
// already, costs no write; an earlier time never replaces a later one.
func (db *DB) Seen(ctx context.Context, player string, _ time.Time) (bool, error) {
	var known bool
	if err := db.pool.QueryRow(ctx, seenQuery, player, "p:"+player).Scan(&known); err != nil {
		return false, full(err)
	}
	return known, nil
}

// seenQuery is Seen's statement ($1 the player, $2 its rating's key). Its
// parts read one snapshot: cur is the record (read once), known whether
// the store knows the player (owns is looked up only without a record:
// CASE evaluates its branches in order), and the insert writes a record
// only for a known player not recorded at this time or later. A
// statement that inserts no row takes no transaction id, as a read
// does. Under concurrency it is as safe as a read followed by the
// insert: ON CONFLICT settles a record another connection wrote or
// moved on since the snapshot, keeping the later time, and a record
// PruneUnseen deleted meanwhile is written again, as it was by the
// read and the insert as two statements.
const seenQuery = `WITH cur AS (SELECT seen FROM players WHERE player = $1),
	k AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM cur) THEN true ELSE (` + owns + `) END AS known,
		` + dbNow + ` AS at),
	ins AS (INSERT INTO players (player, seen)
		SELECT $1, at FROM k WHERE known AND NOT EXISTS (SELECT 1 FROM cur WHERE seen >= k.at)
		ON CONFLICT (player) DO UPDATE SET seen = excluded.seen WHERE excluded.seen > players.seen)
	SELECT known FROM k`

// owns is whether the player ($1; $2 is its rating's key) has a row
// PruneUnseen deletes: each lookup uses an index.
const owns = `EXISTS (SELECT 1 FROM games WHERE player = $1)
	OR EXISTS (SELECT 1 FROM saves WHERE player = $1)
	OR EXISTS (SELECT 1 FROM results WHERE player = $1)
	OR EXISTS (SELECT 1 FROM settings WHERE player = $1)
	OR EXISTS (SELECT 1 FROM ratings WHERE entrant = $2 AND NOT bot)`

// forgetBatch is how many players PruneUnseen forgets at a time: their
// rows are found through each table's player index, so a batch costs the
// same however many players wait to be forgotten.
const forgetBatch = 100

// PruneUnseen deletes everything of the players last seen more than age
// before the database's now (the server's, now, is not used): their games
// with their logs, named saves, results, settings and a person's rating,
// and then their record, forgetBatch players at a time, each table's rows
// pruneBatch a transaction. It returns how many players it forgot. A
// player seen again meanwhile keeps their record and whatever is not
// deleted yet.
func (db *DB) PruneUnseen(ctx context.Context, _ time.Time, age time.Duration) (int64, error) {
	var before int64
	if err := db.pool.QueryRow(ctx, `SELECT `+dbNow+` - $1::bigint`, age.Milliseconds()).Scan(&before); err != nil {
		return 0, fmt.Errorf("reading the database's clock: %w", err)
	}
	var total int64
	for {
		ids, err := db.unseen(ctx, before)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		n, err := db.forget(ctx, ids, before)
		total += n
		// n == 0: every record of a full batch was skipped (locked) or
		// seen again; the next round takes them up, rather than this one
		// reading the same batch while its locks are held.
		if err != nil || len(ids) < forgetBatch || n == 0 {
			return total, err
		}
	}
}

// unseen is the next forgetBatch players last seen before before, the
// longest unseen first (through the players_seen index).
func (db *DB) unseen(ctx context.Context, before int64) ([]string, error) {
	rows, err := db.pool.Query(ctx, `SELECT player FROM players WHERE seen < $1 ORDER BY seen LIMIT $2`, before, forgetBatch)
	if err != nil {
		return nil, fmt.Errorf("reading the players table: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("reading the players table: %w", err)
	}
	return ids, nil
}

// still locks the players rows of $1 still unseen since $2, leaving out
// any a transaction holds: a Seen under way (or done since the
// statement's snapshot, re-checked on the row's newest version). Each
// delete then runs with its players' rows locked, so a return either
// commits before the delete, and the delete leaves that player out, or
// waits for it (READ COMMITTED re-checks only a statement's top-level
// condition, not a subquery's, so the rows must be locked, not merely
// read). SKIP LOCKED: pruning never waits for a player's record. It can
// still meet a rated game's end in the other order (the end locks the
// rating, then records the player): PostgreSQL then aborts one of the
// two, and a pruning round aborted so is retried the next hour. Neither
// is likely: the rated player would have to be unseen for 402 days.
const still = `WITH s AS (SELECT player FROM players WHERE player = ANY($1) AND seen < $2 FOR UPDATE SKIP LOCKED) `

// forget deletes the rows of the players ids still unseen since before,
// then their record, and returns how many records it deleted. Each row is
// named by an indexed key (not results' n or a ctid, which would make
// every batch scan its table).
func (db *DB) forget(ctx context.Context, ids []string, before int64) (int64, error) {
	for _, step := range []struct{ table, q string }{
		{"games", `DELETE FROM games WHERE id IN (SELECT id FROM games WHERE player IN (SELECT player FROM s) LIMIT $3)`},
		{"saves", `DELETE FROM saves WHERE (player, name) IN (SELECT player, name FROM saves WHERE player IN (SELECT player FROM s) LIMIT $3)`},
		{"results", `DELETE FROM results WHERE lineage IN (SELECT lineage FROM results WHERE player IN (SELECT player FROM s) LIMIT $3)`},
		{"settings", `DELETE FROM settings WHERE player IN (SELECT player FROM settings WHERE player IN (SELECT player FROM s) LIMIT $3)`},
		{"ratings", `DELETE FROM ratings WHERE entrant IN (SELECT entrant FROM ratings
			WHERE NOT bot AND entrant IN (SELECT 'p:' || player FROM s) LIMIT $3)`},
	} {
		if _, err := db.pruneLoop(ctx, still+step.q, ids, before); err != nil {
			return 0, fmt.Errorf("deleting unseen players' rows from %s: %w", step.table, err)
		}
	}
	// Only a record whose player now owns nothing goes: a player skipped
	// by an earlier step (their record locked then, by a return that was
	// rolled back) keeps it, and the next batch or round forgets the
	// rest. Without it their rows would stay with no record to find them.
	n, err := db.pruneLoop(ctx, still+`DELETE FROM players WHERE player IN (SELECT player FROM s
		WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM saves v WHERE v.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM results r WHERE r.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM settings c WHERE c.player = s.player)
		AND NOT EXISTS (SELECT 1 FROM ratings a WHERE a.entrant = 'p:' || s.player AND NOT a.bot)
		LIMIT $3)`, ids, before)
	if err != nil {
		return n, fmt.Errorf("deleting unseen players from the players table: %w", err)
	}
	return n, nil
}
