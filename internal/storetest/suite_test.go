package storetest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// each runs body against a fresh database of every backend.
// db is the database's --db value.
func each(t *testing.T, body func(t *testing.T, b storetest.Backend, db string, s storetest.Store)) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			db := b.New(t)
			body(t, b, db, storetest.OpenTB(t, db))
		})
	}
}

// must is v, for a call that should not fail; a failure ends the test
// (as a panic).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func group(tb testing.TB, s storetest.Store, player, variant string, suits int) spidergame.Group {
	tb.Helper()
	groups, err := s.Stats(context.Background(), player)
	if err != nil {
		tb.Fatal(err)
	}
	for _, g := range groups {
		if g.Variant == variant && g.Suits == suits {
			return g
		}
	}
	tb.Fatalf("no group %s/%d", variant, suits)
	return spidergame.Group{}
}

// TestGames: create, read, a command, a snapshot, versioned writes, the
// player's own rows only.
func TestGames(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		g := spidergame.Game{ID: "g1", Player: "p", Lineage: "g1", Save: "save 1", Log: []string{}, Version: 1,
			Summary: spidergame.Summary{Variant: "spider", Suits: 2, Deal: ^uint64(0)},
			Created: t0, Updated: t0, Played: 1500 * time.Millisecond}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateGame(ctx, g); err == nil {
			t.Fatal("duplicate id accepted")
		}
		if got := must(s.Game(ctx, "p", "g1")); !reflect.DeepEqual(got, g) {
			t.Fatalf("got %+v, want %+v", got, g)
		}
		if n := must(s.CountGames(ctx)); n != 1 {
			t.Fatalf("%d games", n)
		}
		steps := []struct {
			cmd, snap, save string
			log             []string
		}{
			{"move 1 2 1", "", "save 1", []string{"move 1 2 1"}},
			{"undo", "", "save 1", []string{"move 1 2 1", "undo"}},
			{"redo", "save 2", "save 2", []string{}},
			{"deal", "", "save 2", []string{"deal"}},
		}
		for i, st := range steps {
			c := spidergame.Change{ID: "g1", Player: "p", Version: int64(i + 1), Cmd: st.cmd, Snapshot: st.snap,
				Summary: spidergame.Summary{Moves: i, Score: 10 * i}, Updated: t0.Add(time.Duration(i) * time.Minute)}
			if err := s.UpdateGame(ctx, c); err != nil {
				t.Fatalf("%s: %v", st.cmd, err)
			}
			got := must(s.Game(ctx, "p", "g1"))
			if got.Version != int64(i+2) || got.Save != st.save || !reflect.DeepEqual(got.Log, st.log) ||
				got.Moves != i || got.Score != 10*i || !got.Updated.Equal(c.Updated) {
				t.Fatalf("after %s: %+v", st.cmd, got)
			}
			if v := must(s.GameVersion(ctx, "g1")); v != int64(i+2) {
				t.Fatalf("version %d", v)
			}
		}
		before := must(s.Game(ctx, "p", "g1"))
		for _, c := range []spidergame.Change{
			{ID: "g1", Player: "p", Version: 1, Cmd: "deal"},
			{ID: "g1", Player: "p", Version: 9, Snapshot: "stale"},
		} {
			err := s.UpdateGame(ctx, c, spidergame.Result{Lineage: "g1", Variant: "spider", Suits: 2, At: t0})
			if !errors.Is(err, spidergame.ErrStale) {
				t.Fatalf("change based on version %d: %v", c.Version, err)
			}
		}
		for _, c := range []spidergame.Change{{ID: "nope", Player: "p", Version: 5}, {ID: "g1", Player: "q", Version: 5}} {
			if err := s.UpdateGame(ctx, c); !errors.Is(err, spidergame.ErrNotFound) {
				t.Fatalf("update %+v: %v", c, err)
			}
		}
		if after := must(s.Game(ctx, "p", "g1")); !reflect.DeepEqual(after, before) {
			t.Fatalf("a refused change wrote: %+v, was %+v", after, before)
		}
		if group(t, s, "p", "spider", 2).Played != 0 {
			t.Fatal("a refused change's result was kept")
		}
		if _, err := s.Game(ctx, "q", "g1"); !errors.Is(err, spidergame.ErrNotFound) {
			t.Fatalf("another player's game: %v", err)
		}
		if _, err := s.GameVersion(ctx, "nope"); !errors.Is(err, spidergame.ErrNotFound) {
			t.Fatalf("unknown game's version: %v", err)
		}
	})
}

