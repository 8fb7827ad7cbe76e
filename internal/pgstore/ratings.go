package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/table"
)

// The ratings of internal/table's rated games: DB implements table.Rater.
var _ table.Rater = (*DB)(nil)

// FinishRated marks table id over and, in the same transaction, stores
// end.Update's ratings; a table no longer open changes nothing (its game
// was counted when it ended). The entrants' rows are locked, in key order
// (so two games' ends cannot deadlock), before they are read: two servers
// ending games with the same bot level update it one after the other.
// Once this server joined the registry, the table must be its claim, as
// for every write of a table (ErrMoved).
func (db *DB) FinishRated(ctx context.Context, id string, at time.Time, end table.RatedEnd) error {
	cond, owner, epoch, err := db.fenced(id, 5, 6)
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE live_tables SET status = $1, updated = $2 WHERE id = $3 AND status = $4 AND `+cond,
			string(table.StatusOver), millis(at), id, string(table.StatusOpen), owner, epoch)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 { // no such table, it finished before, or it moved
			var status string
			err := tx.QueryRow(ctx, `SELECT status FROM live_tables WHERE id = $1`, id).Scan(&status)
			if errors.Is(err, pgx.ErrNoRows) {
				return notFound(id)
			}
			if err == nil && status == string(table.StatusOpen) {
				return db.refused(id) // still open: another server holds it
			}
			return err
		}
		keys := slices.Clone(end.Keys)
		slices.Sort(keys)
		for _, k := range keys {
			// A placeholder, so that a new entrant's row can be locked too;
			// the update below always overwrites it.
			if _, err := tx.Exec(ctx, `INSERT INTO ratings (entrant, name, bot, mu, sigma, games, updated)
				VALUES ($1, '', false, 0, 0, 0, 0) ON CONFLICT (entrant) DO NOTHING`, k); err != nil {
				return err
			}
		}
		old, err := scanRatings(tx.Query(ctx, `SELECT `+ratingCols+` FROM ratings WHERE entrant = ANY($1)
			ORDER BY entrant COLLATE "C" FOR UPDATE`, keys))
		if err != nil {
			return err
		}
		old = slices.DeleteFunc(old, func(r table.Rating) bool { return r.Games == 0 }) // the placeholders
		after, err := end.Update(old)
		if err != nil {
			return fmt.Errorf("table %s: ratings: %w", id, err)
		}
		for _, r := range after {
			_, err := tx.Exec(ctx, `UPDATE ratings SET name = $2, bot = $3, mu = $4, sigma = $5, games = $6, updated = $7
				WHERE entrant = $1`, r.Key, r.Name, r.Bot, r.Mu, r.Sigma, r.Games, millis(at))
			if err != nil {
				return err
			}
		}
		return nil
	})
}

const ratingCols = `entrant, name, bot, mu, sigma, games`

func scanRatings(rows pgx.Rows, err error) ([]table.Rating, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []table.Rating{}
	for rows.Next() {
		var r table.Rating
		if err := rows.Scan(&r.Key, &r.Name, &r.Bot, &r.Mu, &r.Sigma, &r.Games); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Ratings is the stored ratings among keys.
func (db *DB) Ratings(ctx context.Context, keys []string) ([]table.Rating, error) {
	return scanRatings(db.pool.Query(ctx, `SELECT `+ratingCols+` FROM ratings WHERE entrant = ANY($1) AND games > 0`, keys))
}

// TopRatings is at most limit ratings with at least minGames games, the
// highest mu - 3 sigma first.
func (db *DB) TopRatings(ctx context.Context, minGames, limit int) ([]table.Rating, error) {
	return scanRatings(db.pool.Query(ctx, `SELECT `+ratingCols+` FROM ratings WHERE games >= $1 AND games > 0
		ORDER BY mu - 3 * sigma DESC, entrant COLLATE "C" LIMIT $2`, minGames, limit))
}
