package pgstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
	// A table's end: on the tables' side of the pool (tableShare).
	return txOn(ctx, db.tables, func(tx pgx.Tx) error {
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
		if err := lockNames(ctx, tx); err != nil {
			return err
		}
		for _, r := range after {
			name, folded, err := table.UniqueName(r, nameTaken(ctx, tx))
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `UPDATE ratings SET name = $2, bot = $3, mu = $4, sigma = $5, games = $6, updated = $7,
				folded = $8 WHERE entrant = $1`, r.Key, name, r.Bot, r.Mu, r.Sigma, r.Games, millis(at), folded)
			if err != nil {
				return err
			}
			if err := seenRated(ctx, tx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// seenRated records a person rated as seen now, by the database's clock
// (as Seen, whatever the server's at says): they were playing,
// perhaps over one WebSocket since before they owned anything, so no
// request of theirs may have recorded them, and their rating must not
// outlive them unpruned (docs/api.md, "Retention").
func seenRated(ctx context.Context, tx pgx.Tx, r table.Rating) error {
	player, ok := strings.CutPrefix(r.Key, "p:")
	if r.Bot || !ok {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO players (player, seen) VALUES ($1, `+dbNow+`)
		ON CONFLICT (player) DO UPDATE SET seen = excluded.seen WHERE excluded.seen > players.seen`, player)
	return err
}

// namesLock is the advisory lock under which people's rated names are
// chosen (table.UniqueName), so that two servers ending games with two
// people of one new name cannot both give it. Taken after the entrants'
// rows, never before, so it cannot deadlock with the row locks.
const namesLock = 0x6e616d65 // "name"

func lockNames(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, namesLock)
	return err
}

// nameTaken is table.NameTakenFunc over q.
func nameTaken(ctx context.Context, q querier) table.NameTakenFunc {
	return func(folded, key string) (bool, error) {
		var held bool
		err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM ratings WHERE folded = $1 AND NOT bot AND entrant <> $2)`,
			folded, key).Scan(&held)
		return held, err
	}
}

// NameTaken reports whether a person other than key is rated under a name
// that folds to folded.
func (db *DB) NameTaken(ctx context.Context, folded, key string) (bool, error) {
	return nameTaken(ctx, db.pool)(folded, key)
}

// foldNames gives the people's ratings written before names were folded
// (or by an older server) their folded names, those with the most games
// first: a later one whose name an earlier one holds is renamed as
// table.UniqueName does. Their rows are locked first, then the names, as
// FinishRated does.
func (db *DB) foldNames(ctx context.Context) error {
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM ratings WHERE NOT bot AND folded = '' AND games > 0`).Scan(&n); err != nil || n == 0 {
		return err
	}
	return db.tx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT entrant, name, games, updated FROM ratings
			WHERE NOT bot AND folded = '' AND games > 0 ORDER BY entrant COLLATE "C" FOR UPDATE`)
		if err != nil {
			return err
		}
		type person struct {
			table.Rating
			updated int64
		}
		people, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (person, error) {
			var p person
			err := row.Scan(&p.Key, &p.Name, &p.Games, &p.updated)
			return p, err
		})
		if err != nil {
			return err
		}
		slices.SortFunc(people, func(a, b person) int {
			return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.updated, b.updated), strings.Compare(a.Key, b.Key))
		})
		if err := lockNames(ctx, tx); err != nil {
			return err
		}
		for _, p := range people {
			name, folded, err := table.UniqueName(p.Rating, nameTaken(ctx, tx))
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE ratings SET name = $2, folded = $3 WHERE entrant = $1`,
				p.Key, name, folded); err != nil {
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

// Ratings is the stored ratings among keys. Read on the live tables'
// side of the pool (pool.go): the tables read them for their own work (a
// table starting, taken over, started again after an outage, a seat
// taken), which requests holding their share must not stall; requests
// read TopRatings (the leaderboard), on theirs.
func (db *DB) Ratings(ctx context.Context, keys []string) ([]table.Rating, error) {
	return scanRatings(db.tables.Query(ctx, `SELECT `+ratingCols+` FROM ratings WHERE entrant = ANY($1) AND games > 0`, keys))
}

// TopRatings is at most limit ratings with at least minGames games, the
// highest mu - 3 sigma first.
func (db *DB) TopRatings(ctx context.Context, minGames, limit int) ([]table.Rating, error) {
	return scanRatings(db.pool.Query(ctx, `SELECT `+ratingCols+` FROM ratings WHERE games >= $1 AND games > 0
		ORDER BY mu - 3 * sigma DESC, entrant COLLATE "C" LIMIT $2`, minGames, limit))
}
