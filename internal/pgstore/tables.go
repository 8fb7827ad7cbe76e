package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cardtable/internal/table"
)

// The live tables of internal/table: DB implements table.Store and
// table.Pruner, keeping a table's config and seats as JSON text and its
// moves as the engine's notation.
var (
	_ table.Store  = (*DB)(nil)
	_ table.Pruner = (*DB)(nil)
	// LoadLive is found by type assertion: checked here.
	_ table.LiveLoader = (*DB)(nil)
)

// notFound wraps both services' sentinels, so either errors.Is holds.
func notFound(id string) error {
	return fmt.Errorf("table %q: %w (%w)", id, table.ErrNotFound, ErrNotFound)
}

// CreateTable stores a new table with no moves.
func (db *DB) CreateTable(ctx context.Context, t table.Stored) error {
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return err
	}
	var owner any // NULL: one server alone
	n := db.node.Load()
	if n != nil {
		owner = n.id
	}
	_, err = db.exec(ctx, `INSERT INTO live_tables
		(id, creator, config, seed, seats, status, moves, created, updated, owner, epoch)
		VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, 1)`,
		t.ID, t.Creator, t.Config, strconv.FormatUint(t.Seed, 10), string(seats),
		string(table.StatusOpen), millis(t.Created), millis(t.Updated), owner)
	if err == nil && n != nil {
		n.claimed(t.ID)
	}
	return err
}

// fenced is the condition a write of table id adds ($a the owner, $b the
// epoch) and their values: once this server joined the registry (Join),
// the table must be its claim, else the write is refused (ErrMoved)
// without being sent. Alone, the condition holds for every row.
func (db *DB) fenced(id string, a, b int) (cond string, owner any, epoch any, err error) {
	n := db.node.Load()
	if n == nil {
		return fmt.Sprintf("($%d::text IS NULL AND $%d::bigint IS NULL)", a, b), nil, nil, nil
	}
	o, e, ok := n.fence(id)
	if !ok {
		return "", nil, nil, moved(id)
	}
	return fmt.Sprintf("owner = $%d AND epoch = $%d", a, b), o, e, nil
}

// moved is the refusal of a write of a table this server no longer holds.
func moved(id string) error {
	return fmt.Errorf("table %q: %w", id, table.ErrMoved)
}

// refused is why a fenced write of table id changed no row: the table is
// gone, or (this server having joined the registry) it moved.
func (db *DB) refused(id string) error {
	if db.node.Load() != nil {
		return moved(id)
	}
	return notFound(id)
}

// SaveSeats replaces table id's seats.
func (db *DB) SaveSeats(ctx context.Context, id string, seats []table.StoredSeat) error {
	js, err := json.Marshal(seats)
	if err != nil {
		return err
	}
	cond, owner, epoch, err := db.fenced(id, 4, 5)
	if err != nil {
		return err
	}
	tag, err := db.tables.Exec(ctx, `UPDATE live_tables SET seats = $1, updated = $2 WHERE id = $3 AND `+cond,
		string(js), millis(time.Now()), id, owner, epoch)
	if err == nil && tag.RowsAffected() == 0 {
		return db.refused(id)
	}
	return err
}

// AppendAction stores move seq of table id, committed when it returns
// nil. It refuses (ErrStale) a seq other than the number of moves stored,
// and any move on a table no longer open, changing nothing. One statement,
// so one round trip: the update moves the table's count on only from seq
// (concurrent writers of one table queue on its row lock, and the later
// ones find the count moved), and the move is inserted only if it did;
// the (tbl, seq) key refuses a doubled move whatever wrote it.
//
// Each action is its own transaction: PostgreSQL commits the transactions
// of the pool's connections side by side and groups their WAL flushes
// itself, so the SQLite store's batching goroutine has no use here.
//
// Once this server joined the registry (Join), the update also requires
// the table to be this server's claim (fenced), and every refusal wraps
// table.ErrMoved as well: another server wrote or holds the table.
func (db *DB) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	cond, owner, epoch, err := db.fenced(id, 7, 8)
	if err != nil {
		return err
	}
	tag, err := db.tables.Exec(ctx, `WITH up AS (
			UPDATE live_tables SET moves = moves + 1, updated = $1
			WHERE id = $2 AND moves = $3 AND status = $4 AND `+cond+` RETURNING id)
		INSERT INTO live_table_moves (tbl, seq, seat, action) SELECT id, $3, $5, $6 FROM up`,
		millis(time.Now()), id, seq, string(table.StatusOpen), m.Seat, m.Action, owner, epoch)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation: the move is there
		return db.stale(fmt.Errorf("table %q already has move %d: %w", id, seq, ErrStale))
	}
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var moves int
	var status string
	var holder *string
	var held int64
	err = db.tables.QueryRow(ctx, `SELECT moves, status, owner, epoch FROM live_tables WHERE id = $1`, id).
		Scan(&moves, &status, &holder, &held)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound(id)
	}
	if err != nil {
		return err
	}
	open := status == string(table.StatusOpen)
	if n := db.node.Load(); n != nil {
		if moves == seq && open {
			return moved(id) // only the claim failed
		}
		if open && holder != nil && *holder == owner && held == epoch {
			// Still this server's, but its copy is behind the store (a
			// move committed whose answer was lost): the table stops here
			// (ErrMoved) and is given back, so that a server takes it at
			// its next scan and runs it from the stored moves. Kept, no
			// server would ever run it again.
			n.giveBack(context.WithoutCancel(ctx), id, held)
		}
	}
	return db.stale(fmt.Errorf("table %q (%s) has %d moves, not %d: %w", id, status, moves, seq, ErrStale))
}

