package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// WriteStats is what PostgreSQL has counted of one database's work since
// its statistics were last reset (pg_stat_database): transactions
// committed and rows written. The load benchmark reads it before and
// after a run for the writes an action costs.
type WriteStats struct {
	Commits, Inserted, Updated, Deleted int64
}

// Minus is the counts from before to s.
func (s WriteStats) Minus(before WriteStats) WriteStats {
	return WriteStats{s.Commits - before.Commits, s.Inserted - before.Inserted,
		s.Updated - before.Updated, s.Deleted - before.Deleted}
}

// ReadWriteStats reads the counters of the database at url, with a
// connection of its own (whose own transaction is among those counted).
// PostgreSQL publishes a server connection's counts when it goes idle, at
// most once a second, so a reading just after a burst may lag.
func ReadWriteStats(ctx context.Context, url string) (WriteStats, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return WriteStats{}, fmt.Errorf("pgstore: %w", urlError(url, err))
	}
	defer conn.Close(ctx)
	var s WriteStats
	err = conn.QueryRow(ctx, `SELECT xact_commit, tup_inserted, tup_updated, tup_deleted
		FROM pg_stat_database WHERE datname = current_database()`).Scan(&s.Commits, &s.Inserted, &s.Updated, &s.Deleted)
	if err != nil {
		return WriteStats{}, fmt.Errorf("pgstore: statistics: %w", err)
	}
	return s, nil
}
