package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pool is the connection pool with every error passed through full (a
// disk full, a database out of reach: down), so that no query can
// forget it and answer a request 500 where 503 is meant. It offers only
// the calls the store makes; raw is pgxpool's, for Close and its counts.
type pool struct{ raw *pgxpool.Pool }

func (p pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.raw.Exec(ctx, sql, args...)
	return tag, full(err)
}

func (p pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := p.raw.Query(ctx, sql, args...)
	if err != nil {
		return nil, full(err)
	}
	return classifiedRows{rows}, nil
}

func (p pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return classifiedRow{p.raw.QueryRow(ctx, sql, args...)}
}

func (p pool) Ping(ctx context.Context) error { return down(p.raw.Ping(ctx)) }

// Begin and BeginTx make pool a pgx.BeginFunc's and BeginTxFunc's
// beginner; the transaction's own statements' errors are classified
// where the transaction's error is returned (tx, read).
func (p pool) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := p.raw.Begin(ctx)
	return tx, full(err)
}

func (p pool) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) {
	tx, err := p.raw.BeginTx(ctx, o)
	return tx, full(err)
}

// classifiedRow is a pool's row: Scan's error (the query's, the
// connection's) passed through full.
type classifiedRow struct{ pgx.Row }

func (r classifiedRow) Scan(dest ...any) error { return full(r.Row.Scan(dest...)) }

// classifiedRows is a pool's rows: a connection lost while they are read
// is said by Err (and Scan), passed through full.
type classifiedRows struct{ pgx.Rows }

func (r classifiedRows) Err() error             { return full(r.Rows.Err()) }
func (r classifiedRows) Scan(dest ...any) error { return full(r.Rows.Scan(dest...)) }
