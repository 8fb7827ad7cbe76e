package storetest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
)

// The services' row types and errors under the names the SQLite store's
// tests used.
type (
	GameRecord = spidergame.Game
	SaveRecord = spidergame.Save
	Result     = spidergame.Result
	Summary    = spidergame.Summary
	Change     = spidergame.Change
	Group      = spidergame.Group
)

var (
	ErrStale    = spidergame.ErrStale
	ErrNotFound = spidergame.ErrNotFound
)

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

// TestGiveUpFinal: giving a lineage up makes its loss final, whatever came
// before; a win recorded before stays.
func TestGiveUpFinal(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
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
					db := b.Fresh(t)
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
				db := b.Fresh(t)
				if err := db.RecordResult(context.Background(), "p", Result{Lineage: "L", Won: true, GaveUp: true}); err == nil {
					t.Fatal("a given-up win was recorded")
				}
			})
		})
	}
}

// TestGiveUpGame: the mark is stored with the game at its version, with
// the loss; a stale or unknown game writes nothing, the loss included.
func TestGiveUpGame(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.Fresh(t)
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
		})
	}
}

// TestGiveUpClosesLineage: giving a game up gives up every other open game
// of its lineage (opened from its saves), each at a new version, whether
// by GiveUp or by a game created given up; other lineages and players are
// untouched, and a lineage won before keeps its other games open.
func TestGiveUpClosesLineage(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.Fresh(t)
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
		})
	}
}

// TestPlayTime: a game's play time is stored with it and with each change,
// a named save keeps it, a result records it, and the statistics give the
// best and the mean time of the timed wins (untimed results, from before
// play time was kept, left out).
func TestPlayTime(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.Fresh(t)
			g := GameRecord{ID: "g", Player: "p", Lineage: "g", Save: "s", Created: t0, Updated: t0,
				Summary: Summary{Variant: "arachnid", Suits: 1}, Played: 1500 * time.Millisecond}
			if err := db.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if got := must(db.Game(ctx, "p", "g")); got.Played != g.Played {
				t.Fatalf("created with %v, read back %v", g.Played, got.Played)
			}
			for i, snap := range []string{"", "snapshot"} {
				c := Change{ID: "g", Player: "p", Version: int64(i + 1), Cmd: "deal", Snapshot: snap,
					Summary: g.Summary, Updated: t0.Add(time.Minute), Played: time.Duration(i+2) * time.Minute}
				if err := db.UpdateGame(ctx, c); err != nil {
					t.Fatal(err)
				}
				if got := must(db.Game(ctx, "p", "g")); got.Played != c.Played {
					t.Fatalf("change %d (snapshot %q): stored %v, want %v", i+1, snap, got.Played, c.Played)
				}
			}
			if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "n", Lineage: "g", Save: "s", Updated: t0, Played: 42 * time.Second}); err != nil {
				t.Fatal(err)
			}
			if s := must(db.Save(ctx, "p", "n")); s.Played != 42*time.Second {
				t.Fatalf("save read back with %v", s.Played)
			}
			if l := must(db.Saves(ctx, "p")); len(l) != 1 || l[0].Played != 42*time.Second {
				t.Fatalf("save listed as %+v", l)
			}

			results := []Result{
				{Lineage: "a", Won: true, Played: 5 * time.Minute},
				{Lineage: "b", Won: true, Played: 3 * time.Minute},
				{Lineage: "c", Won: true},                       // untimed
				{Lineage: "d", Won: false, Played: time.Minute}, // a loss: no time counts
				{Lineage: "e", Won: false, Played: 10 * time.Minute},
			}
			for i, r := range results {
				r.Variant, r.Suits, r.Score, r.At = "arachnid", 1, 100, t0.Add(time.Duration(i)*time.Second)
				if err := db.RecordResult(ctx, "p", r); err != nil {
					t.Fatal(err)
				}
			}
			// A win replacing the loss of lineage e brings its own time.
			if err := db.RecordResult(ctx, "p", Result{Lineage: "e", Variant: "arachnid", Suits: 1, Won: true,
				At: t0.Add(time.Hour), Played: 7 * time.Minute}); err != nil {
				t.Fatal(err)
			}
			grp := find(t, must(db.Stats(ctx, "p")), "arachnid", 1)
			if grp.TimedWins != 3 || grp.BestTime != 3*time.Minute || grp.AverageTime != 5*time.Minute {
				t.Fatalf("timed wins %d, best %v, average %v; want 3, 3m, 5m", grp.TimedWins, grp.BestTime, grp.AverageTime)
			}
			if e := find(t, must(db.Stats(ctx, "p")), "spider", 4); e.TimedWins != 0 || e.BestTime != 0 || e.AverageTime != 0 {
				t.Fatalf("a group without games: %+v", e)
			}
		})
	}
}
