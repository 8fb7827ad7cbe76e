package storetest_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// bump is a RatedEnd that adds one game and delta to each key's mu (a
// new key starts at mu 20, sigma 5), naming it name.
func bump(keys []string, name string, delta float64) table.RatedEnd {
	return table.RatedEnd{Keys: keys, Update: func(stored []table.Rating) ([]table.Rating, error) {
		out := make([]table.Rating, len(keys))
		for i, k := range keys {
			out[i] = table.Rating{Key: k, Name: name, Bot: k[0] == 'b', Mu: 20 + delta, Sigma: 5, Games: 1}
			for _, s := range stored {
				if s.Key == k {
					out[i].Mu, out[i].Sigma, out[i].Games = s.Mu+delta, s.Sigma-0.25, s.Games+1
				}
			}
		}
		return out, nil
	}}
}

func openTable(tb testing.TB, db storetest.Store, id string) {
	tb.Helper()
	ctx := context.Background()
	if err := db.CreateTable(ctx, table.Stored{ID: id, Creator: "c", Config: `{"players":2,"rated":true}`, Seed: 1,
		Seats: []table.StoredSeat{{Player: "pat", Name: "Pat"}, {}}, Status: table.StatusOpen, Created: t0, Updated: t0}); err != nil {
		tb.Fatal(err)
	}
}

// TestRatings: a rated game's end marks its table over and updates its
// entrants' ratings in one step, once: a second end of the same table
// (a restart that replays it) changes nothing; the leaderboard keeps
// only entrants with enough games, best first, bounded; a missing table
// is an error that changes nothing. Both backends.
func TestRatings(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, db storetest.Store) {
		ctx := context.Background()
		pat, bot := "p:pat", "bot:hard"
		for i := range 5 {
			id := fmt.Sprintf("g%d", i)
			openTable(t, db, id)
			if err := db.FinishRated(ctx, id, t0.Add(time.Duration(i)*time.Minute), bump([]string{pat, bot}, "Pat", 1)); err != nil {
				t.Fatal(err)
			}
			// Counted once: a restart finishing it again changes nothing.
			if err := db.FinishRated(ctx, id, t0.Add(time.Hour), bump([]string{pat, bot}, "Again", 100)); err != nil {
				t.Fatal(err)
			}
			st, err := db.LoadTable(ctx, id)
			if err != nil || st.Status != table.StatusOver || !st.Updated.Equal(t0.Add(time.Duration(i)*time.Minute)) {
				t.Fatalf("table %s after its end: %v %v %v", id, st.Status, st.Updated, err)
			}
			if open := must(db.OpenTables(ctx)); len(open) != 0 {
				t.Fatalf("%d tables still open", len(open))
			}
		}
		got := must(db.Ratings(ctx, []string{pat, bot, "p:nobody"}))
		slices.SortFunc(got, func(a, b table.Rating) int { return cmp.Compare(a.Key, b.Key) })
		want := []table.Rating{
			{Key: bot, Name: "Pat", Bot: true, Mu: 25, Sigma: 4, Games: 5},
			{Key: pat, Name: "Pat", Mu: 25, Sigma: 4, Games: 5},
		}
		if !slices.Equal(got, want) {
			t.Fatalf("ratings %+v, want %+v", got, want)
		}
		// Kim: four games (not on the board), higher.
		for i := range 4 {
			id := fmt.Sprintf("k%d", i)
			openTable(t, db, id)
			if err := db.FinishRated(ctx, id, t0, bump([]string{"p:kim"}, "Kim", 3)); err != nil {
				t.Fatal(err)
			}
		}
		// Lee: five games, the best.
		for i := range 5 {
			id := fmt.Sprintf("l%d", i)
			openTable(t, db, id)
			if err := db.FinishRated(ctx, id, t0, bump([]string{"p:lee"}, "Lee", 4)); err != nil {
				t.Fatal(err)
			}
		}
		top := must(db.TopRatings(ctx, 5, 10))
		var names []string
		for _, r := range top {
			names = append(names, r.Key)
		}
		if !slices.Equal(names, []string{"p:lee", bot, pat}) {
			t.Fatalf("leaderboard %v", names)
		}
		if top := must(db.TopRatings(ctx, 5, 1)); len(top) != 1 || top[0].Key != "p:lee" {
			t.Fatalf("leaderboard of one: %+v", top)
		}
		if got := must(db.Ratings(ctx, nil)); len(got) != 0 {
			t.Fatalf("ratings of nobody: %+v", got)
		}
		// A missing table: an error, nothing stored.
		err := db.FinishRated(ctx, "none", t0, bump([]string{"p:ghost"}, "Ghost", 1))
		if !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("missing table: %v", err)
		}
		if got := must(db.Ratings(ctx, []string{"p:ghost"})); len(got) != 0 {
			t.Fatalf("a missing table's end stored %+v", got)
		}
		// An update that fails: its error, the table still open, no
		// rating changed.
		openTable(t, db, "bad")
		errRate := errors.New("cannot rate")
		failing := table.RatedEnd{Keys: []string{pat}, Update: func([]table.Rating) ([]table.Rating, error) { return nil, errRate }}
		if err := db.FinishRated(ctx, "bad", t0, failing); !errors.Is(err, errRate) {
			t.Fatalf("failed update: %v, want its error", err)
		}
		if st := must(db.LoadTable(ctx, "bad")); st.Status != table.StatusOpen {
			t.Fatalf("table after a failed update: %v", st.Status)
		}
		if got := must(db.Ratings(ctx, []string{pat})); len(got) != 1 || got[0] != want[1] {
			t.Fatalf("ratings after a failed update: %+v", got)
		}
	})
}

