package storetest_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
)

// TestStatsMatchTally: the statistics the store gives are what
// spidergame.Tally counts of the same results in the order stored
// (their time, then the order they came in): counts, streaks, best score
// and times, and each group's history. Both backends; TestLongStatsMatchTally
// has a group past HistoryLimit, which keeps its latest HistoryLimit.
func TestStatsMatchTally(t *testing.T) { statsMatchTally(t, 60, 0) }

// TestLongStatsMatchTally is TestStatsMatchTally with spider/1 past
// HistoryLimit results: over 2 s under -race (SQLite's inserts).
func TestLongStatsMatchTally(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	statsMatchTally(t, 300, spidergame.HistoryLimit+100)
}

// statsMatchTally compares the store's statistics with Tally's over n
// random results and, first, capped results of spider/1.
func statsMatchTally(t *testing.T, n, capped int) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(7, 9))
		variants := []string{"spider", "Arachnid", "spider", "other"}
		tally := spidergame.NewTally()
		var rows []any
		base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range capped + n {
			r := spidergame.Result{Lineage: "l" + strconv.Itoa(i), Variant: variants[rng.IntN(len(variants))],
				Suits: []int{1, 2, 4}[rng.IntN(3)], Won: rng.IntN(3) > 0, Score: rng.IntN(1000) - 200,
				At: base.Add(time.Duration(rng.IntN(500)) * time.Minute), Played: time.Duration(rng.IntN(3)) * time.Second}
			if i < capped {
				r.Variant, r.Suits = "spider", 1 // one group past HistoryLimit
			}
			rows = append(rows, dbcopy.Result{Player: "p", Lineage: r.Lineage, Variant: r.Variant, Suits: r.Suits,
				Won: r.Won, Score: r.Score, At: r.At.UnixMilli(), Played: r.Played.Milliseconds()})
		}
		if err := s.Import(ctx, "results", rows); err != nil {
			t.Fatal(err)
		}
		// The order the results count in: their time, then the order stored.
		var ordered []dbcopy.Result
		if err := s.Export(ctx, "results", func(row any) error {
			ordered = append(ordered, row.(dbcopy.Result))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, r := range ordered {
			tally.Add(spidergame.Result{Lineage: r.Lineage, Variant: r.Variant, Suits: r.Suits, Won: r.Won, Score: r.Score,
				At: time.UnixMilli(r.At).UTC(), Played: time.Duration(r.Played) * time.Millisecond})
		}
		want := tally.Groups()
		got := must(s.Stats(ctx, "p"))
		if len(got) != len(want) {
			t.Fatalf("%d groups, want %d", len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if len(g.History) != len(w.History) {
				t.Errorf("%s/%d: %d results in its history, want %d", w.Variant, w.Suits, len(g.History), len(w.History))
			}
			for j := range min(len(g.History), len(w.History)) {
				if g.History[j] != w.History[j] {
					t.Errorf("%s/%d: history[%d] %+v, want %+v", w.Variant, w.Suits, j, g.History[j], w.History[j])
					break
				}
			}
			g.History, w.History = nil, nil
			if !reflect.DeepEqual(g, w) {
				t.Errorf("group %d:\n got %+v\nwant %+v", i, g, w)
			}
		}
		if capped > 0 && want[3].Played < spidergame.HistoryLimit { // spider/1
			t.Fatalf("spider/1 has %d results, fewer than HistoryLimit", want[3].Played)
		}
	})
}
