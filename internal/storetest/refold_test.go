package storetest_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// rewindSchema sets db's schema back to before the refolding migration
// (SQLite's 009, PostgreSQL's 006), as a server from before it left it:
// the version one step before it, and the tables of the migrations after
// it dropped, so that they run again too.
func rewindSchema(tb testing.TB, b storetest.Backend, db string) {
	tb.Helper()
	ctx := context.Background()
	const later = `DROP TABLE acme_cache; DROP TABLE players; ALTER TABLE settings DROP COLUMN rev`
	if b.Name == "sqlite" {
		conn, err := sql.Open("sqlite", db)
		if err == nil {
			_, err = conn.ExecContext(ctx, later)
			if err == nil {
				_, err = conn.ExecContext(ctx, "PRAGMA user_version = 8")
			}
			err = errors.Join(err, conn.Close())
		}
		if err != nil {
			tb.Fatal(err)
		}
		return
	}
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, later); err != nil {
		tb.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE cardtable_schema SET version = 5`); err != nil {
		tb.Fatal(err)
	}
}

// TestRatingNamesRefolded: a database whose names were folded before
// look-alike letters of another script were folded is refolded once
// when opened: of two people whose names now fold alike, the one with
// more games keeps the name and the other is given " (2)"; a name in
// another script that looks like no Latin one keeps its own. Opened again,
// nothing is refolded. Both backends.
func TestRatingNamesRefolded(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		// As the older fold stored them: the Cyrillic А kept.
		rows := []any{
			dbcopy.Rating{Entrant: "p:many", Name: "Alice", Mu: 25, Sigma: 8, Games: 9, Updated: 1, Folded: "alice"},
			dbcopy.Rating{Entrant: "p:few", Name: "\u0410lice", Mu: 25, Sigma: 8, Games: 2, Updated: 2, Folded: "\u0430lice"},
			dbcopy.Rating{Entrant: "p:ivan", Name: "Иван", Mu: 25, Sigma: 8, Games: 3, Updated: 3, Folded: "иван"},
			dbcopy.Rating{Entrant: "bot:master", Name: "master", Bot: true, Mu: 25, Sigma: 8, Games: 4, Updated: 4},
		}
		if err := s.Import(ctx, "ratings", rows); err != nil {
			t.Fatal(err)
		}
		s.Close()
		rewindSchema(t, b, db)

		want := map[string]string{"p:many": "Alice", "p:few": "\u0410lice (2)", "p:ivan": "Иван", "bot:master": "master"}
		names := func(s storetest.Store, when string) {
			t.Helper()
			for key, name := range want {
				got := must(s.Ratings(ctx, []string{key}))
				if len(got) != 1 || got[0].Name != name {
					t.Errorf("%s, %s is %+v, want named %q", when, key, got, name)
				}
			}
		}
		migrated := storetest.OpenTB(t, db)
		names(migrated, "after the migration")
		for _, c := range []struct {
			name string
			held bool
		}{{"ALICE", true}, {"\u0410lice", true}, {"alice (2)", true}, {"Иван", true}, {"Ivan", false}} {
			if got := must(migrated.NameTaken(ctx, table.FoldName(c.name), "p:new")); got != c.held {
				t.Errorf("after the migration, %q taken: %v, want %v", c.name, got, c.held)
			}
		}
		// A fold only a second refold would change: it must stay.
		late := dbcopy.Rating{Entrant: "p:late", Name: "ALICE", Mu: 25, Sigma: 8, Games: 50, Updated: 5, Folded: "kept"}
		if err := migrated.Import(ctx, "ratings", []any{late}); err != nil {
			t.Fatal(err)
		}
		migrated.Close()

		again := storetest.OpenTB(t, db)
		want["p:late"] = "ALICE"
		names(again, "opened again")
		var folded string
		if err := again.Export(ctx, "ratings", func(row any) error {
			if r := row.(dbcopy.Rating); r.Entrant == "p:late" {
				folded = r.Folded
			}
			return nil
		}); err != nil || folded != "kept" {
			t.Errorf("opened again, a stored fold became %q (%v): the names were refolded again", folded, err)
		}
	})
}