// stale is err, also table.ErrMoved once this server joined the registry:
// a move refused there means another server wrote the table.
func (db *DB) stale(err error) error {
	if db.node.Load() != nil {
		return fmt.Errorf("%w (%w)", err, table.ErrMoved)
	}
	return err
}

// FinishTable sets table id's status (over or closed).
func (db *DB) FinishTable(ctx context.Context, id string, status table.Status, at time.Time) error {
	cond, owner, epoch, err := db.fenced(id, 4, 5)
	if err != nil {
		return err
	}
	tag, err := db.tables.Exec(ctx, `UPDATE live_tables SET status = $1, updated = $2 WHERE id = $3 AND `+cond,
		string(status), millis(at), id, owner, epoch)
	if err == nil && tag.RowsAffected() == 0 {
		return db.refused(id)
	}
	return err
}

// OpenTables is every open table with its moves and chat, oldest first,
// read on the tables' side (a server starting its tables).
func (db *DB) OpenTables(ctx context.Context) ([]table.Stored, error) {
	return loadTables(ctx, db.tables, `SELECT id FROM live_tables WHERE status = $1 ORDER BY created, id COLLATE "C"`,
		string(table.StatusOpen))
}

// loadTables is the tables whose ids query selects, in its order, with
// their moves, read in one snapshot on p's side of the pool (db.pool, the
// requests', or db.tables, the tables').
func loadTables(ctx context.Context, p pool, query string, args ...any) ([]table.Stored, error) {
	var out []table.Stored
	err := readOn(ctx, p, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		out = make([]table.Stored, 0, len(ids))
		for _, id := range ids {
			t, err := loadTable(ctx, tx, id)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// LoadTable is table id with its moves and chat, whatever its status,
// read on the requests' side (a page of a game over, a rematch's check).
func (db *DB) LoadTable(ctx context.Context, id string) (table.Stored, error) {
	return loadOne(ctx, db.pool, id)
}

// LoadLive is LoadTable read on the live tables' side (table.LiveLoader):
// a table started again after an outage, or checking a refused move or
// chat line.
func (db *DB) LoadLive(ctx context.Context, id string) (table.Stored, error) {
	return loadOne(ctx, db.tables, id)
}

func loadOne(ctx context.Context, p pool, id string) (table.Stored, error) {
	var t table.Stored
	err := readOn(ctx, p, func(tx pgx.Tx) error {
		var err error
		t, err = loadTable(ctx, tx, id)
		return err
	})
	return t, err
}

func loadTable(ctx context.Context, tx pgx.Tx, id string) (table.Stored, error) {
	var t table.Stored
	var seed, seats, status string
	var moves int
	var created, updated int64
	err := tx.QueryRow(ctx, `SELECT id, creator, config, seed, seats, status, moves, created, updated
		FROM live_tables WHERE id = $1`, id).Scan(&t.ID, &t.Creator, &t.Config, &seed, &seats, &status,
		&moves, &created, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
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
	rows, err := tx.Query(ctx, `SELECT seat, action FROM live_table_moves WHERE tbl = $1 ORDER BY seq`, id)
	if err != nil {
		return t, err
	}
	t.Moves, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (table.StoredMove, error) {
		var m table.StoredMove
		err := r.Scan(&m.Seat, &m.Action)
		return m, err
	})
	if err != nil {
		return t, err
	}
	if t.Moves == nil {
		t.Moves = []table.StoredMove{}
	}
	if len(t.Moves) != moves {
		return t, fmt.Errorf("table %q: %d move rows, the table says %d", id, len(t.Moves), moves)
	}
	t.Chat, err = loadChat(ctx, tx, id)
	return t, err
}

// PruneTables deletes the tables over or closed before before, with their
// moves. It returns how many it deleted. It also deletes the ratings of
// people not rated since before with too few games for the leaderboard.
func (db *DB) PruneTables(ctx context.Context, before time.Time) (int64, error) {
	n, err := db.pruneLoop(ctx, `DELETE FROM live_tables WHERE id IN (
		SELECT id FROM live_tables WHERE status != $1 AND updated < $2 LIMIT $3)`,
		string(table.StatusOpen), millis(before))
	if err != nil {
		return n, err
	}
	// The ratings of people not rated since before, with too few games
	// for the leaderboard: what throwaway identities leave (as the
	// SQLite store's pruneRatings).
	_, err = db.pruneLoop(ctx, `DELETE FROM ratings WHERE entrant IN (
		SELECT entrant FROM ratings WHERE NOT bot AND games < $1 AND updated < $2 LIMIT $3)`,
		table.MinRankedGames, millis(before))
	return n, err
}

// PlayerTables is at most limit tables over with player in a seat (not
// only held for them), the latest to end first, with their moves. The
// seats are JSON text, read for every finished table; pruning
// (KeepRecords) bounds how many there are.
func (db *DB) PlayerTables(ctx context.Context, player string, limit int) ([]table.Stored, error) {
	return loadTables(ctx, db.pool, `SELECT id FROM live_tables WHERE status = $1 AND EXISTS (
		SELECT 1 FROM jsonb_array_elements(seats::jsonb) AS s
		WHERE s->>'player' = $2 AND coalesce((s->>'reserved')::boolean, false) = false)
		ORDER BY updated DESC, id COLLATE "C" LIMIT $3`, string(table.StatusOver), player, limit)
}
