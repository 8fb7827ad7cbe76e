package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestMigrationGivenUp: a database at schema 4 (before the given-up mark)
// gets the columns; its games, saves and results read back as they were,
// none given up, and its games can then be given up.
func TestMigrationGivenUp(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names[:4] {
		text, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(string(text)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := old.Exec(fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
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

// TestGiveUpFinal: giving a lineage up makes its loss final, whatever came
// before; a win recorded before stays.
func TestGiveUpFinal(t *testing.T) {
	type rec struct {
		won, gaveUp bool
		score       int
	}
	tests := []struct {
		name    string
		records []rec
		won     bool
		score   int
		gaveUp  bool // the save of the lineage says given up
	}{
		{"given up alone", []rec{{false, true, 100}}, false, 100, true},
		{"given up then won stays lost", []rec{{false, true, 100}, {true, false, 900}}, false, 100, true},
		{"lost, given up, then won stays lost", []rec{{false, false, 100}, {false, true, 200}, {true, false, 900}}, false, 100, true},
		{"given up twice keeps the first", []rec{{false, true, 100}, {false, true, 300}}, false, 100, true},
		{"won then given up stays won", []rec{{true, false, 900}, {false, true, 100}}, true, 900, false},
		{"lost then won, not given up", []rec{{false, false, 100}, {true, false, 900}}, true, 900, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, _ := openTemp(t)
			if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "s", Lineage: "L", Save: "x", Updated: t0}); err != nil {
				t.Fatal(err)
			}
			for i, r := range tc.records {
				err := db.RecordResult(ctx, "p", Result{Lineage: "L", Variant: "arachnid", Suits: 1,
					Won: r.won, GaveUp: r.gaveUp, Score: r.score, At: t0.Add(time.Duration(i) * time.Second)})
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
			if s := must(db.Save(ctx, "p", "s")); s.GaveUp != tc.gaveUp {
				t.Fatalf("save given up %v, want %v", s.GaveUp, tc.gaveUp)
			}
			if l := must(db.Saves(ctx, "p")); len(l) != 1 || l[0].GaveUp != tc.gaveUp {
				t.Fatalf("saves listed %+v, want given up %v", l, tc.gaveUp)
			}
		})
	}
	t.Run("a win cannot be given up", func(t *testing.T) {
		db, _ := openTemp(t)
		if err := db.RecordResult(context.Background(), "p", Result{Lineage: "L", Won: true, GaveUp: true}); err == nil {
			t.Fatal("a given-up win was recorded")
		}
	})
}

// TestGiveUpGame: the mark is stored with the game at its version, with
// the loss; a stale or unknown game writes nothing, the loss included.
func TestGiveUpGame(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	g := GameRecord{ID: "g", Player: "p", Lineage: "L", Save: "s", Created: t0, Updated: t0,
		Summary: Summary{Variant: "spider", Suits: 2}}
	if err := db.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	loss := Result{Lineage: "L", Variant: "spider", Suits: 2, Score: 480, At: t0}
	for _, tc := range []struct {
		player, id string
		version    int64
		want       error
	}{{"p", "g", 2, ErrStale}, {"q", "g", 1, ErrNotFound}, {"p", "nope", 1, ErrNotFound}} {
		if err := db.GiveUp(ctx, tc.player, tc.id, tc.version, t0, loss); !errors.Is(err, tc.want) {
			t.Fatalf("GiveUp(%s, %s, %d): %v, want %v", tc.player, tc.id, tc.version, err, tc.want)
		}
	}
	if got := must(db.Game(ctx, "p", "g")); got.GaveUp || got.Version != 1 {
		t.Fatalf("refused give-ups changed the game: %+v", got)
	}
	if grp := find(t, must(db.Stats(ctx, "p")), "spider", 2); grp.Played != 0 {
		t.Fatalf("refused give-ups recorded %+v", grp)
	}
	if err := db.GiveUp(ctx, "p", "g", 1, t0.Add(time.Hour), loss); err != nil {
		t.Fatal(err)
	}
	got := must(db.Game(ctx, "p", "g"))
	if !got.GaveUp || got.Version != 2 || !got.Updated.Equal(t0.Add(time.Hour)) {
		t.Fatalf("given up: %+v", got)
	}
	if grp := find(t, must(db.Stats(ctx, "p")), "spider", 2); grp.Played != 1 || grp.Won != 0 || grp.BestScore != 480 {
		t.Fatalf("given up recorded %+v", grp)
	}
	if err := db.GiveUp(ctx, "p", "g", 2, t0, Result{Lineage: "L", Won: true}); err == nil {
		t.Fatal("gave a game up with a win")
	}

	// A game created given up stores its loss in the same write.
	g2 := g
	g2.ID, g2.Lineage, g2.GaveUp = "g2", "L2", true
	if err := db.CreateGame(ctx, g2, Result{Lineage: "L2", Variant: "spider", Suits: 2, GaveUp: true, At: t0}); err != nil {
		t.Fatal(err)
	}
	if got := must(db.Game(ctx, "p", "g2")); !got.GaveUp || got.Version != 1 {
		t.Fatalf("created given up: %+v", got)
	}
	if grp := find(t, must(db.Stats(ctx, "p")), "spider", 2); grp.Played != 2 || grp.Won != 0 {
		t.Fatalf("created given up, recorded %+v", grp)
	}
}

// TestGiveUpClosesLineage: giving a game up gives up every other open game
// of its lineage (opened from its saves), each at a new version, whether
// by GiveUp or by a game created given up; other lineages and players are
// untouched, and a lineage won before keeps its other games open.
func TestGiveUpClosesLineage(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	mk := func(player, id, lineage string) {
		t.Helper()
		g := GameRecord{ID: id, Player: player, Lineage: lineage, Save: "s", Created: t0, Updated: t0,
			Summary: Summary{Variant: "spider", Suits: 2}}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	state := func(player, id string) (bool, int64) {
		t.Helper()
		g := must(db.Game(ctx, player, id))
		return g.GaveUp, g.Version
	}
	mk("p", "a", "L")
	mk("p", "b", "L")
	mk("p", "c", "M")
	mk("q", "d", "N")
	loss := Result{Lineage: "L", Variant: "spider", Suits: 2, At: t0}
	if err := db.GiveUp(ctx, "p", "a", 1, t0, loss); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		player, id string
		gaveUp     bool
		version    int64
	}{{"p", "a", true, 2}, {"p", "b", true, 2}, {"p", "c", false, 1}, {"q", "d", false, 1}} {
		if g, v := state(tc.player, tc.id); g != tc.gaveUp || v != tc.version {
			t.Errorf("game %s: given up %v at version %d, want %v at %d", tc.id, g, v, tc.gaveUp, tc.version)
		}
	}
	// A game created given up (a save's analysis) closes its lineage too.
	mk("p", "c2", "M")
	g := GameRecord{ID: "c3", Player: "p", Lineage: "M", Save: "s", Created: t0, Updated: t0, GaveUp: true}
	if err := db.CreateGame(ctx, g, Result{Lineage: "M", Variant: "spider", Suits: 2, GaveUp: true, At: t0}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"c", "c2"} {
		if g, v := state("p", id); !g || v != 2 {
			t.Errorf("game %s of a lineage created given up: given up %v at version %d", id, g, v)
		}
	}
	// A lineage won first stays won, its games open.
	mk("p", "w1", "W")
	mk("p", "w2", "W")
	if err := db.RecordResult(ctx, "p", Result{Lineage: "W", Variant: "spider", Suits: 2, Won: true, At: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.GiveUp(ctx, "p", "w1", 1, t0, Result{Lineage: "W", Variant: "spider", Suits: 2, At: t0}); err != nil {
		t.Fatal(err)
	}
	if g, v := state("p", "w2"); g || v != 1 {
		t.Errorf("a won lineage's other game: given up %v at version %d", g, v)
	}
	for lineage, want := range map[string]bool{"L": true, "W": false, "nope": false} {
		if got := must(db.LineageGivenUp(ctx, "p", lineage)); got != want {
			t.Errorf("LineageGivenUp(%s) = %v, want %v", lineage, got, want)
		}
	}
}
