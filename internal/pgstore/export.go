package pgstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
)

var _ dbcopy.Store = (*DB)(nil)

// exportOrder is the order Export gives each table's rows in: keys in
// byte order (COLLATE "C", as SQLite compares text); results as
// statistics read them.
var exportOrder = map[string]string{
	"games": `id COLLATE "C"`, "game_log": `game COLLATE "C", seq`,
	"saves": `player COLLATE "C", name COLLATE "C"`, "results": "at, n",
	"settings": `player COLLATE "C"`, "live_tables": `id COLLATE "C"`,
	"live_table_moves": `tbl COLLATE "C", seq`, "live_table_chat": `tbl COLLATE "C", n`,
	"ratings": `entrant COLLATE "C"`, "acme_cache": `key COLLATE "C"`,
	"players": `player COLLATE "C"`,
}

// Export calls each for every row of table, in one read snapshot.
func (db *DB) Export(ctx context.Context, table string, each func(row any) error) error {
	order, ok := exportOrder[table]
	if !ok {
		return fmt.Errorf("no table %q", table)
	}
	return db.read(ctx, func(tx pgx.Tx) error {
		// A copy reads a whole table: statementTimeout is for requests.
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, dbcopy.Select(table, order))
		if err != nil {
			return err
		}
		defer rows.Close()
		return dbcopy.Each(table, rows, each)
	})
}

// Import stores rows of table in one transaction, as one pgx batch.
func (db *DB) Import(ctx context.Context, table string, rows []any) error {
	insert := dbcopy.Insert(table, func(i int) string { return "$" + strconv.Itoa(i) })
	b := &pgx.Batch{}
	for _, row := range rows {
		vals, err := dbcopy.Values(table, row)
		if err != nil {
			return err
		}
		b.Queue(insert, vals...)
	}
	return db.tx(ctx, func(tx pgx.Tx) error {
		// A copy's batch: statementTimeout is for requests. Set before
		// the batch is sent, not as its first statement: pgx prepares
		// the batch's INSERT first, which waits for the table's lock
		// too, and was cancelled with the timeout still on.
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		return tx.SendBatch(ctx, b).Close()
	})
}
