package table_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/rating"
	"cardtable/internal/store"
	"cardtable/internal/table"
)

// endFails is the SQLite store whose FinishRated fails while fail is set:
// the server dies between a game's last move and its end being stored.
type endFails struct {
	*store.DB
	fail atomic.Bool
}

func (e *endFails) FinishRated(ctx context.Context, id string, at time.Time, end table.RatedEnd) error {
	if e.fail.Load() {
		return errors.New("killed before the end was stored")
	}
	return e.DB.FinishRated(ctx, id, at, end)
}

// unratable is the SQLite store at which a game's result cannot be rated
// (its ranks are not one per seat): the update fails as rating.Rate does.
type unratable struct{ *store.DB }

func (u unratable) FinishRated(ctx context.Context, id string, at time.Time, end table.RatedEnd) error {
	end.Update = func([]table.Rating) ([]table.Rating, error) {
		_, err := rating.Default().Rate(make([][]rating.Rating, 2), []int{1})
		return nil, err
	}
	return u.DB.FinishRated(ctx, id, at, end)
}

func openStore(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func ratingsOf(tb testing.TB, db *store.DB, keys ...string) map[string]table.Rating {
	tb.Helper()
	got, err := db.Ratings(context.Background(), keys)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]table.Rating{}
	for _, r := range got {
		out[r.Key] = r
	}
	return out
}

// TestRatedGame: a rated game's end rates the person (by identity, under
// their name) and the bot level (once, though it held two seats), the
// winner up from where they started and the others down; the lobby's
// seats show the new ratings. A casual game rates nobody.
func TestRatedGame(t *testing.T) {
	db := openStore(t)
	h := newHub(t, db, newFakeClock())
	rated := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", "random"}, Rated: true})
	mustJoin(t, rated, "a", 0)
	if s := rated.Summary(); !s.Rated || s.Seats[1].Rating != rating.Shown(rating.Bot("random")) || s.Seats[0].Rating != 0 {
		t.Fatalf("before the game: %+v", s)
	}
	playOut(t, rated, map[int]string{0: "a"})
	roundTrip(t, h, rated)
	got := ratingsOf(t, db, "p:a", "bot:random")
	a, bot := got["p:a"], got["bot:random"]
	if a.Games != 1 || a.Name != "name a" || a.Bot || bot.Games != 1 || !bot.Bot || bot.Name != "random" {
		t.Fatalf("after one game: %+v", got)
	}
	totals := rated.Summary().Totals
	won := totals[0] > max(totals[1], totals[2])
	lost := totals[0] < min(totals[1], totals[2])
	start := rating.Default().New()
	if (won && a.Mu <= start.Mu) || (lost && a.Mu >= start.Mu) || a.Sigma >= start.Sigma {
		t.Errorf("totals %v: the person's rating %+v from %+v", totals, a, start)
	}
	s := rated.Summary()
	if s.Seats[0].Rating != rating.Shown(rating.Rating{Mu: a.Mu, Sigma: a.Sigma}) ||
		s.Seats[2].Rating != rating.Shown(rating.Rating{Mu: bot.Mu, Sigma: bot.Sigma}) {
		t.Errorf("the lobby shows %+v; ratings %+v", s.Seats, got)
	}

	casual := mustCreate(t, h, "b", table.Config{Players: 2, Target: 1, Bots: []string{"", "greedy"}})
	mustJoin(t, casual, "b", 0)
	playOut(t, casual, map[int]string{0: "b"})
	roundTrip(t, h, casual)
	if got := ratingsOf(t, db, "p:b", "bot:greedy"); len(got) != 0 {
		t.Fatalf("a casual game rated %+v", got)
	}
	if s := casual.Summary(); s.Status != table.StatusOver || s.Rated {
		t.Fatalf("the casual table: %+v", s)
	}
	if board, err := h.Leaderboard(context.Background()); err != nil || len(board) != 0 {
		t.Fatalf("leaderboard after one game each: %+v, %v", board, err)
	}
}

