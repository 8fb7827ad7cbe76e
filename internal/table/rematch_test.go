package table_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"cardtable/internal/table"
)

// playOut plays t's game to its end: each person in seats (seat → player)
// plays a random legal action on their turn; the bots play their own.
func playOut(tb testing.TB, t *table.Table, seats map[int]string) {
	tb.Helper()
	playOutSub(tb, t, seats)
}

// playOutSub is playOut, answering the watcher's subscription it played
// out with (still open).
func playOutSub(tb testing.TB, t *table.Table, seats map[int]string) *table.Sub {
	tb.Helper()
	w := mustSub(tb, t, "", -1)
	rng := rand.New(rand.NewPCG(1, 2)) // random play makes sets: a game to 1 ends
	for {
		u := next(tb, w)
		if over(u) {
			return w
		}
		if u.View == nil {
			continue
		}
		p, ok := seats[u.View.ToMove]
		if !ok {
			continue
		}
		v, err := t.View(context.Background(), p)
		if err != nil || v.ToMove != v.Seat {
			continue // an older update: the move was made
		}
		legal := v.Legal()
		if err := t.Act(context.Background(), p, -1, legal[rng.IntN(len(legal))]); err != nil && !errors.Is(err, table.ErrNotYourTurn) {
			tb.Fatalf("%s acts: %v", p, err)
		}
	}
}

// TestRematch: after a game's end a seated person asks to play again and
// gets a new table with the same settings, the seats turned by one, the
// bot keeping its level, each person's seat held for them (stored before
// the answer), the asker seated; the old table's updates name it; a
// second asking, by the other person, gets the same table and their held
// seat, which nobody else could take, and which their updates said was
// held for them; the game starts.
func TestRematch(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	ctx := context.Background()
	old := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 2)
	if _, _, err := h.RematchFrom(ctx, old.ID(), "a", ""); !errors.Is(err, table.ErrNotOver) {
		t.Fatalf("a rematch before the end: %v, want ErrNotOver", err)
	}
	oldSub := mustSub(t, old, "b", -1)
	playOut(t, old, map[int]string{0: "a", 2: "b"})
	if _, _, err := h.RematchFrom(ctx, old.ID(), "c", ""); !errors.Is(err, table.ErrNotSeated) {
		t.Fatalf("a rematch asked by someone not seated: %v, want ErrNotSeated", err)
	}
	nt, seat, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if seat != 1 {
		t.Errorf("the asker, at seat 0, sits at %d in the rematch, want 1", seat)
	}
	stored := st.get(nt.ID())
	want := []table.StoredSeat{{Player: "b", Name: "name b", Reserved: true}, {Player: "a", Name: "name a"}, {}}
	for i := range want {
		if stored.Seats[i] != want[i] {
			t.Errorf("stored seat %d: %+v, want %+v", i, stored.Seats[i], want[i])
		}
	}
	sum := nt.Summary()
	if sum.Target != 1 || sum.Seats[2].Bot != "random" || !sum.Seats[0].Reserved || sum.Seats[0].Name != "name b" || sum.Started {
		t.Errorf("the rematch is %+v, want target 1, the bot at seat 2, seat 0 held for b, not started", sum)
	}
	if u := until(t, oldSub, func(u table.Update) bool { return u.Rematch != "" }); u.Rematch != nt.ID() {
		t.Errorf("the old table names the rematch %q, want %q", u.Rematch, nt.ID())
	}
	// With no seat open, b's page is still told a seat is held for b (so
	// it offers to take it); nobody else's is.
	for who, want := range map[string]bool{"b": true, "c": false, "": false} {
		if u := next(t, mustSub(t, nt, who, -1)); u.Held != want || u.Seat != -1 || u.Seats[0].Open {
			t.Errorf("%q's first update: held %v, seat %d, seat 0 open %v; want held %v", who, u.Held, u.Seat, u.Seats[0].Open, want)
		}
	}
	// Nobody else takes b's held seat; b, asking too, gets the same table
	// and takes it.
	if _, err := nt.Join(ctx, table.Player{ID: "c", Name: "C"}, 0); !errors.Is(err, table.ErrSeatTaken) {
		t.Errorf("someone else takes the held seat: %v, want ErrSeatTaken", err)
	}
	again, got, err := h.RematchFrom(ctx, old.ID(), "b", "")
	if err != nil || again != nt || got != 0 {
		t.Fatalf("the second asking: %v at seat %d, %v; want the same table, seat 0", again, got, err)
	}
	if s := nt.Summary(); !s.Started || s.Seats[0].Reserved {
		t.Errorf("with b seated the rematch is %+v, want started", s)
	}
}

