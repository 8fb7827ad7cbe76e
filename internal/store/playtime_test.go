package store

import (
	"context"
	"testing"
	"time"
)

// TestPlayTime: a game's play time is stored with it and with each change,
// a named save keeps it, a result records it, and the statistics give the
// best and the mean time of the timed wins (untimed results, from before
// play time was kept, left out).
func TestPlayTime(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
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
}
