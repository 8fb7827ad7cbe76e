package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"cardtable/internal/table"
)

// The live tables of internal/table: DB implements table.Store. The store
// keeps a table's config and seats as JSON text and its moves as the
// engine's notation, knowing nothing of either.
var _ table.Store = (*DB)(nil)

// notFound wraps both packages' sentinels, so either errors.Is holds.
func notFound(id string) error {
	return fmt.Errorf("table %q: %w (%w)", id, table.ErrNotFound, ErrNotFound)
}

// CreateTable stores a new table with no moves.
func (db *DB) CreateTable(ctx context.Context, t table.Stored) error {
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO live_tables
			(id, creator, config, seed, seats, status, moves, created, updated)
			VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
			t.ID, t.Creator, t.Config, strconv.FormatUint(t.Seed, 10), string(seats),
			string(table.StatusOpen), millis(t.Created), millis(t.Updated))
		return err
	})
}

// SaveSeats replaces table id's seats.
func (db *DB) SaveSeats(ctx context.Context, id string, seats []table.StoredSeat) error {
	js, err := json.Marshal(seats)
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE live_tables SET seats = ?, updated = ? WHERE id = ?`,
			string(js), millis(time.Now()), id)
		return oneRow(res, err, id)
	})
}

func oneRow(res sql.Result, err error, id string) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(id)
	}
	return nil
}

// AppendAction stores move seq of table id. It refuses (ErrStale) a seq
// other than the number of moves stored, so a move is never lost, doubled
// or stored out of order; and any move on a table no longer open. The
// move is committed when it returns nil; moves of several tables arriving
// together are committed in one transaction (batch.go).
func (db *DB) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	return db.app.append(ctx, appendReq{id: id, seq: seq, m: m})
}

// appendOne stores one move in tx. refused is why the move is refused,
// with nothing changed; err is a failure of the transaction itself.
func appendOne(ctx context.Context, tx *sql.Tx, r appendReq, now int64) (refused, err error) {
	res, err := tx.ExecContext(ctx, `UPDATE live_tables SET moves = moves + 1, updated = ?
		WHERE id = ? AND moves = ? AND status = ?`, now, r.id, r.seq, string(table.StatusOpen))
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		var moves int
		var status string
		err := tx.QueryRowContext(ctx, `SELECT moves, status FROM live_tables WHERE id = ?`, r.id).Scan(&moves, &status)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(r.id), nil
		}
		if err != nil {
			return nil, err
		}
		return fmt.Errorf("table %q (%s) has %d moves, not %d: %w", r.id, status, moves, r.seq, ErrStale), nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO live_table_moves (tbl, seq, seat, action) VALUES (?, ?, ?, ?)`,
		r.id, r.seq, r.m.Seat, r.m.Action)
	return nil, err
}

// FinishTable sets table id's status (over or closed).
func (db *DB) FinishTable(ctx context.Context, id string, status table.Status, at time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE live_tables SET status = ?, updated = ? WHERE id = ?`,
			string(status), millis(at), id)
		return oneRow(res, err, id)
	})
}

// OpenTables is every open table with its moves and chat, oldest first.
func (db *DB) OpenTables(ctx context.Context) ([]table.Stored, error) {
	return db.loadTables(ctx, `SELECT id FROM live_tables WHERE status = ? ORDER BY created, id`,
		string(table.StatusOpen))
}

// loadTables is the tables whose ids query selects, in its order, with
// their moves, read in one transaction.
func (db *DB) loadTables(ctx context.Context, query string, args ...any) ([]table.Stored, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]table.Stored, 0, len(ids))
	for _, id := range ids {
		t, err := loadTable(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// LoadTable is table id with its moves and chat, whatever its status.
func (db *DB) LoadTable(ctx context.Context, id string) (table.Stored, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return table.Stored{}, err
	}
	defer tx.Rollback()
	return loadTable(ctx, tx, id)
}

func loadTable(ctx context.Context, tx *sql.Tx, id string) (table.Stored, error) {
	var t table.Stored
	var seed, seats, status string
	var moves int
	var created, updated int64
	err := tx.QueryRowContext(ctx, `SELECT id, creator, config, seed, seats, status, moves, created, updated
		FROM live_tables WHERE id = ?`, id).Scan(&t.ID, &t.Creator, &t.Config, &seed, &seats, &status,
		&moves, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return t, notFound(id)
	}
	if err != nil {
		return t, err
	}
	if t.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return t, fmt.Errorf("table %q: seed: %w", id, err)
	}
	if err := json.Unmarshal([]byte(seats), &t.Seats); err != nil {
		return t, fmt.Errorf("table %q: seats: %w", id, err)
	}
	t.Status = table.Status(status)
	t.Created, t.Updated = fromMillis(created), fromMillis(updated)
	rows, err := tx.QueryContext(ctx, `SELECT seat, action FROM live_table_moves WHERE tbl = ? ORDER BY seq`, id)
	if err != nil {
		return t, err
	}
	defer rows.Close()
	t.Moves = make([]table.StoredMove, 0, moves)
	for rows.Next() {
		var m table.StoredMove
		if err := rows.Scan(&m.Seat, &m.Action); err != nil {
			return t, err
		}
		t.Moves = append(t.Moves, m)
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	if len(t.Moves) != moves {
		return t, fmt.Errorf("table %q: %d move rows, the table says %d", id, len(t.Moves), moves)
	}
	t.Chat, err = loadChat(ctx, tx, id)
	return t, err
}

// PruneTables deletes the tables over or closed before before, with their
// moves (their records can no longer be downloaded). It returns how many
// it deleted. It also deletes the ratings of people not rated since
// before who have too few games for the leaderboard (pruneRatings).
func (db *DB) PruneTables(ctx context.Context, before time.Time) (int64, error) {
	n, err := db.pruneTables(ctx, before)
	if err != nil {
		return n, err
	}
	return n, db.pruneRatings(ctx, before)
}

func (db *DB) pruneTables(ctx context.Context, before time.Time) (int64, error) {
	return db.pruneLoop(ctx, `DELETE FROM live_tables WHERE id IN (
		SELECT id FROM live_tables WHERE status != ? AND updated < ? LIMIT ?)`,
		string(table.StatusOpen), millis(before))
}

// PlayerTables is at most limit tables over with player in a seat (not
// only held for them), the latest to end first, with their moves. The
// seats are JSON, so this reads every finished table's seats; pruning
// (KeepRecords) bounds how many there are.
func (db *DB) PlayerTables(ctx context.Context, player string, limit int) ([]table.Stored, error) {
	return db.loadTables(ctx, `SELECT id FROM live_tables WHERE status = ? AND EXISTS (
		SELECT 1 FROM json_each(live_tables.seats)
		WHERE json_extract(value, '$.player') = ? AND coalesce(json_extract(value, '$.reserved'), 0) = 0)
		ORDER BY updated DESC, id LIMIT ?`, string(table.StatusOver), player, limit)
}
