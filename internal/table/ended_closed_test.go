package table_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardtable/internal/table"
)

// TestEndedRematchClosed: a finished table live here has no stored
// result to ask for (ErrNotOver: its page has its views); once it is no
// longer live, a rematch that closed since (idle: nobody came) is not
// advertised as one to join but said closed, and asking again for it is
// ErrNotFound. Someone who never sat at a stored table whose game cannot
// be replayed is refused as not seated, before any replay.
func TestEndedRematchClosed(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	ctx := context.Background()
	old := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 1)
	playOut(t, old, map[int]string{0: "a", 1: "b"})
	if _, err := h.EndedGame(ctx, old.ID(), "a"); !errors.Is(err, table.ErrNotOver) {
		t.Errorf("the stored result of a table live here: %v, want ErrNotOver", err)
	}
	re, _, err := h.RematchFrom(ctx, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	// As the rematch's idle close leaves it: b never came.
	if err := st.FinishTable(ctx, re.ID(), table.StatusClosed, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishTable(ctx, old.ID(), table.StatusOver, time.Now()); err != nil {
		t.Fatal(err)
	}
	h2 := newHub(t, st, newFakeClock())
	e, err := h2.EndedGame(ctx, old.ID(), "b")
	if err != nil {
		t.Fatal(err)
	}
	if e.Rematch != "" || !e.RematchClosed {
		t.Errorf("with its rematch closed the result says rematch %q, closed %v; want none, closed", e.Rematch, e.RematchClosed)
	}
	if _, _, err := h2.RematchFrom(ctx, old.ID(), "b", ""); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("asking for the closed rematch: %v, want ErrNotFound", err)
	}

	// A stored game that cannot be replayed (damaged): a stranger's
	// asking is refused on the stored seats alone.
	st.mu.Lock()
	st.tables[old.ID()].Moves = append(st.tables[old.ID()].Moves, table.StoredMove{Seat: 0, Action: "no such action"})
	st.mu.Unlock()
	if _, _, err := h2.RematchFrom(ctx, old.ID(), "c", ""); !errors.Is(err, table.ErrNotSeated) {
		t.Errorf("a stranger asking for a rematch of a damaged stored game: %v, want ErrNotSeated", err)
	}
}

// TestRematchAsTheTableCloses: the old table closes (idle, after its end)
// between RematchFrom finding it live and asking it who sat where; the
// rematch is then made from the stored game, as for a table no longer
// live, instead of failing on the closed table.
func TestRematchAsTheTableCloses(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h := newHub(t, st, clk)
	old := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}})
	mustJoin(t, old, "a", 0)
	playOutSub(t, old, map[int]string{0: "a"}).Close() // nobody connected: it may close idle
	table.SetRematchFoundHook(h, func() {
		deadline := time.After(waitTimeout)
		for {
			clk.Advance(table.DefaultIdleAfter)
			select {
			case <-old.Done():
				return
			case <-deadline:
				t.Error("the old table never closed")
				return
			case <-time.After(10 * time.Millisecond): // the next idle round
			}
		}
	})
	re, seat, err := h.RematchFrom(context.Background(), old.ID(), "a", "")
	if err != nil {
		t.Fatalf("a rematch as the old table closes: %v", err)
	}
	if seat != 1 || re.Summary().Seats[0].Bot != "random" {
		t.Errorf("the rematch: seat %d, %+v; want a at 1, the bot at 0", seat, re.Summary().Seats)
	}
}

// TestLiveTableRematchCloses: a page left open at a finished table,
// still live, whose rematch closes (idle: nobody came) is told so
// (Update.RematchClosed), instead of being offered a rematch to join
// that can no longer be joined.
func TestLiveTableRematchCloses(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h := newHub(t, st, clk)
	old := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 1)
	oldSub := mustSub(t, old, "b", -1) // b's page stays open: old stays live
	playOut(t, old, map[int]string{0: "a", 1: "b"})
	re, _, err := h.RematchFrom(context.Background(), old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	if u := until(t, oldSub, func(u table.Update) bool { return u.Rematch != "" }); u.RematchClosed {
		t.Fatal("the rematch is said closed as it is made")
	}
	deadline := time.After(waitTimeout)
	for closed := false; !closed; {
		clk.Advance(table.DefaultIdleAfter)
		select {
		case <-re.Done():
			closed = true
		case <-deadline:
			t.Fatal("the rematch never closed")
		case <-time.After(10 * time.Millisecond): // the next idle round
		}
	}
	if _, err := h.Table(old.ID()); err != nil {
		t.Fatalf("the old table closed too (%v): this test needs it live", err)
	}
	if u := until(t, oldSub, func(u table.Update) bool { return u.RematchClosed }); u.Rematch != re.ID() {
		t.Errorf("the closed rematch is named %q, want %q", u.Rematch, re.ID())
	}
}
