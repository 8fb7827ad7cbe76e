package storetest_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
)

// damage runs statement on database db of backend b behind its store's
// back, as a hand edit or a faulty copy would.
func damage(tb testing.TB, b storetest.Backend, db, statement string) {
	tb.Helper()
	ctx := context.Background()
	if b.Shared {
		conn, err := pgx.Connect(ctx, db)
		if err != nil {
			tb.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, statement); err != nil {
			tb.Fatal(err)
		}
		return
	}
	conn, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, statement); err != nil {
		tb.Fatal(err)
	}
}

// TestUnreadableDeal: a stored deal that is not a number is an error
// naming the game or save, not a game of deal 0. Both backends.
func TestUnreadableDeal(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		g := spidergame.Game{ID: "g", Player: "p", Lineage: "g", Save: "s", Created: t0, Updated: t0,
			Summary: spidergame.Summary{Variant: "spider", Suits: 1, Deal: 7}}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		sv := spidergame.Save{Player: "p", Name: "kept", Lineage: "g", Save: "s", Updated: t0,
			Summary: spidergame.Summary{Variant: "spider", Suits: 1, Deal: 7}}
		if err := s.PutSave(ctx, sv); err != nil {
			t.Fatal(err)
		}
		damage(t, b, db, `UPDATE games SET deal = 'x7' WHERE id = 'g'`)
		damage(t, b, db, `UPDATE saves SET deal = '-7' WHERE name = 'kept'`)
		checks := []struct {
			name, says string
			read       func() error
		}{
			{"game", `game "g"`, func() error { _, err := s.Game(ctx, "p", "g"); return err }},
			{"save", `saved game "kept"`, func() error { _, err := s.Save(ctx, "p", "kept"); return err }},
			{"saves", `saved game "kept"`, func() error { _, err := s.Saves(ctx, "p"); return err }},
		}
		for _, c := range checks {
			t.Run(c.name, func(t *testing.T) {
				err := c.read()
				if !errors.Is(err, spidergame.ErrUnreadable) || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("read: %v, want ErrUnreadable naming %s", err, c.says)
				}
			})
		}
	})
}
