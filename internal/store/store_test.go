package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTemp(tb testing.TB) (*DB, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "cardtable.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, path
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// TestPageCacheBounded: every connection of both pools has the page cache
// the store sets, whatever the library's default.
func TestPageCacheBounded(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	for _, p := range []struct {
		name string
		pool *sql.DB
		n    int
	}{{"writer", db.w, 1}, {"readers", db.r, poolSize}} {
		t.Run(p.name, func(t *testing.T) {
			// Held at once, so that each is a different connection.
			for i := range p.n {
				c, err := p.pool.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				var kib int
				if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&kib); err != nil {
					t.Fatal(err)
				}
				if kib != -pageCacheKiB {
					t.Errorf("connection %d: cache_size %d, want %d (KiB)", i, kib, -pageCacheKiB)
				}
			}
		})
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	var v int
	if err := db.w.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v != Version() || v < 1 {
		t.Fatalf("user_version %d, want %d", v, Version())
	}
	if err := db.CreateGame(ctx, GameRecord{ID: "a", Player: "p", Lineage: "a", Save: "x", Created: t0, Updated: t0}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// Reopening applies nothing twice and keeps the data.
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db2.Game(ctx, "p", "a"); err != nil {
		t.Fatalf("game lost on reopen: %v", err)
	}
	// A database from a newer program is refused, not damaged.
	if _, err := db2.w.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	db2.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("newer schema: err = %v", err)
	}
}

func TestOneProcessAtATime(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	if _, err := Open(ctx, path); !errors.Is(err, errInUse) {
		t.Fatalf("second open: %v", err)
	}
	db.Close()
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	db2.Close()
}

// The behaviour of every store method is tested against both stores by
// the same tests, in internal/storetest; here, what is SQLite's own.

// TestPruneSettings: settings go once their player has nothing else
// stored; the legacy player's stay for adoption.
func TestPruneSettings(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	for _, p := range []string{"", "alone", "game", "save", "result"} {
		if err := db.PutSettings(ctx, p, `{"x":1}`); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateGame(ctx, GameRecord{ID: "g", Player: "game", Lineage: "g", Save: "s",
		Summary: Summary{Moves: 1}, Created: t0, Updated: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSave(ctx, SaveRecord{Player: "save", Name: "n", Lineage: "l", Save: "s", Updated: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordResult(ctx, "result", Result{Lineage: "r", Variant: "arachnid", Suits: 4, At: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PruneGames(ctx, t0.Add(-time.Hour), t0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "alone", "game", "save", "result"} {
		js := must(db.Settings(ctx, p))
		if kept := js != "{}"; kept != (p != "alone") {
			t.Errorf("player %q: settings %s", p, js)
		}
	}
}

// TestLegacyRowsAdopted: a database from before players (schema 1) keeps
// its games, saves, statistics and settings; the first player to adopt them
// gets them all, the next finds nothing.
func TestLegacyRowsAdopted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	init, err := migrations.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(init), "PRAGMA user_version = 1",
		`INSERT INTO games VALUES ('g', 'g', 'old save', 'arachnid', 4, '617', 3, 20, 1, 2)`,
		`INSERT INTO saves VALUES ('mine', 'g', 'old save', 'arachnid', 4, '617', 3, 20, 2)`,
		`INSERT INTO results VALUES ('g', 'arachnid', 4, 1, 900, 2)`,
		`INSERT INTO settings VALUES (1, '{"sound":false}')`,
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ok, err := db.AdoptLegacy(ctx, "first"); err != nil || !ok {
		t.Fatalf("adopt: %v %v", ok, err)
	}
	if ok, err := db.AdoptLegacy(ctx, "second"); err != nil || ok {
		t.Fatalf("second adopt: %v %v", ok, err)
	}
	if g, err := db.Game(ctx, "first", "g"); err != nil || g.Save != "old save" || g.Version != 1 || len(g.Log) != 0 {
		t.Fatalf("legacy game: %+v %v", g, err)
	}
	if s, err := db.Save(ctx, "first", "mine"); err != nil || s.Save != "old save" {
		t.Fatalf("legacy save: %+v %v", s, err)
	}
	if js, err := db.Settings(ctx, "first"); err != nil || js != `{"sound":false}` {
		t.Fatalf("legacy settings: %q %v", js, err)
	}
	if grp := find(t, must(db.Stats(ctx, "first")), "arachnid", 4); grp.Won != 1 {
		t.Fatalf("legacy statistics: %+v", grp)
	}
	if _, err := db.Game(ctx, "second", "g"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the second player sees the legacy game: %v", err)
	}
	if js, _ := db.Settings(ctx, "second"); js != "{}" {
		t.Fatalf("the second player's settings: %q", js)
	}
}

func find(tb testing.TB, gs []Group, v string, s int) Group {
	tb.Helper()
	for _, g := range gs {
		if g.Variant == v && g.Suits == s {
			return g
		}
	}
	tb.Fatalf("no group %s/%d", v, s)
	return Group{}
}

func TestResultsOncePerLineage(t *testing.T) {
	type rec struct {
		won   bool
		score int
	}
	tests := []struct {
		name    string
		records []rec
		won     bool
		score   int
	}{
		{"loss", []rec{{false, 100}}, false, 100},
		{"loss then loss keeps the first", []rec{{false, 100}, {false, 300}}, false, 100},
		{"loss then win becomes a win", []rec{{false, 100}, {true, 900}}, true, 900},
		{"win then loss stays a win", []rec{{true, 900}, {false, 100}}, true, 900},
		{"win then win keeps the first", []rec{{true, 900}, {true, 500}}, true, 900},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, _ := openTemp(t)
			for i, r := range tc.records {
				err := db.RecordResult(ctx, "p", Result{Lineage: "L", Variant: "arachnid", Suits: 1,
					Won: r.won, Score: r.score, At: t0.Add(time.Duration(i) * time.Second)})
				if err != nil {
					t.Fatal(err)
				}
			}
			g := find(t, must(db.Stats(ctx, "p")), "arachnid", 1)
			if g.Played != 1 || len(g.History) != 1 {
				t.Fatalf("lineage counted %d times", g.Played)
			}
			if h := g.History[0]; h.Won != tc.won || h.Score != tc.score {
				t.Fatalf("got won=%v score=%d, want %v %d", h.Won, h.Score, tc.won, tc.score)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestStats(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	// W W L W W W L W in arachnid/4; one spider/1 win; a lost arachnid/4
	// game with the best score.
	seq := "WWLWWWLW"
	for i, c := range seq {
		score := 100 + i
		if i == 2 {
			score = 999
		}
		err := db.RecordResult(ctx, "p", Result{Lineage: string(rune('a' + i)), Variant: "arachnid", Suits: 4,
			Won: c == 'W', Score: score, At: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.RecordResult(ctx, "p", Result{Lineage: "s", Variant: "spider", Suits: 1, Won: true, Score: 7, At: t0}); err != nil {
		t.Fatal(err)
	}
	gs, err := db.Stats(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 6 {
		t.Fatalf("%d groups, want 6", len(gs))
	}
	a := find(t, gs, "arachnid", 4)
	if a.Played != 8 || a.Won != 6 || a.CurrentStreak != 1 || a.LongestStreak != 3 || a.BestScore != 999 {
		t.Fatalf("arachnid/4: %+v", a)
	}
	if r := a.WinRate(); r != 0.75 {
		t.Fatalf("win rate %v", r)
	}
	for i := 1; i < len(a.History); i++ {
		if a.History[i].At.Before(a.History[i-1].At) {
			t.Fatal("history not in time order")
		}
	}
	s := find(t, gs, "spider", 1)
	if s.Played != 1 || s.Won != 1 || s.CurrentStreak != 1 || s.BestScore != 7 {
		t.Fatalf("spider/1: %+v", s)
	}
	if e := find(t, gs, "spider", 4); e.Played != 0 || e.WinRate() != 0 || e.History == nil {
		t.Fatalf("empty group: %+v", e)
	}
}

func TestSavesAndSettings(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	if l, err := db.Saves(ctx, "p"); err != nil || len(l) != 0 {
		t.Fatalf("saves of a new db: %v %v", l, err)
	}
	s := SaveRecord{Player: "p", Name: "my game ♠", Lineage: "L", Save: "text", Summary: Summary{Variant: "arachnid", Suits: 4, Deal: 617, Moves: 5, Score: 30}, Updated: t0}
	if err := db.PutSave(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Save(ctx, "p", s.Name); err != nil || got != s {
		t.Fatalf("got %+v %v", got, err)
	}
	s.Save, s.Moves, s.Updated = "text 2", 6, t0.Add(time.Hour)
	if err := db.PutSave(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "older", Lineage: "M", Save: "t", Updated: t0}); err != nil {
		t.Fatal(err)
	}
	l, err := db.Saves(ctx, "p")
	if err != nil || len(l) != 2 || l[0].Name != s.Name || l[0].Moves != 6 || l[0].Save != "" {
		t.Fatalf("list %+v %v", l, err)
	}
	// Another player has none of them, and cannot delete them.
	if l, err := db.Saves(ctx, "q"); err != nil || len(l) != 0 {
		t.Fatalf("another player's saves: %v %v", l, err)
	}
	if _, err := db.Save(ctx, "q", s.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another player's save: %v", err)
	}
	if err := db.DeleteSave(ctx, "q", s.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another player's delete: %v", err)
	}
	// The same name for another player is another save.
	if err := db.PutSave(ctx, SaveRecord{Player: "q", Name: s.Name, Lineage: "Q", Save: "q's", Updated: t0}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Save(ctx, "p", s.Name); err != nil || got.Save != "text 2" {
		t.Fatalf("overwritten by another player: %+v %v", got, err)
	}
	if err := db.DeleteSave(ctx, "p", s.Name); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSave(ctx, "p", s.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := db.Save(ctx, "p", s.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted save: %v", err)
	}

	if js, err := db.Settings(ctx, "p"); err != nil || js != "{}" {
		t.Fatalf("default settings %q %v", js, err)
	}
	for _, js := range []string{`{"animations":false}`, `{"verbose": true, "cheat":"full"}`} {
		if err := db.PutSettings(ctx, "p", js); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Settings(ctx, "p"); got != js {
			t.Fatalf("settings %q, want %q", got, js)
		}
	}
	if got, _ := db.Settings(ctx, "q"); got != "{}" {
		t.Fatalf("another player's settings: %q", got)
	}
}
