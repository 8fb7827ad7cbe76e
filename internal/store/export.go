package store

import (
	"context"
	"database/sql"
	"fmt"

	"cardtable/internal/dbcopy"
)

// DB exports and imports its rows for a copy to or from another store
// (cardtable db copy).
var _ dbcopy.Store = (*DB)(nil)

// exportOrder is the order Export gives each table's rows in: keys in
// byte order (SQLite's BINARY collation); results as statistics read them.
var exportOrder = map[string]string{
	"games": "id", "game_log": "game, seq", "saves": "player, name", "results": "at, rowid",
	"settings": "player", "live_tables": "id", "live_table_moves": "tbl, seq", "live_table_chat": "tbl, n",
	"ratings": "entrant", "acme_cache": "key", "players": "player",
}

// Export calls each for every row of table, in one read transaction.
func (db *DB) Export(ctx context.Context, table string, each func(row any) error) error {
	order, ok := exportOrder[table]
	if !ok {
		return fmt.Errorf("no table %q", table)
	}
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, dbcopy.Select(table, order))
	if err != nil {
		return err
	}
	defer rows.Close()
	return dbcopy.Each(table, rows, each)
}

// Import stores rows of table in one transaction.
func (db *DB) Import(ctx context.Context, table string, rows []any) error {
	if table == "acme_cache" && len(rows) > 0 {
		// Private keys: as ACMEPut, the file is made its owner's first.
		if err := db.file.makePrivate(); err != nil {
			return fmt.Errorf("importing the ACME certificate cache into %s, readable by others: %w", db.file.path, err)
		}
	}
	insert := dbcopy.Insert(table, func(int) string { return "?" })
	return db.tx(ctx, func(tx *sql.Tx) error {
		for _, row := range rows {
			vals, err := dbcopy.Values(table, row)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, insert, vals...); err != nil {
				return err
			}
		}
		return nil
	})
}
