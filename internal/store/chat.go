package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"cardtable/internal/table"
)

// AppendChat stores chat line l of table id and deletes the table's lines
// numbered keep or more below it, in one transaction. A number other than
// one past the table's last line's is refused (ErrStale), nothing changed.
func (db *DB) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE live_tables SET chat = ? WHERE id = ? AND chat = ?`, l.N, id, l.N-1)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var last int
			err := tx.QueryRowContext(ctx, `SELECT chat FROM live_tables WHERE id = ?`, id).Scan(&last)
			if errors.Is(err, sql.ErrNoRows) {
				return notFound(id)
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("table %q has chat up to line %d, not %d: %w", id, last, l.N-1, ErrStale)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO live_table_chat (tbl, n, seat, name, text, at)
			VALUES (?, ?, ?, ?, ?, ?)`, id, l.N, l.Seat, l.Name, l.Text, millis(l.At)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM live_table_chat WHERE tbl = ? AND n <= ?`, id, l.N-max(1, keep))
		return err
	})
}

// loadChat is table id's chat lines kept, oldest first.
func loadChat(ctx context.Context, tx *sql.Tx, id string) ([]table.ChatLine, error) {
	rows, err := tx.QueryContext(ctx, `SELECT n, seat, name, text, at FROM live_table_chat WHERE tbl = ? ORDER BY n`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []table.ChatLine{}
	for rows.Next() {
		var l table.ChatLine
		var at int64
		if err := rows.Scan(&l.N, &l.Seat, &l.Name, &l.Text, &at); err != nil {
			return nil, err
		}
		l.At = fromMillis(at)
		out = append(out, l)
	}
	return out, rows.Err()
}
