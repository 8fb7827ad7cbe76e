package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"cardtable/internal/dbcopy"
)

// ErrNoSchema: a database db copy is to copy from holds no cardtable
// schema (an empty database, or another program's): nothing to copy;
// or one it is to copy into holds another program's tables.
var ErrNoSchema = errors.New("holds no cardtable schema")

// CheckCopySource refuses, before anything opens it (Open would give it
// cardtable's tables, or migrate them), a database cardtable db copy
// must not copy from: one with no cardtable schema, and a newer
// cardtable's. It reads through one connection of its own, in a
// read-only transaction, closed before it returns.
func CheckCopySource(ctx context.Context, url string) error {
	return inspectCopy(ctx, url, func(ctx context.Context, tx pgx.Tx, version int, found bool) error {
		if !found {
			return fmt.Errorf("%w: nothing to copy; nothing changed", ErrNoSchema)
		}
		return nil
	})
}

// CheckCopyTarget refuses, before anything opens it (Open would migrate
// it, or add cardtable's tables), a database cardtable db copy must not
// copy into: a newer cardtable's, one whose cardtable tables hold rows
// (Copy's ErrNotEmpty, in its words), and one with no cardtable schema
// but another program's tables in the schema Open would use (its
// search_path's first), as a SQLite file of another program's is
// refused.
func CheckCopyTarget(ctx context.Context, url string) error {
	return inspectCopy(ctx, url, func(ctx context.Context, tx pgx.Tx, version int, found bool) error {
		if !found {
			return foreignTables(ctx, tx)
		}
		for _, t := range dbcopy.Tables {
			var rows bool
			err := tx.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, t).Scan(&rows)
			if err == nil && rows {
				err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+pgx.Identifier{t}.Sanitize()+`)`).Scan(&rows)
			}
			if err != nil {
				return fmt.Errorf("reading %s: %w", t, err)
			}
			if rows {
				return fmt.Errorf("%w (table %s has rows): copy only into a new database; nothing changed", dbcopy.ErrNotEmpty, t)
			}
		}
		return nil
	})
}

// foreignTables refuses a database whose current schema (the one Open
// would give cardtable's tables) holds a table, view or sequence:
// another program's, there being no cardtable schema.
func foreignTables(ctx context.Context, tx pgx.Tx) error {
	var name string
	err := tx.QueryRow(ctx, `SELECT relname FROM pg_class
		WHERE relnamespace = to_regnamespace(current_schema()) AND relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
		ORDER BY relname LIMIT 1`).Scan(&name)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("reading its tables: %w", err)
	}
	return fmt.Errorf("%w but another program's tables (%s among them): give a new database, or an empty one; nothing changed",
		ErrNoSchema, name)
}

// inspectCopy reads the schema version of the database at url (found:
// it has cardtable_schema), refuses a newer one, and runs more, all in
// a read-only transaction of one connection closed before it returns.
func inspectCopy(ctx context.Context, url string, more func(ctx context.Context, tx pgx.Tx, version int, found bool) error) error {
	// pgxpool's parser, as Open's: it takes the pool's own parameters
	// (pool_max_conns) that a plain connection would send to the server.
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return urlError(url, err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return urlError(url, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		found := false
		if err := tx.QueryRow(ctx, `SELECT to_regclass('cardtable_schema') IS NOT NULL`).Scan(&found); err != nil {
			return fmt.Errorf("reading schema version: %w", err)
		}
		version := 0
		if found {
			err := tx.QueryRow(ctx, `SELECT version FROM cardtable_schema`).Scan(&version)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("reading schema version: %w", err)
			}
		}
		if v := Version(); version > v {
			return fmt.Errorf("database schema version %d is newer than this program's %d: it was %w: copy it with that version; nothing changed",
				version, v, dbcopy.ErrNewer)
		}
		return more(ctx, tx, version, found)
	})
	if err != nil {
		return urlError(url, err)
	}
	return nil
}