// TestRematchSeatGivenUp: a person who gives up the seat held for them
// frees it for anyone, and the held seat survives a restart.
func TestRematchSeatGivenUp(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	ctx := context.Background()
	old := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 1)
	playOut(t, old, map[int]string{0: "a", 1: "b"})
	nt, _, err := h.RematchFrom(ctx, old.ID(), "b", "")
	if err != nil {
		t.Fatal(err)
	}
	id := nt.ID()
	h.Close()
	h2 := newHub(t, st, newFakeClock())
	nt, err = h2.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	if s := nt.Summary(); !s.Seats[1].Reserved || s.Seats[1].Name != "name a" {
		t.Fatalf("after a restart seat 1 is %+v, want held for a", s.Seats[1])
	}
	if err := nt.Leave(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got := mustJoin(t, nt, "c", -1); got != 1 {
		t.Errorf("c sits at %d, want the seat a gave up", got)
	}
}

// TestJoinOverSaysOver: a person asking for a seat at a table whose game
// is over is told the game is over, not that it has started (which sent
// them to wait for a seat at a finished game).
func TestJoinOverSaysOver(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}})
	mustJoin(t, tb, "a", 0)
	playOut(t, tb, map[int]string{0: "a"})
	_, err := tb.Join(context.Background(), table.Player{ID: "c", Name: "Cy"}, -1)
	if !errors.Is(err, table.ErrTableFull) || !strings.Contains(err.Error(), "the game is over") {
		t.Fatalf("joining a finished game: %v, want ErrTableFull saying the game is over", err)
	}
}

// TestRematchNoSeatForLeaver: a person who left the finished table
// (Leave) gets no held seat at its rematch, made before or after a
// restart: their turned seat is open to anyone. A person who only lost
// their connection keeps theirs held. Leaving once the rematch is made
// frees the seat it held for them; a person who came back after leaving
// is held for again.
func TestRematchNoSeatForLeaver(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	cfg := table.Config{Players: 3, Target: 1}
	seat := func(tb *table.Table) {
		for i, p := range []string{"a", "b", "c"} {
			mustJoin(t, tb, p, i)
		}
	}
	old := mustCreate(t, h, "a", cfg)
	seat(old)
	playOut(t, old, map[int]string{0: "a", 1: "b", 2: "c"})
	if err := old.Leave(ctx, "b"); err != nil { // c's page is merely closed
		t.Fatal(err)
	}
	h.Close()
	h = newHub(t, st, newFakeClock()) // the leave is kept over a restart
	nt, _, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	s := nt.Summary().Seats // turned: a at 1, b at 2, c at 0
	if !s[2].Open || s[2].Reserved || !s[0].Reserved || s[0].Name != "name c" {
		t.Fatalf("the rematch's seats %+v: want b's open, c's held", s)
	}
	if got := mustJoin(t, nt, "d", -1); got != 2 {
		t.Errorf("d sits at %d, want the seat b left", got)
	}

	// The rematch made first, then a leave at the finished table.
	old2 := mustCreate(t, h, "a", cfg)
	seat(old2)
	playOut(t, old2, map[int]string{0: "a", 1: "b", 2: "c"})
	nt2, _, err := h.RematchFrom(ctx, old2.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if s := nt2.Summary().Seats; !s[2].Reserved {
		t.Fatalf("the rematch's seats %+v: want b's held before b leaves", s)
	}
	if err := old2.Leave(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if s := nt2.Summary().Seats; !s[2].Open || s[2].Reserved || !s[0].Reserved {
		t.Fatalf("after b left the finished table the rematch's seats are %+v: want b's open, c's held", s)
	}

	// Left in play, then back: held for as anyone.
	old3 := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1})
	mustJoin(t, old3, "a", 0)
	mustJoin(t, old3, "b", 1)
	if err := old3.Leave(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	mustJoin(t, old3, "b", 1) // back
	playOut(t, old3, map[int]string{0: "a", 1: "b"})
	nt3, _, err := h.RematchFrom(ctx, old3.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if s := nt3.Summary().Seats; !s[0].Reserved || s[0].Name != "name b" {
		t.Fatalf("b came back, yet the rematch's seats are %+v: want b's held", s)
	}
}

// leaveOnCreate runs hook once, as the next table is created: between
// RematchFrom reading the old table's seats and recording its rematch.
type leaveOnCreate struct {
	*memStore
	hook func()
}

func (s *leaveOnCreate) CreateTable(ctx context.Context, t table.Stored) error {
	if f := s.hook; f != nil {
		s.hook = nil
		f()
	}
	return s.memStore.CreateTable(ctx, t)
}

// A person leaving the finished table while its rematch is being made
// (after its seats were read, before it was recorded) gets no held seat
// there either.
func TestRematchLeaveWhileMade(t *testing.T) {
	ctx := context.Background()
	st := &leaveOnCreate{memStore: newMemStore()}
	h := newHub(t, st, newFakeClock())
	old := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1})
	for i, p := range []string{"a", "b", "c"} {
		mustJoin(t, old, p, i)
	}
	playOut(t, old, map[int]string{0: "a", 1: "b", 2: "c"})
	st.hook = func() {
		if err := old.Leave(ctx, "b"); err != nil {
			t.Error(err)
		}
	}
	nt, _, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if st.hook != nil {
		t.Fatal("the rematch was made without creating a table")
	}
	s := nt.Summary().Seats // turned: a at 1, b at 2, c at 0
	if s[2].Reserved || !s[2].Open || !s[0].Reserved {
		t.Fatalf("b left while the rematch was made, yet its seats are %+v: want b's open, c's held", s)
	}
}

