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
