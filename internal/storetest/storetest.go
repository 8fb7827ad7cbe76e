// Package storetest runs the same tests against every store: the SQLite
// store (internal/store) and the PostgreSQL store (internal/pgstore, on a
// throwaway server from internal/pgtest). A test of a service that needs
// the real store loops over Backends with t.Run(b.Name, ...).
//
// For tests only: no program file imports it.
package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/table"
)

// Store is everything both stores implement.
type Store interface {
	spidergame.Store
	table.Store
	table.Pruner
	table.Rater
	dbcopy.Store
	CountGames(ctx context.Context) (int, error)
	SetSaveQuota(q spidergame.SaveQuota)
	SaveUsage(ctx context.Context, player, except string) (spidergame.SaveQuota, error)
	ACMEGet(ctx context.Context, key string) ([]byte, bool, error)
	ACMEPut(ctx context.Context, key string, data []byte) error
	ACMEDelete(ctx context.Context, key string) error
	Ping(ctx context.Context) error
	Close() error
}

// Backend is one kind of store.
type Backend struct {
	Name string
	// New makes a fresh, empty database and returns its --db value (a
	// file path, or a postgres:// URL).
	New func(tb testing.TB) string
	// Shared: several stores (servers) may have one database open at once.
	Shared bool
}

// Backends are the stores, SQLite first. A package whose tests use the
// PostgreSQL one stops its server in TestMain: os.Exit(pgtest.Main(m)).
func Backends() []Backend {
	return []Backend{
		{Name: "sqlite", New: func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "cardtable.db") }},
		{Name: "postgres", New: pgtest.DB, Shared: true},
	}
}

// Open opens the database db names, as cardtable serve --db does.
func Open(ctx context.Context, db string) (Store, error) {
	if pgstore.IsURL(db) {
		return pgstore.Open(ctx, db)
	}
	return store.Open(ctx, db)
}

// OpenTB opens db for a test and closes it when the test ends.
func OpenTB(tb testing.TB, db string) Store {
	tb.Helper()
	s, err := Open(context.Background(), db)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Fresh is a store on a new database of b.
func (b Backend) Fresh(tb testing.TB) Store {
	tb.Helper()
	return OpenTB(tb, b.New(tb))
}
