package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/table"
)

// AppendChat stores chat line l of table id and deletes the table's lines
// numbered keep or more below it, in one statement. A number other than
// one past the table's last line's is refused (ErrStale), nothing
// changed: the table's count moves on only from l.N-1 (concurrent writers
// queue on its row lock, and the later ones find it moved), and the line
// is inserted only if it did.
func (db *DB) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	// Fenced as the table's moves are: a server that lost the table
	// cannot add a line.
	cond, owner, epoch, err := db.fenced(id, 8, 9)
	if err != nil {
		return err
	}
	var stored int
	err = db.tables.QueryRow(ctx, `WITH up AS (
			UPDATE live_tables SET chat = $2 WHERE id = $1 AND chat = $2 - 1 AND `+cond+` RETURNING id),
		ins AS (INSERT INTO live_table_chat (tbl, n, seat, name, text, at)
			SELECT id, $2, $3, $4, $5, $6 FROM up RETURNING tbl),
		del AS (DELETE FROM live_table_chat WHERE tbl IN (SELECT tbl FROM ins) AND n <= $7)
		SELECT count(*) FROM ins`,
		id, l.N, l.Seat, l.Name, l.Text, millis(l.At), l.N-max(1, keep), owner, epoch).Scan(&stored)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation: the line is there
		return fmt.Errorf("table %q already has chat line %d: %w", id, l.N, ErrStale)
	}
	if err != nil {
		return full(err)
	}
	if stored == 1 {
		return nil
	}
	var last int
	err = db.tables.QueryRow(ctx, `SELECT chat FROM live_tables WHERE id = $1`, id).Scan(&last)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound(id)
	}
	if err != nil {
		return err
	}
	if last == l.N-1 {
		return db.refused(id) // only the claim failed
	}
	return fmt.Errorf("table %q has chat up to line %d, not %d: %w", id, last, l.N-1, ErrStale)
}

// loadChat is table id's chat lines kept, oldest first.
func loadChat(ctx context.Context, tx pgx.Tx, id string) ([]table.ChatLine, error) {
	rows, err := tx.Query(ctx, `SELECT n, seat, name, text, at FROM live_table_chat WHERE tbl = $1 ORDER BY n`, id)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (table.ChatLine, error) {
		var l table.ChatLine
		var at int64
		err := r.Scan(&l.N, &l.Seat, &l.Name, &l.Text, &at)
		l.At = fromMillis(at)
		return l, err
	})
	if out == nil && err == nil {
		out = []table.ChatLine{}
	}
	return out, err
}