// TestRatingsConcurrent: games ending at once with the same entrant (a
// bot level) each count: none of the updates is lost. Both backends.
func TestRatingsConcurrent(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, db storetest.Store) {
		ctx := context.Background()
		const n = 8
		for i := range n {
			openTable(t, db, fmt.Sprintf("c%d", i))
		}
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				keys := []string{"bot:expert", fmt.Sprintf("p:%d", i)}
				if i%2 == 1 {
					keys[0], keys[1] = keys[1], keys[0]
				}
				errs <- db.FinishRated(ctx, fmt.Sprintf("c%d", i), t0, bump(keys, "x", 1))
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got := must(db.Ratings(ctx, []string{"bot:expert"}))
		if len(got) != 1 || got[0].Games != n || got[0].Mu != 20+n {
			t.Fatalf("after %d games at once: %+v", n, got)
		}
	})
}

// TestRatingsPruned: a stream of throwaway identities each finishing a
// rated game would grow the ratings for ever; pruning the finished
// tables also deletes the ratings of people with fewer than
// MinRankedGames games (never on the leaderboard) not updated since the
// same time. Ranked people, bot levels and recent players stay. Both
// backends.
func TestRatingsPruned(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, db storetest.Store) {
		ctx := context.Background()
		end := func(id string, at time.Time, keys ...string) {
			t.Helper()
			openTable(t, db, id)
			if err := db.FinishRated(ctx, id, at, bump(keys, "x", 1)); err != nil {
				t.Fatal(err)
			}
		}
		for i := range table.MinRankedGames {
			end(fmt.Sprintf("r%d", i), t0, "p:ranked")
		}
		end("o", t0, "p:once", "bot:random")
		end("n", t0.Add(2*time.Hour), "p:recent")
		if _, err := db.PruneTables(ctx, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, r := range must(db.Ratings(ctx, []string{"p:ranked", "p:once", "bot:random", "p:recent"})) {
			left = append(left, r.Key)
		}
		slices.Sort(left)
		if want := []string{"bot:random", "p:ranked", "p:recent"}; !slices.Equal(left, want) {
			t.Fatalf("ratings after pruning: %v, want %v", left, want)
		}
	})
}

