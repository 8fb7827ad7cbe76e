package table_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// TestRematchAfterRestart: once a finished table is no longer live (here
// a restart), its result still answers from the store (the asker's seat,
// the scores) and a seated person still gets the rematch, made from the
// stored game as the live table makes it: the same settings, the seats
// turned by one, the bot keeping its level, the other person's seat held
// for them; the other person asking finds the same table, and the result
// names it. Someone who did not play there is refused, as is a rematch
// of a game that closed before its end, and no such table is
// ErrNotFound.
func TestRematchAfterRestart(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	ctx := context.Background()
	old := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 2)
	playOut(t, old, map[int]string{0: "a", 2: "b"})
	unfinished := mustCreate(t, h, "a", table.Config{Players: 2, Bots: []string{"", "random"}})
	mustJoin(t, unfinished, "a", 0)
	h.Close()
	// As an idle close before the end leaves it (the restart would bring
	// it back live otherwise).
	if err := st.FinishTable(ctx, unfinished.ID(), table.StatusClosed, time.Now()); err != nil {
		t.Fatal(err)
	}
	h2 := newHub(t, st, newFakeClock())
	if _, err := h2.Table(old.ID()); err == nil {
		t.Fatal("the finished table is live after the restart")
	}
	e, err := h2.EndedGame(ctx, old.ID(), "b")
	if err != nil {
		t.Fatal(err)
	}
	if e.Seat != 2 || e.Name != "name b" || len(e.Totals) != 3 || len(e.Winners) == 0 || len(e.Results) == 0 || e.Rematch != "" {
		t.Errorf("b's result: %+v", e)
	}
	if _, _, err := h2.RematchFrom(ctx, old.ID(), "c", ""); !errors.Is(err, table.ErrNotSeated) {
		t.Errorf("a rematch asked by someone who did not play: %v, want ErrNotSeated", err)
	}
	// Closed before its end, a game has no result and no rematch.
	if _, _, err := h2.RematchFrom(ctx, unfinished.ID(), "a", ""); !errors.Is(err, table.ErrNotOver) {
		t.Errorf("a rematch of a game closed before its end: %v, want ErrNotOver", err)
	}
	if _, err := h2.EndedGame(ctx, unfinished.ID(), "a"); !errors.Is(err, table.ErrNotOver) {
		t.Errorf("the result of a game closed before its end: %v, want ErrNotOver", err)
	}
	if _, err := h2.EndedGame(ctx, "NOSUCHTABLE", "a"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("the result of no such table: %v, want ErrNotFound", err)
	}
	nt, seat, err := h2.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []table.StoredSeat{{Player: "b", Name: "name b", Reserved: true}, {Player: "a", Name: "name a"}, {}}
	stored := st.get(nt.ID())
	for i := range want {
		if stored.Seats[i] != want[i] {
			t.Errorf("stored seat %d: %+v, want %+v", i, stored.Seats[i], want[i])
		}
	}
	if sum := nt.Summary(); seat != 1 || sum.Target != 1 || sum.Seats[2].Bot != "random" || sum.Started {
		t.Errorf("the rematch: seat %d, %+v; want a at 1, target 1, the bot at 2, not started", seat, sum)
	}
	if e, err := h2.EndedGame(ctx, old.ID(), "b"); err != nil || e.Rematch != nt.ID() {
		t.Errorf("after the rematch the result names %q (%v), want %q", e.Rematch, err, nt.ID())
	}
	again, got, err := h2.RematchFrom(ctx, old.ID(), "b", "")
	if err != nil || again != nt || got != 0 {
		t.Fatalf("b asking: %v at seat %d, %v; want the same table, seat 0", again, got, err)
	}
	if !nt.Summary().Started {
		t.Error("with both seated the rematch has not started")
	}
}

// TestRematchOfStoredGameElsewhere: with several servers a finished
// table runs on one of them, and a rematch asked at another (where it is
// not live) is made there from the stored game; that server runs it, and
// a later asking at the first server, where the old table is live, is
// sent to it (ElsewhereError) rather than making a second one.
func TestRematchOfStoredGameElsewhere(t *testing.T) {
	url := pgtest.DB(t)
	a := startServer(t, url)
	b := startServer(t, url)
	old := mustCreate(t, a.hub, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 2)
	playOut(t, old, map[int]string{0: "a", 2: "b"})
	if _, err := b.hub.Table(old.ID()); err == nil {
		t.Fatal("the finished table is live at B too")
	}
	re, seat, err := b.hub.RematchFrom(bg, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if seat != 1 || re.Summary().Seats[2].Bot != "random" || !re.Summary().Seats[0].Reserved {
		t.Errorf("the rematch made at B: seat %d, %+v", seat, re.Summary().Seats)
	}
	if _, err := a.hub.Table(re.ID()); err == nil {
		t.Error("the rematch made at B runs at A too")
	}
	_, _, err = a.hub.RematchFrom(bg, old.ID(), "b", "")
	var ee *table.ElsewhereError
	if !errors.As(err, &ee) || ee.ID != re.ID() {
		t.Fatalf("b asking at A, where the old table runs: %v, want sent to %s", err, re.ID())
	}
}

// racingStore is a store whose first CreateTable first lets race run:
// another server creating the same table at that instant.
type racingStore struct {
	*pgstore.DB
	race func()
	once sync.Once
}

func (s *racingStore) CreateTable(ctx context.Context, t table.Stored) error {
	s.once.Do(s.race)
	return s.DB.CreateTable(ctx, t)
}

// TestRematchMadeAtOnceElsewhere: two servers making the same rematch at
// the same instant (B from the stored game, A where the old table runs)
// collide on its id in the store; the later one sends its asker to the
// table the other made (ElsewhereError) rather than failing.
func TestRematchMadeAtOnceElsewhere(t *testing.T) {
	url := pgtest.DB(t)
	a := startServer(t, url)
	old := mustCreate(t, a.hub, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 2)
	playOut(t, old, map[int]string{0: "a", 2: "b"})
	var (
		atA     *table.Table
		raceErr error
	)
	b := startServerStore(t, url, func(db *pgstore.DB) table.Store {
		return &racingStore{DB: db, race: func() { atA, _, raceErr = a.hub.RematchFrom(bg, old.ID(), "b", "") }}
	})
	_, _, err := b.hub.RematchFrom(bg, old.ID(), "a", "")
	if raceErr != nil || atA == nil {
		t.Fatalf("the rematch made at A meanwhile: %v", raceErr)
	}
	var ee *table.ElsewhereError
	if !errors.As(err, &ee) || ee.ID != atA.ID() {
		t.Fatalf("a asking at B as A made it: %v, want sent to %s", err, atA.ID())
	}
}
