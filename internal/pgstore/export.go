package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
)

var _ dbcopy.Store = (*DB)(nil)

// exports are the queries Export reads each table with, keys in byte
// order (COLLATE "C", as SQLite compares text), and each row's struct.
var exports = map[string]struct {
	query string
	scan  func(pgx.Rows) (any, error)
}{
	"games": {`SELECT id, player, lineage, save, variant, suits, deal, moves, score, created, updated,
		version, logn, played, gave_up FROM games ORDER BY id COLLATE "C"`,
		func(r pgx.Rows) (any, error) {
			var g dbcopy.Game
			err := r.Scan(&g.ID, &g.Player, &g.Lineage, &g.Save, &g.Variant, &g.Suits, &g.Deal, &g.Moves,
				&g.Score, &g.Created, &g.Updated, &g.Version, &g.LogN, &g.Played, &g.GaveUp)
			return g, err
		}},
	"game_log": {`SELECT game, seq, cmd FROM game_log ORDER BY game COLLATE "C", seq`,
		func(r pgx.Rows) (any, error) {
			var l dbcopy.GameLog
			err := r.Scan(&l.Game, &l.Seq, &l.Cmd)
			return l, err
		}},
	"saves": {`SELECT player, name, lineage, save, variant, suits, deal, moves, score, updated, played
		FROM saves ORDER BY player COLLATE "C", name COLLATE "C"`,
		func(r pgx.Rows) (any, error) {
			var s dbcopy.Save
			err := r.Scan(&s.Player, &s.Name, &s.Lineage, &s.Save, &s.Variant, &s.Suits, &s.Deal, &s.Moves,
				&s.Score, &s.Updated, &s.Played)
			return s, err
		}},
	"results": {`SELECT player, lineage, variant, suits, won, score, at, played, gave_up
		FROM results ORDER BY at, n`,
		func(r pgx.Rows) (any, error) {
			var x dbcopy.Result
			err := r.Scan(&x.Player, &x.Lineage, &x.Variant, &x.Suits, &x.Won, &x.Score, &x.At, &x.Played, &x.GaveUp)
			return x, err
		}},
	"settings": {`SELECT player, json FROM settings ORDER BY player COLLATE "C"`,
		func(r pgx.Rows) (any, error) {
			var s dbcopy.Setting
			err := r.Scan(&s.Player, &s.JSON)
			return s, err
		}},
	"live_tables": {`SELECT id, creator, config, seed, seats, status, moves, created, updated
		FROM live_tables ORDER BY id COLLATE "C"`,
		func(r pgx.Rows) (any, error) {
			var t dbcopy.Table
			err := r.Scan(&t.ID, &t.Creator, &t.Config, &t.Seed, &t.Seats, &t.Status, &t.Moves, &t.Created, &t.Updated)
			return t, err
		}},
	"live_table_moves": {`SELECT tbl, seq, seat, action FROM live_table_moves ORDER BY tbl COLLATE "C", seq`,
		func(r pgx.Rows) (any, error) {
			var m dbcopy.TableMove
			err := r.Scan(&m.Table, &m.Seq, &m.Seat, &m.Action)
			return m, err
		}},
}

// Export calls each for every row of table, in one read snapshot.
func (db *DB) Export(ctx context.Context, table string, each func(row any) error) error {
	e, ok := exports[table]
	if !ok {
		return fmt.Errorf("no table %q", table)
	}
	return db.read(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, e.query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			row, err := e.scan(rows)
			if err != nil {
				return err
			}
			if err := each(row); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// Import stores rows of table in one transaction, as pgx's batch.
func (db *DB) Import(ctx context.Context, table string, rows []any) error {
	b := &pgx.Batch{}
	for _, row := range rows {
		q, args, err := insert(table, row)
		if err != nil {
			return err
		}
		b.Queue(q, args...)
	}
	return db.tx(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
}

func insert(table string, row any) (string, []any, error) {
	switch r := row.(type) {
	case dbcopy.Game:
		if table == "games" {
			return `INSERT INTO games (id, player, lineage, save, variant, suits, deal, moves, score, created,
				updated, version, logn, played, gave_up) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
				[]any{r.ID, r.Player, r.Lineage, r.Save, r.Variant, r.Suits, r.Deal, r.Moves, r.Score, r.Created,
					r.Updated, r.Version, r.LogN, r.Played, r.GaveUp}, nil
		}
	case dbcopy.GameLog:
		if table == "game_log" {
			return `INSERT INTO game_log (game, seq, cmd) VALUES ($1, $2, $3)`, []any{r.Game, r.Seq, r.Cmd}, nil
		}
	case dbcopy.Save:
		if table == "saves" {
			return `INSERT INTO saves (player, name, lineage, save, variant, suits, deal, moves, score, updated, played)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				[]any{r.Player, r.Name, r.Lineage, r.Save, r.Variant, r.Suits, r.Deal, r.Moves, r.Score, r.Updated, r.Played}, nil
		}
	case dbcopy.Result:
		if table == "results" {
			return `INSERT INTO results (player, lineage, variant, suits, won, score, at, played, gave_up)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				[]any{r.Player, r.Lineage, r.Variant, r.Suits, r.Won, r.Score, r.At, r.Played, r.GaveUp}, nil
		}
	case dbcopy.Setting:
		if table == "settings" {
			return `INSERT INTO settings (player, json) VALUES ($1, $2)`, []any{r.Player, r.JSON}, nil
		}
	case dbcopy.Table:
		if table == "live_tables" {
			return `INSERT INTO live_tables (id, creator, config, seed, seats, status, moves, created, updated)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				[]any{r.ID, r.Creator, r.Config, r.Seed, r.Seats, r.Status, r.Moves, r.Created, r.Updated}, nil
		}
	case dbcopy.TableMove:
		if table == "live_table_moves" {
			return `INSERT INTO live_table_moves (tbl, seq, seat, action) VALUES ($1, $2, $3, $4)`,
				[]any{r.Table, r.Seq, r.Seat, r.Action}, nil
		}
	}
	return "", nil, fmt.Errorf("a %T is not a row of %s", row, table)
}