// TestRatingNamesUnique: people's rated names are unique without regard
// to case. Two people who sat under one name at once and both finish
// rated games: the later is stored as "name (2)", the next "name (3)";
// a bot level's name is not a person's. A person rated under another
// name gives the old one up. Rows stored before names were compared
// (copied in unfolded here) are made unique when the database is
// opened, the one with the most games keeping the name. Both backends.
func TestRatingNamesUnique(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		nameOf := func(s storetest.Store, key string) string {
			t.Helper()
			got := must(s.Ratings(ctx, []string{key}))
			if len(got) != 1 {
				t.Fatalf("ratings of %s: %+v", key, got)
			}
			return got[0].Name
		}
		taken := func(s storetest.Store, name, key string) bool {
			return must(s.NameTaken(ctx, table.FoldName(name), key))
		}
		for i, p := range []struct{ key, name, want string }{
			{"p:ann", "Ann", "Ann"}, {"p:other", "ANN", "ANN (2)"}, {"p:third", "ann", "ann (3)"},
			{"bot:ann", "ann", "ann"}, {"p:ann", "ann", "ann"},
		} {
			id := fmt.Sprintf("u%d", i)
			openTable(t, s, id)
			if err := s.FinishRated(ctx, id, t0, bump([]string{p.key}, p.name, 1)); err != nil {
				t.Fatal(err)
			}
			if got := nameOf(s, p.key); got != p.want {
				t.Errorf("%s rated as %q is named %q, want %q", p.key, p.name, got, p.want)
			}
		}
		if !taken(s, "aNn", "p:new") || taken(s, "Ann", "p:ann") || !taken(s, "ann (2)", "p:ann") || taken(s, "Bea", "p:new") {
			t.Error("NameTaken does not match the names stored")
		}
		openTable(t, s, "rename")
		if err := s.FinishRated(ctx, "rename", t0, bump([]string{"p:ann"}, "Zed", 1)); err != nil {
			t.Fatal(err)
		}
		if taken(s, "Ann", "p:new") {
			t.Error("a person rated as Zed still holds Ann")
		}

		rows := []any{
			dbcopy.Rating{Entrant: "p:few", Name: "Old", Mu: 25, Sigma: 8, Games: 2, Updated: 1},
			dbcopy.Rating{Entrant: "p:many", Name: "OLD", Mu: 25, Sigma: 8, Games: 9, Updated: 2},
			dbcopy.Rating{Entrant: "p:fresh", Name: "Fresh", Mu: 25, Sigma: 8, Games: 1, Updated: 3},
		}
		if err := s.Import(ctx, "ratings", rows); err != nil {
			t.Fatal(err)
		}
		s.Close()
		again := storetest.OpenTB(t, db)
		for key, want := range map[string]string{"p:many": "OLD", "p:few": "Old (2)", "p:fresh": "Fresh"} {
			if got := nameOf(again, key); got != want {
				t.Errorf("after reopening, %s is named %q, want %q", key, got, want)
			}
		}
		if !taken(again, "fresh", "p:new") || !taken(again, "old (2)", "p:new") {
			t.Error("the names stored before are not found taken after reopening")
		}
	})
}

// TestRatingNamesAtOnce: servers sharing one database that end games at
// once, each with a new person of one name (and in some, the same bot
// level), give the name once and "name (2)" once, and never deadlock; servers that
// open a database of older, unfolded ratings at once both open and make
// the names unique once. Shared backends only.
func TestRatingNamesAtOnce(t *testing.T) {
	for _, b := range storetest.Backends() {
		if !b.Shared {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.New(t)
			servers := []storetest.Store{storetest.OpenTB(t, db), storetest.OpenTB(t, db)}
			const rounds = 8
			for i := range rounds {
				ids := []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}
				var wg sync.WaitGroup
				errs := make([]error, 2)
				for j, s := range servers {
					openTable(t, s, ids[j])
					wg.Go(func() {
						keys := []string{fmt.Sprintf("p:%d-%d", i, j)}
						if i%2 == 1 { // a shared row too, locked before the names
							keys = append(keys, "bot:random")
						}
						errs[j] = s.FinishRated(ctx, ids[j], t0, bump(keys, fmt.Sprintf("Name%d", i), 1))
					})
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					t.Fatalf("round %d: %v", i, err)
				}
				var names []string
				for j := range servers {
					for _, r := range must(servers[0].Ratings(ctx, []string{fmt.Sprintf("p:%d-%d", i, j)})) {
						names = append(names, r.Name)
					}
				}
				slices.Sort(names)
				if want := []string{fmt.Sprintf("Name%d", i), fmt.Sprintf("Name%d (2)", i)}; !slices.Equal(names, want) {
					t.Fatalf("round %d: the two people are named %q, want %q", i, names, want)
				}
			}

			var rows []any
			for i := range 20 {
				rows = append(rows, dbcopy.Rating{Entrant: fmt.Sprintf("p:old%02d", i), Name: "Old", Mu: 25, Sigma: 8,
					Games: 1 + i, Updated: 1})
			}
			if err := servers[0].Import(ctx, "ratings", rows); err != nil {
				t.Fatal(err)
			}
			opened := make([]storetest.Store, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for j := range opened {
				wg.Go(func() { opened[j], errs[j] = storetest.Open(ctx, db) })
			}
			wg.Wait()
			for _, s := range opened {
				if s != nil {
					defer s.Close()
				}
			}
			if err := errors.Join(errs...); err != nil {
				t.Fatalf("two servers opening the database at once: %v", err)
			}
			seen := map[string]bool{}
			for i := range 20 {
				for _, r := range must(opened[1].Ratings(ctx, []string{fmt.Sprintf("p:old%02d", i)})) {
					if seen[table.FoldName(r.Name)] {
						t.Errorf("%s is named %q, as another is", r.Key, r.Name)
					}
					seen[table.FoldName(r.Name)] = true
				}
			}
			if len(seen) != 20 || !seen["old"] {
				t.Errorf("names after opening: %v, want 20 names, one of them Old", seen)
			}
		})
	}
}
