package storetest_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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
// naming the game or save, not a game of deal 0. Both backends. The list
// of saves is the exception (TestDamagedSaveListed).
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

// TestDamagedSaveListed: one damaged save does not hide the player's
// others. The list still answers, the damaged one in it marked Damaged
// (no deal) so the player can delete it; it alone is refused by name,
// with ErrUnreadable, and deleting it works. Both backends.
func TestDamagedSaveListed(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		for i, name := range []string{"good", "bad", "other"} {
			sv := spidergame.Save{Player: "p", Name: name, Lineage: "g" + name, Save: "s",
				Updated: t0.Add(time.Duration(i) * time.Minute),
				Summary: spidergame.Summary{Variant: "spider", Suits: 1, Deal: uint64(7 + i), Moves: 3}}
			if err := s.PutSave(ctx, sv); err != nil {
				t.Fatal(err)
			}
		}
		damage(t, b, db, `UPDATE saves SET deal = 'x8' WHERE name = 'bad'`)
		list, err := s.Saves(ctx, "p")
		if err != nil {
			t.Fatalf("list with one damaged save: %v", err)
		}
		got := make([]string, len(list))
		for i, sv := range list {
			got[i] = fmt.Sprintf("%s deal=%d moves=%d damaged=%v", sv.Name, sv.Deal, sv.Moves, sv.Damaged)
		}
		want := []string{"other deal=9 moves=3 damaged=false", "bad deal=0 moves=3 damaged=true",
			"good deal=7 moves=3 damaged=false"}
		if !slices.Equal(got, want) {
			t.Fatalf("list %q, want %q", got, want)
		}
		if _, err := s.Save(ctx, "p", "good"); err != nil {
			t.Fatalf("opening a sound save: %v", err)
		}
		if _, err := s.Save(ctx, "p", "bad"); !errors.Is(err, spidergame.ErrUnreadable) {
			t.Fatalf("opening the damaged save: %v, want ErrUnreadable", err)
		}
		if err := s.DeleteSave(ctx, "p", "bad"); err != nil {
			t.Fatalf("deleting the damaged save: %v", err)
		}
		if list, err := s.Saves(ctx, "p"); err != nil || len(list) != 2 {
			t.Fatalf("after the delete: %d saves, %v; want the 2 sound ones", len(list), err)
		}
	})
}