// A leave in play is kept when the live table is loaded again (a restart,
// or another server taking it over) and the game then played out there:
// the rematch holds no seat for the leaver.
func TestRematchLeftKeptOverReload(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	old := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1})
	for i, p := range []string{"a", "b", "c"} {
		mustJoin(t, old, p, i)
	}
	if err := old.Leave(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	h.Close()
	h = newHub(t, st, newFakeClock())
	tb, err := h.Table(old.ID())
	if err != nil {
		t.Fatal(err)
	}
	playOut(t, tb, map[int]string{0: "a", 2: "c"})
	nt, _, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if s := nt.Summary().Seats; s[2].Reserved || !s[2].Open || !s[0].Reserved {
		t.Fatalf("b left before the reload, yet the rematch's seats are %+v: want b's open, c's held", s)
	}
}

// TestRematchHeldSeatOnlyOne: a person whose seat a rematch holds is
// refused another open seat there, saying which seat is theirs, and
// nothing changes; they take the held one, or give it up and then sit
// anywhere. Before, they sat in the open seat while the held one stayed
// theirs: two seats.
func TestRematchHeldSeatOnlyOne(t *testing.T) {
	ctx := context.Background()
	h := newHub(t, newMemStore(), newFakeClock())
	old := mustCreate(t, h, "a", table.Config{Players: 3, Target: 1})
	for i, p := range []string{"a", "b", "c"} {
		mustJoin(t, old, p, i)
	}
	playOut(t, old, map[int]string{0: "a", 1: "b", 2: "c"})
	if err := old.Leave(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	nt, _, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	before := nt.Summary().Seats // turned: a at 1, b's seat 2 open, c's 0 held
	if !before[2].Open || !before[0].Reserved {
		t.Fatalf("the rematch's seats %+v", before)
	}
	_, err = nt.Join(ctx, table.Player{ID: "c", Name: "name c"}, 2)
	if !errors.Is(err, table.ErrSeatHeld) || err.Error() != "another seat is held for you at this rematch: seat 1, not seat 3; take seat 1, or give it up (leave) and then choose another" {
		t.Fatalf("c joins the open seat 3 with seat 1 held: %v, want ErrSeatHeld naming seat 1", err)
	}
	if after := nt.Summary().Seats; !reflect.DeepEqual(after, before) {
		t.Errorf("a refused join changed the seats: %+v, was %+v", after, before)
	}
	if got := mustJoin(t, nt, "c", -1); got != 0 {
		t.Errorf("c takes seat %d, want the held seat 0", got)
	}
}