// TestConcurrentWritersOfAGame: of several writers based on one version,
// exactly one is stored; the others are stale.
func TestConcurrentWritersOfAGame(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		if err := s.CreateGame(ctx, spidergame.Game{ID: "g", Player: "p", Lineage: "g", Save: "s", Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		writers := writersOf(t, b, db, s)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				errs[i] = writers[i%len(writers)].UpdateGame(ctx, spidergame.Change{ID: "g", Player: "p", Version: 1,
					Cmd: fmt.Sprint("cmd ", i), Updated: t0})
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, spidergame.ErrStale):
				t.Fatalf("writer: %v", err)
			}
		}
		if g := must(s.Game(ctx, "p", "g")); ok != 1 || g.Version != 2 || len(g.Log) != 1 {
			t.Fatalf("%d writers stored, game %+v", ok, g)
		}
	})
}

// writersOf is s, and for a backend several servers share, a second
// store (its own connections) on the same database.
func writersOf(tb testing.TB, b storetest.Backend, db string, s storetest.Store) []storetest.Store {
	if !b.Shared {
		return []storetest.Store{s}
	}
	return []storetest.Store{s, storetest.OpenTB(tb, db)}
}

// TestResultsAndStats: one result per lineage, a win replaces a loss, a
// given-up loss is final and closes the lineage's games; statistics.
func TestResultsAndStats(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		r := func(lineage string, won bool, score int, at time.Duration) spidergame.Result {
			return spidergame.Result{Lineage: lineage, Variant: "arachnid", Suits: 4, Won: won, Score: score,
				At: t0.Add(at * time.Minute), Played: time.Minute}
		}
		for _, x := range []spidergame.Result{r("a", false, 10, 0), r("a", true, 50, 1), r("a", false, 5, 2),
			r("b", true, 30, 3), r("c", false, 7, 4)} {
			if err := s.RecordResult(ctx, "p", x); err != nil {
				t.Fatal(err)
			}
		}
		g := group(t, s, "p", "arachnid", 4)
		if g.Played != 3 || g.Won != 2 || g.BestScore != 50 || g.CurrentStreak != 0 || g.LongestStreak != 2 ||
			g.BestTime != time.Minute || len(g.History) != 3 || g.History[0].Lineage != "a" || g.History[2].Lineage != "c" {
			t.Fatalf("stats %+v", g)
		}
		// A given-up lineage: its loss is final, its open games given up.
		if err := s.CreateGame(ctx, spidergame.Game{ID: "d1", Player: "p", Lineage: "d", Save: "s", Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.GiveUp(ctx, "p", "d1", 2, t0, r("d", false, 1, 5)); !errors.Is(err, spidergame.ErrStale) {
			t.Fatalf("give-up at a stale version: %v", err)
		}
		if err := s.GiveUp(ctx, "p", "d1", 1, t0, r("d", false, 1, 5)); err != nil {
			t.Fatal(err)
		}
		if g := must(s.Game(ctx, "p", "d1")); !g.GaveUp || g.Version != 2 {
			t.Fatalf("given-up game %+v", g)
		}
		if err := s.RecordResult(ctx, "p", r("d", true, 99, 6)); err != nil {
			t.Fatal(err)
		}
		if !must(s.LineageGivenUp(ctx, "p", "d")) || must(s.LineageGivenUp(ctx, "p", "a")) {
			t.Fatal("given-up marks")
		}
		if g := group(t, s, "p", "arachnid", 4); g.Won != 2 || g.Played != 4 {
			t.Fatalf("a win replaced a given-up loss: %+v", g)
		}
		// A game of the lineage opened later is given up with it.
		if err := s.CreateGame(ctx, spidergame.Game{ID: "c1", Player: "p", Lineage: "c", Save: "s", Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordResult(ctx, "p", spidergame.Result{Lineage: "c", Variant: "arachnid", Suits: 4, At: t0, GaveUp: true}); err != nil {
			t.Fatal(err)
		}
		if g := must(s.Game(ctx, "p", "c1")); !g.GaveUp || g.Version != 2 {
			t.Fatalf("the lineage's game: %+v", g)
		}
		if group(t, s, "q", "arachnid", 4).Played != 0 {
			t.Fatal("another player's statistics")
		}
	})
}

// TestSavesAndSettings: named saves (with the lineage's mark), their
// bound, settings.
func TestSavesAndSettings(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		sv := spidergame.Save{Player: "p", Name: "Ünïcode name", Lineage: "l", Save: "text",
			Summary: spidergame.Summary{Variant: "spider", Suits: 1, Deal: 1 << 63, Moves: 3, Score: 4},
			Updated: t0, Played: time.Second}
		if err := s.PutSave(ctx, sv); err != nil {
			t.Fatal(err)
		}
		if got := must(s.Save(ctx, "p", sv.Name)); !reflect.DeepEqual(got, sv) {
			t.Fatalf("save %+v, want %+v", got, sv)
		}
		sv2 := sv
		sv2.Name, sv2.Updated = "b", t0.Add(time.Hour)
		if err := s.PutSave(ctx, sv2); err != nil {
			t.Fatal(err)
		}
		list := must(s.Saves(ctx, "p"))
		if len(list) != 2 || list[0].Name != "b" || list[0].Save != "" {
			t.Fatalf("saves %+v", list)
		}
		if l := must(s.Saves(ctx, "q")); len(l) != 0 {
			t.Fatalf("another player's saves %+v", l)
		}
		if _, err := s.Save(ctx, "q", "b"); !errors.Is(err, spidergame.ErrNotFound) {
			t.Fatalf("another player's save: %v", err)
		}
		if err := s.DeleteSave(ctx, "p", "b"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSave(ctx, "p", "b"); !errors.Is(err, spidergame.ErrNotFound) {
			t.Fatalf("deleting twice: %v", err)
		}
		if js := must(s.Settings(ctx, "p")); js != "{}" {
			t.Fatalf("no settings: %s", js)
		}
		for _, js := range []string{`{"a":1}`, `{"a":2}`} {
			if err := s.PutSettings(ctx, "p", js); err != nil {
				t.Fatal(err)
			}
		}
		if js := must(s.Settings(ctx, "p")); js != `{"a":2}` {
			t.Fatalf("settings %s", js)
		}
	})
}

// TestLegacyAdopted: rows of the empty player go to the first adopter.
func TestLegacyAdopted(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		if err := s.CreateGame(ctx, spidergame.Game{ID: "g", Lineage: "g", Save: "s", Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSave(ctx, spidergame.Save{Name: "n", Lineage: "g", Save: "s", Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordResult(ctx, "", spidergame.Result{Lineage: "g", Variant: "spider", Suits: 1, At: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSettings(ctx, "", `{"x":1}`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AdoptLegacy(ctx, ""); err == nil {
			t.Fatal("adopting for the legacy player")
		}
		if !must(s.AdoptLegacy(ctx, "p")) || must(s.AdoptLegacy(ctx, "q")) {
			t.Fatal("the first adopter gets the rows, the next nothing")
		}
		if _, err := s.Game(ctx, "p", "g"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Save(ctx, "p", "n"); err != nil {
			t.Fatal(err)
		}
		if group(t, s, "p", "spider", 1).Played != 1 || must(s.Settings(ctx, "p")) != `{"x":1}` {
			t.Fatal("statistics or settings not adopted")
		}
	})
}

// TestPrune: idle and unplayed games go with their logs, then the
// settings of players left with nothing; saves, results and open tables
// stay; finished tables go after their time.
func TestPrune(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		day := 24 * time.Hour
		games := []struct {
			id    string
			moves int
			age   time.Duration
			kept  bool
		}{
			{"fresh-unplayed", 0, time.Hour, true},
			{"old-unplayed", 0, 2 * day, false},
			{"played", 5, 2 * day, true},
			{"long-idle", 5, 91 * day, false},
		}
		for _, g := range games {
			at := t0.Add(-g.age)
			if err := s.CreateGame(ctx, spidergame.Game{ID: g.id, Player: g.id, Lineage: g.id, Save: "s",
				Summary: spidergame.Summary{Moves: g.moves}, Created: at, Updated: at}); err != nil {
				t.Fatal(err)
			}
			if err := s.PutSettings(ctx, g.id, "{}"); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.UpdateGame(ctx, spidergame.Change{ID: "long-idle", Player: "long-idle", Version: 1, Cmd: "deal",
			Summary: spidergame.Summary{Moves: 5}, Updated: t0.Add(-91 * day)}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSave(ctx, spidergame.Save{Player: "long-idle", Name: "kept", Lineage: "long-idle", Save: "s", Updated: t0.Add(-100 * day)}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.PruneGames(ctx, t0.Add(-90*day), t0.Add(-day)); err != nil || n != 2 {
			t.Fatalf("pruned %d: %v", n, err)
		}
		for _, g := range games {
			_, err := s.Game(ctx, g.id, g.id)
			if kept := err == nil; kept != g.kept {
				t.Errorf("%s: kept %v, want %v (%v)", g.id, kept, g.kept, err)
			}
		}
		if _, err := s.Save(ctx, "long-idle", "kept"); err != nil {
			t.Fatalf("a named save was pruned: %v", err)
		}
		logs := 0
		if err := s.Export(ctx, "game_log", func(any) error { logs++; return nil }); err != nil || logs != 0 {
			t.Fatalf("%d log rows left (%v)", logs, err)
		}
		settings := 0
		if err := s.Export(ctx, "settings", func(any) error { settings++; return nil }); err != nil || settings != 3 {
			t.Fatalf("%d settings left, want those of the two kept games and the save's player (%v)", settings, err)
		}
	})
}

// TestTables: a table's life in the store: create, seats, moves in
// sequence only, finish, prune.
func TestTables(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		rec := table.Stored{ID: "t1", Creator: "p", Config: `{"players":2}`, Seed: 1<<63 + 5,
			Seats: []table.StoredSeat{{}, {}}, Status: table.StatusOpen, Created: t0, Updated: t0}
		if err := s.CreateTable(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTable(ctx, rec); err == nil {
			t.Fatal("a second table with the same id")
		}
		seats := []table.StoredSeat{{Player: "p", Name: "Pat"}, {}}
		if err := s.SaveSeats(ctx, "t1", seats); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveSeats(ctx, "none", seats); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("seats of a missing table: %v", err)
		}
		moves := []table.StoredMove{{Seat: 1, Action: "lead 7H"}, {Seat: 0, Action: "play 9H"}}
		for i, m := range moves {
			if err := s.AppendAction(ctx, "t1", i, m); err != nil {
				t.Fatal(err)
			}
		}
		for _, seq := range []int{0, 1, 3} {
			if err := s.AppendAction(ctx, "t1", seq, moves[0]); !errors.Is(err, spidergame.ErrStale) {
				t.Fatalf("seq %d: err = %v, want ErrStale", seq, err)
			}
		}
		if err := s.AppendAction(ctx, "none", 0, moves[0]); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("missing table: %v", err)
		}
		open := must(s.OpenTables(ctx))
		if len(open) != 1 {
			t.Fatalf("open tables: %v", open)
		}
		got := open[0]
		if got.Seed != rec.Seed || got.Config != rec.Config || !reflect.DeepEqual(got.Seats, seats) ||
			!reflect.DeepEqual(got.Moves, moves) || got.Status != table.StatusOpen || !got.Created.Equal(t0) {
			t.Fatalf("stored %+v", got)
		}
		if err := s.FinishTable(ctx, "t1", table.StatusOver, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendAction(ctx, "t1", 2, moves[0]); !errors.Is(err, spidergame.ErrStale) {
			t.Fatalf("a move on a finished table: %v", err)
		}
		if open := must(s.OpenTables(ctx)); len(open) != 0 {
			t.Fatalf("a finished table is open: %v", open)
		}
		if got, err := s.LoadTable(ctx, "t1"); err != nil || got.Status != table.StatusOver || len(got.Moves) != 2 {
			t.Fatalf("finished table: %+v, %v", got, err)
		}
		if n, err := s.PruneTables(ctx, t0.Add(30*time.Minute)); err != nil || n != 0 {
			t.Fatalf("pruned %d (%v) before its time", n, err)
		}
		if n, err := s.PruneTables(ctx, t0.Add(2*time.Hour)); err != nil || n != 1 {
			t.Fatalf("pruned %d, %v", n, err)
		}
		if _, err := s.LoadTable(ctx, "t1"); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("pruned table: %v", err)
		}
	})
}

// TestAppendTwoWriters: two writers (for PostgreSQL two stores with
// connections of their own, as two servers would be) store the moves of
// the same tables at once, each sending every seq: each move is stored
// exactly once, in order, and every other attempt is refused as stale.
func TestAppendTwoWriters(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		const tables, moves = 6, 15
		for i := range tables {
			if err := s.CreateTable(ctx, table.Stored{ID: fmt.Sprint("t", i), Config: "{}", Seats: []table.StoredSeat{{}, {}},
				Created: t0, Updated: t0}); err != nil {
				t.Fatal(err)
			}
		}
		stored := race(t, writersOf(t, b, db, s), tables, 0, moves, func(st storetest.Store, w int, id string, seq int) error {
			return st.AppendAction(ctx, id, seq, table.StoredMove{Seat: w, Action: fmt.Sprint("play ", seq)})
		})
		for i := range tables {
			id := fmt.Sprint("t", i)
			got := must(s.LoadTable(ctx, id))
			if len(got.Moves) != moves {
				t.Fatalf("%s: %d moves stored", id, len(got.Moves))
			}
			for seq, m := range got.Moves {
				if m.Action != fmt.Sprint("play ", seq) || stored[fmt.Sprint(id, "/", seq)] != 1 {
					t.Fatalf("%s move %d: %+v, acknowledged %d times", id, seq, m, stored[fmt.Sprint(id, "/", seq)])
				}
			}
		}
	})
}

// race has two writers (two stores on a shared database, else the one
// twice) write items from to n-1 of tables t0, t1, ... at once, each
// writer going on to the next item once its write is stored or refused as
// stale (the other writer has it). It returns how often each "table/item"
// was acknowledged.
func race(t *testing.T, writers []storetest.Store, tables, from, n int, write func(st storetest.Store, w int, id string, i int) error) map[string]int {
	t.Helper()
	if len(writers) == 1 {
		writers = append(writers, writers[0])
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := map[string]int{}
	for w, st := range writers {
		for i := range tables {
			id := fmt.Sprint("t", i)
			wg.Go(func() {
				for k := from; k < n; {
					err := write(st, w, id, k)
					switch {
					case err == nil:
						mu.Lock()
						stored[fmt.Sprint(id, "/", k)]++
						mu.Unlock()
						k++
					case errors.Is(err, spidergame.ErrStale):
						k++ // the other writer has it: go on from the next
					default:
						t.Errorf("%s %d: %v", id, k, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	return stored
}

// TestReopen: a reopened database keeps its rows and applies no migration
// twice.
func TestReopen(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		if err := s.CreateGame(ctx, spidergame.Game{ID: "a", Player: "p", Lineage: "a", Save: "x", Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s2 := storetest.OpenTB(t, db)
		if err := s2.Ping(ctx); err != nil {
			t.Fatalf("ping: %v", err)
		}
		if _, err := s2.Game(ctx, "p", "a"); err != nil {
			t.Fatalf("game lost on reopen: %v", err)
		}
	})
}

// TestSavesBounded: a player's named saves are bounded in count and in
// bytes (SaveQuota); past either, a save is refused with what to do, an
// existing name can still be overwritten within the bytes, and another
// player is not affected. For PostgreSQL, saves of one player sent at once
// to two stores (servers) stay within the bound too.
func TestSavesBounded(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, url string, db storetest.Store) {
		savesBounded(t, db)
		if b.Shared {
			savesRaced(t, url, db)
		}
	})
}

func savesBounded(t *testing.T, db storetest.Store) {
	ctx := context.Background()
	db.SetSaveQuota(spidergame.SaveQuota{Count: 5, Bytes: 10000})
	put := func(player, name string, size int) error {
		return db.PutSave(ctx, spidergame.Save{Player: player, Name: name, Save: strings.Repeat("s", size), Updated: t0})
	}
	for i := range 5 {
		if err := put("p", fmt.Sprint(i), 1000); err != nil {
			t.Fatal(err)
		}
	}
	err := put("p", "one more", 10)
	if !errors.Is(err, spidergame.ErrTooMany) || !strings.Contains(err.Error(), "you have 5 saved games (the most a player keeps); delete one to save another") {
		t.Fatalf("save 6: %v", err)
	}
	if err := put("p", "3", 2000); err != nil {
		t.Fatalf("overwriting at the limit: %v", err)
	}
	// 4 × 1000 + 2000 bytes stored; 4000 + 6001 is past 10,000.
	err = put("p", "3", 6001)
	if !errors.Is(err, spidergame.ErrTooMany) || !strings.Contains(err.Error(), "a player keeps; delete some to save it") {
		t.Fatalf("past the bytes: %v", err)
	}
	if u, err := db.SaveUsage(ctx, "p", ""); err != nil || u != (spidergame.SaveQuota{Count: 5, Bytes: 6000}) {
		t.Fatalf("usage %+v, %v", u, err)
	}
	if err := put("q", "one more", 9000); err != nil {
		t.Fatalf("another player: %v", err)
	}
	if l := must(db.Saves(ctx, "p")); len(l) != 5 {
		t.Fatalf("%d saves", len(l))
	}
}

// savesRaced: two stores on one database, each with the bound of 5 saves,
// get 10 new saves of one player at once: 5 are stored, 5 refused.
func savesRaced(t *testing.T, url string, db storetest.Store) {
	ctx := context.Background()
	other := storetest.OpenTB(t, url)
	q := spidergame.SaveQuota{Count: 5, Bytes: 1 << 20}
	db.SetSaveQuota(q)
	other.SetSaveQuota(q)
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		st := []storetest.Store{db, other}[i%2]
		wg.Go(func() {
			errs[i] = st.PutSave(ctx, spidergame.Save{Player: "race", Name: fmt.Sprint(i), Save: "s", Updated: t0})
		})
	}
	wg.Wait()
	refused := 0
	for _, err := range errs {
		if errors.Is(err, spidergame.ErrTooMany) {
			refused++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if l := must(db.Saves(ctx, "race")); len(l) != 5 || refused != 5 {
		t.Fatalf("%d saves stored, %d refused", len(l), refused)
	}
}