// TestRatedEndOnce: the server dies after a rated game's last move but
// before its end is stored; the restarted server finishes the game and
// rates it, and a later restart does not rate it again.
func TestRatedEndOnce(t *testing.T) {
	db := openStore(t)
	st := &endFails{DB: db}
	st.fail.Store(true)
	ctx, stop := context.WithCancel(context.Background())
	h, err := table.NewHub(ctx, table.Options{Store: st, Bots: newBot, Clock: newFakeClock(), BotTime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, Rated: true})
	mustJoin(t, tb, "a", 0)
	playOut(t, tb, map[int]string{0: "a"})
	roundTrip(t, h, tb)
	stop()
	h.Close()
	if got := ratingsOf(t, db, "p:a", "bot:random"); len(got) != 0 {
		t.Fatalf("rated though the end was not stored: %+v", got)
	}
	if s, err := db.LoadTable(context.Background(), tb.ID()); err != nil || s.Status != table.StatusOpen {
		t.Fatalf("the table after the crash: %v, %v", s.Status, err)
	}
	st.fail.Store(false)
	for range 2 {
		h := newHub(t, st, newFakeClock())
		r, err := h.Table(tb.ID())
		if err == nil {
			roundTrip(t, h, r) // its goroutine has started, and so finished the game
		}
		h.Close()
		got := ratingsOf(t, db, "p:a", "bot:random")
		if got["p:a"].Games != 1 || got["bot:random"].Games != 1 {
			t.Fatalf("after a restart: %+v", got)
		}
		if s, err := db.LoadTable(context.Background(), tb.ID()); err != nil || s.Status != table.StatusOver {
			t.Fatalf("the table after a restart: %v, %v", s.Status, err)
		}
	}
}

// TestRatedGameLeftIsPlayedOut: a person losing at a rated table cannot
// escape the rating by going away: when nobody is connected any more,
// the stand-in plays every person's seat to the end instead of the table
// closing idle, and the end rates the game. A casual table still closes.
func TestRatedGameLeftIsPlayedOut(t *testing.T) {
	for _, rated := range []bool{true, false} {
		t.Run(map[bool]string{true: "rated", false: "casual"}[rated], func(t *testing.T) {
			db := openStore(t)
			clk := newFakeClock()
			h := newHub(t, db, clk)
			tb := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"},
				StandIn: "random", Rated: rated})
			mustJoin(t, tb, "a", 0)
			deadline := time.After(waitTimeout)
			for done := false; !done; {
				clk.Advance(table.DefaultIdleAfter)
				select {
				case <-tb.Done():
					done = true
				case <-deadline:
					t.Fatal("the table never closed")
				case <-time.After(10 * time.Millisecond): // the next idle round
				}
			}
			s, err := db.LoadTable(context.Background(), tb.ID())
			if err != nil {
				t.Fatal(err)
			}
			got := ratingsOf(t, db, "p:a", "bot:random")
			if rated && (s.Status != table.StatusOver || got["p:a"].Games != 1 || got["bot:random"].Games != 1) {
				t.Fatalf("a rated game left by everyone: %s, ratings %+v", s.Status, got)
			}
			if !rated && (s.Status != table.StatusClosed || len(got) != 0) {
				t.Fatalf("a casual game left by everyone: %s, ratings %+v", s.Status, got)
			}
		})
	}
}

// TestRatedNeedsAPerson: a rated table with no seat for a person is
// refused; bots playing bots (random against itself, say) would move
// the levels' ratings, which people's ratings are measured against,
// without anyone playing.
func TestRatedNeedsAPerson(t *testing.T) {
	h := newHub(t, openStore(t), newFakeClock())
	_, err := h.CreateFrom(context.Background(), "a", "", table.Config{Players: 2, Target: 1, Bots: []string{"random", "random"}, Rated: true})
	if !errors.Is(err, table.ErrBadConfig) {
		t.Fatalf("a rated table of bots only: %v, want ErrBadConfig", err)
	}
	if _, err := h.CreateFrom(context.Background(), "a", "", table.Config{Players: 2, Target: 1, Bots: []string{"random", "random"}}); err != nil {
		t.Fatalf("a casual table of bots only: %v", err)
	}
}

// TestRatedNeedsATurnTimer: a person who stops playing a rated game
// while still connected would hold it unfinished for ever (and so
// unrated) without a turn timer: a rated table gets the default timer
// even with no bot, and turning it off is refused. A casual table of
// people keeps no timer by default.
func TestRatedNeedsATurnTimer(t *testing.T) {
	h := newHub(t, openStore(t), newFakeClock())
	ctx := context.Background()
	people := []string{"", ""}
	if _, err := h.CreateFrom(ctx, "a", "", table.Config{Players: 2, Bots: people, TurnSeconds: -1, Rated: true}); !errors.Is(err, table.ErrBadConfig) {
		t.Fatalf("a rated table with the timer off: %v, want ErrBadConfig", err)
	}
	for _, rated := range []bool{true, false} {
		tb, err := h.CreateFrom(ctx, "a", "", table.Config{Players: 2, Bots: people, Rated: rated})
		if err != nil {
			t.Fatal(err)
		}
		want := -1
		if rated {
			want = table.DefaultTurnSeconds
		}
		if got := tb.Summary().TurnSeconds; got != want {
			t.Errorf("rated %v: turn timer %d s by default, want %d", rated, got, want)
		}
	}
}

