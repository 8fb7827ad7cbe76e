package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestMigrationGivenUp: a database at schema 4 (before the given-up mark)
// gets the columns; its games, saves and results read back as they were,
// none given up, and its games can then be given up.
func TestMigrationGivenUp(t *testing.T) {
	ctx := context.Background()
	path, old := oldSchema(t, 4)
	for _, q := range []string{
		`INSERT INTO games (id, player, lineage, save, variant, suits, deal, moves, score, created, updated, version, logn, played)
			VALUES ('g', 'p', 'g', 'old save', 'arachnid', 4, '617', 1, 20, 1000, 2000, 2, 1, 5000)`,
		`INSERT INTO game_log (game, seq, cmd) VALUES ('g', 0, 'deal')`,
		`INSERT INTO saves (player, name, lineage, save, variant, suits, deal, moves, score, updated, played)
			VALUES ('p', 'mine', 'g', 'old save', 'arachnid', 4, '617', 3, 20, 2000, 4000)`,
		`INSERT INTO results (player, lineage, variant, suits, won, score, at, played)
			VALUES ('p', 'g', 'arachnid', 4, 0, 300, 2000, 5000)`,
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
	var v int
	if err := db.w.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != Version() || v < 5 {
		t.Fatalf("user_version %d (%v), want %d", v, err, Version())
	}
	g := must(db.Game(ctx, "p", "g"))
	want := GameRecord{ID: "g", Player: "p", Lineage: "g", Save: "old save", Log: []string{"deal"}, Version: 2,
		Summary: Summary{Variant: "arachnid", Suits: 4, Deal: 617, Moves: 1, Score: 20},
		Created: fromMillis(1000), Updated: fromMillis(2000), Played: 5 * time.Second}
	if fmt.Sprintf("%+v", g) != fmt.Sprintf("%+v", want) {
		t.Fatalf("game after the migration:\n%+v\nwant\n%+v", g, want)
	}
	if s := must(db.Save(ctx, "p", "mine")); s.GaveUp || s.Save != "old save" || s.Moves != 3 || s.Played != 4*time.Second {
		t.Fatalf("save after the migration: %+v", s)
	}
	if h := find(t, must(db.Stats(ctx, "p")), "arachnid", 4).History; len(h) != 1 || h[0].Won || h[0].Score != 300 {
		t.Fatalf("results after the migration: %+v", h)
	}
	// The old game can be given up like a new one.
	if err := db.GiveUp(ctx, "p", "g", 2, t0, Result{Lineage: "g", Variant: "arachnid", Suits: 4}); err != nil {
		t.Fatal(err)
	}
	if g := must(db.Game(ctx, "p", "g")); !g.GaveUp || g.Version != 3 || len(g.Log) != 1 {
		t.Fatalf("old game given up: %+v", g)
	}
	if s := must(db.Save(ctx, "p", "mine")); !s.GaveUp {
		t.Fatal("the old save's lineage is not given up")
	}
}
