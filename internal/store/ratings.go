package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"cardtable/internal/table"
)

// The ratings of internal/table's rated games: DB implements table.Rater.
var _ table.Rater = (*DB)(nil)

// FinishRated marks table id over and, in the same transaction, stores
// end.Update's ratings; a table no longer open changes nothing (its game
// was counted when it ended). The one writer connection serializes it
// with every other write, so no two games' updates interleave.
func (db *DB) FinishRated(ctx context.Context, id string, at time.Time, end table.RatedEnd) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE live_tables SET status = ?, updated = ? WHERE id = ? AND status = ?`,
			string(table.StatusOver), millis(at), id, string(table.StatusOpen))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 { // no such table, or it finished before
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM live_tables WHERE id = ?`, id).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return notFound(id)
			}
			return err
		}
		old, err := ratingsIn(ctx, tx, end.Keys)
		if err != nil {
			return err
		}
		after, err := end.Update(old)
		if err != nil {
			return fmt.Errorf("table %s: ratings: %w", id, err)
		}
		for _, r := range after {
			name, folded, err := table.UniqueName(r, nameTaken(ctx, tx))
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO ratings (entrant, name, bot, mu, sigma, games, updated, folded)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (entrant) DO UPDATE SET name = excluded.name, bot = excluded.bot,
				mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, updated = excluded.updated,
				folded = excluded.folded`,
				r.Key, name, r.Bot, r.Mu, r.Sigma, r.Games, millis(at), folded)
			if err != nil {
				return err
			}
			if err := seenRated(ctx, tx, r, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// seenRated records a person rated at at as seen then: they were playing,
// perhaps over one WebSocket since before they owned anything, so no
// request of theirs may have recorded them, and their rating must not
// outlive them unpruned (docs/api.md, "Retention").
func seenRated(ctx context.Context, tx *sql.Tx, r table.Rating, at time.Time) error {
	player, ok := strings.CutPrefix(r.Key, "p:")
	if r.Bot || !ok {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO players (player, seen) VALUES (?, ?)
		ON CONFLICT (player) DO UPDATE SET seen = excluded.seen WHERE excluded.seen > players.seen`, player, millis(at))
	return err
}

// rowsQuerier is a pool or a transaction.
type rowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// nameTaken is table.NameTakenFunc over q.
func nameTaken(ctx context.Context, q rowsQuerier) table.NameTakenFunc {
	return func(folded, key string) (bool, error) {
		var one int
		err := q.QueryRowContext(ctx, `SELECT 1 FROM ratings WHERE folded = ? AND bot = 0 AND entrant <> ?`,
			folded, key).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
}

// NameTaken reports whether a person other than key is rated under a name
// that folds to folded.
func (db *DB) NameTaken(ctx context.Context, folded, key string) (bool, error) {
	return nameTaken(ctx, db.r)(folded, key)
}

// foldNames gives the people's ratings written before names were folded
// (or by an older server) their folded names, those with the most games
// first: a later one whose name an earlier one holds is renamed as
// table.UniqueName does. Nothing is written when there are none.
func (db *DB) foldNames(ctx context.Context) error {
	const unfolded = `SELECT entrant, name FROM ratings WHERE bot = 0 AND folded = '' AND games > 0
		ORDER BY games DESC, updated, entrant`
	var n int
	if err := db.w.QueryRowContext(ctx, `SELECT count(*) FROM (`+unfolded+`)`).Scan(&n); err != nil || n == 0 {
		return err
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		people, err := scanNames(tx.QueryContext(ctx, unfolded))
		if err != nil {
			return err
		}
		for _, r := range people {
			name, folded, err := table.UniqueName(r, nameTaken(ctx, tx))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE ratings SET name = ?, folded = ? WHERE entrant = ?`,
				name, folded, r.Key); err != nil {
				return err
			}
		}
		return nil
	})
}

// scanNames reads rows of entrant and name.
func scanNames(rows *sql.Rows, err error) ([]table.Rating, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []table.Rating
	for rows.Next() {
		var r table.Rating
		if err := rows.Scan(&r.Key, &r.Name); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const ratingCols = `entrant, name, bot, mu, sigma, games`

func scanRatings(rows *sql.Rows, err error) ([]table.Rating, error) {
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

func ratingsIn(ctx context.Context, q rowsQuerier, keys []string) ([]table.Rating, error) {
	if len(keys) == 0 {
		return []table.Rating{}, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	return scanRatings(q.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE entrant IN (?`+
		strings.Repeat(", ?", len(keys)-1)+`)`, args...))
}

// pruneRatings deletes the ratings of people last rated before before
// with fewer than table.MinRankedGames games: never on the leaderboard,
// their tables pruned, they are what a stream of throwaway identities
// leaves. A person back later starts afresh.
func (db *DB) pruneRatings(ctx context.Context, before time.Time) error {
	_, err := db.pruneLoop(ctx, `DELETE FROM ratings WHERE entrant IN (
		SELECT entrant FROM ratings WHERE bot = 0 AND games < ? AND updated < ? LIMIT ?)`,
		table.MinRankedGames, millis(before))
	return err
}

// Ratings is the stored ratings among keys (at most a table's seats).
func (db *DB) Ratings(ctx context.Context, keys []string) ([]table.Rating, error) {
	return ratingsIn(ctx, db.r, keys)
}

// TopRatings is at most limit ratings with at least minGames games, the
// highest mu - 3 sigma first.
func (db *DB) TopRatings(ctx context.Context, minGames, limit int) ([]table.Rating, error) {
	return scanRatings(db.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE games >= ?
		ORDER BY mu - 3 * sigma DESC, entrant LIMIT ?`, minGames, limit))
}