// TestRatedEndRetried: a store error at a rated game's end (the server
// staying up) does not leave the game unrated until some later restart:
// the table tries the end again when it closes idle.
func TestRatedEndRetried(t *testing.T) {
	db := openStore(t)
	st := &endFails{DB: db}
	st.fail.Store(true)
	clk := newFakeClock()
	h := newHub(t, st, clk)
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, StandIn: "random", Rated: true})
	mustJoin(t, tb, "a", 0)
	clk.Advance(table.DefaultIdleAfter) // nobody there: the stand-in plays the game out
	deadline := time.After(waitTimeout)
	for tb.Summary().Status != table.StatusOver {
		select {
		case <-deadline:
			t.Fatal("the game never ended")
		case <-time.After(5 * time.Millisecond):
		}
	}
	roundTrip(t, h, tb)
	if got := ratingsOf(t, db, "p:a"); len(got) != 0 {
		t.Fatalf("rated though the end was not stored: %+v", got)
	}
	st.fail.Store(false)
	clk.Advance(table.DefaultIdleAfter)
	select {
	case <-tb.Done():
	case <-deadline:
		t.Fatal("the table never closed")
	}
	if got := ratingsOf(t, db, "p:a"); got["p:a"].Games != 1 {
		t.Fatalf("after the table closed: %+v", got)
	}
	if s, err := db.LoadTable(context.Background(), tb.ID()); err != nil || s.Status != table.StatusOver {
		t.Fatalf("the table after it closed: %v, %v", s.Status, err)
	}
}

// TestRatedEndUnratable: a game whose result the ratings cannot take ends
// unrated, stored over at once, rather than staying open to fail again at
// every try and restart.
func TestRatedEndUnratable(t *testing.T) {
	db := openStore(t)
	h := newHub(t, unratable{db}, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, Rated: true})
	mustJoin(t, tb, "a", 0)
	playOut(t, tb, map[int]string{0: "a"})
	roundTrip(t, h, tb)
	if s, err := db.LoadTable(context.Background(), tb.ID()); err != nil || s.Status != table.StatusOver {
		t.Fatalf("the table after its end: %v, %v", s.Status, err)
	}
	if got := ratingsOf(t, db, "p:a", "bot:random"); len(got) != 0 {
		t.Fatalf("rated: %+v", got)
	}
}

// TestRatedTimerAlone: at a rated table a person alone with bots who
// stays connected but stops playing would hold the game unfinished, and
// unrated, for ever; so the turn timer runs there too (the stand-in plays
// that one action), where a casual table lets a slow player alone with
// bots take their time. The views say whether the timer runs (Timed).
func TestRatedTimerAlone(t *testing.T) {
	for _, rated := range []bool{true, false} {
		t.Run(map[bool]string{true: "rated", false: "casual"}[rated], func(t *testing.T) {
			clk := newFakeClock()
			h := newHub(t, openStore(t), clk)
			tb := mustCreate(t, h, "a", table.Config{Players: 2, Bots: []string{"", "random"}, TurnSeconds: 30, Rated: rated})
			mustJoin(t, tb, "a", 0)
			s := mustSub(t, tb, "a", 0)
			u := until(t, s, toMove(0))
			roundTrip(t, h, tb)
			turn := 30 * time.Second
			if got, want := clk.armed(turn), map[bool]int{true: 1, false: 0}[rated]; got != want {
				t.Fatalf("timers due within %v at the person's turn: %d, want %d", turn, got, want)
			}
			// The view says so: the page hurries its pace only for a
			// turn the timer counts.
			if u.Timed != rated {
				t.Fatalf("the person's turn is marked timed %v, want %v", u.Timed, rated)
			}
			if !rated {
				// Someone watching: now the timer runs, and the view
				// says so.
				w := mustSub(t, tb, "", 0)
				if u := until(t, w, toMove(0)); !u.Timed {
					t.Fatal("with a spectator connected the person's turn is not marked timed")
				}
				return
			}
			clk.Advance(turn)
			if u := until(t, s, movedBy(0)); u.Seats[0].Away {
				t.Fatal("a connected person whose timer ran out is marked away")
			}
		})
	}
}
