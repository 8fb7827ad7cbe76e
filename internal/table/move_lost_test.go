package table_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"cardtable/internal/table"
)

// lostMoveAnswer stores a move and then answers an error, once: the
// commit went through but its answer was lost (a connection reset). The
// context of that write is spent: a read with it fails.
type lostMoveAnswer struct {
	*memStore
	lose  atomic.Bool
	spent atomic.Value // the context whose time ran out
}

func (s *lostMoveAnswer) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	err := s.memStore.AppendAction(ctx, id, seq, m)
	if err == nil && s.lose.CompareAndSwap(true, false) {
		s.spent.Store(ctx)
		return fmt.Errorf("the answer after the commit: %w", context.DeadlineExceeded)
	}
	return err
}

func (s *lostMoveAnswer) LoadTable(ctx context.Context, id string) (table.Stored, error) {
	if spent, _ := s.spent.Load().(context.Context); spent == ctx {
		return table.Stored{}, context.DeadlineExceeded
	}
	return s.memStore.LoadTable(ctx, id)
}

// A person's move stored whose answer was lost stands: it is not refused,
// everyone sees it made, it is stored once, and the game goes on from it.
// It was refused, and the table kept the position before it while the
// store refused every later move (its number was taken).
func TestMoveAfterALostAnswer(t *testing.T) {
	st := &lostMoveAnswer{memStore: newMemStore()}
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "p", table.Config{Players: 2, Bots: []string{"", "random"}})
	mustJoin(t, tb, "p", 0)
	sub := mustSub(t, tb, "p", -1)
	u := until(t, sub, toMove(0))
	before := u.View.EventCount
	stored := len(st.get(tb.ID()).Moves) // the bot may have led
	st.lose.Store(true)
	a := anyLegal(t, u)
	if err := tb.Act(bg, "p", 0, a); err != nil {
		t.Fatalf("a move stored whose answer was lost: %v, want it taken", err)
	}
	u = until(t, sub, func(u table.Update) bool { return u.View != nil && u.View.EventCount > before })
	if moves := st.get(tb.ID()).Moves; len(moves) <= stored || moves[stored].Seat != 0 {
		t.Fatalf("stored %+v, want seat 1's move %v as number %d", moves, a, stored)
	}
	// The game goes on: seat 1 moves again, at once if the move left the
	// turn with them (they took the trick, or the bot's answer came in
	// the same update), else once the bot has played.
	if !toMove(0)(u) {
		u = until(t, sub, toMove(0))
	}
	if err := tb.Act(bg, "p", 0, anyLegal(t, u)); err != nil {
		t.Fatalf("the next move: %v", err)
	}
	roundTrip(t, h, tb)
	moves := st.get(tb.ID()).Moves
	mine := 0
	for _, m := range moves {
		if m.Seat == 0 {
			mine++
		}
	}
	if mine != 2 {
		t.Fatalf("stored %+v: want seat 1's two moves, each once", moves)
	}
}

// plantedMoves, when plant is set, stores what plant makes of a move
// instead of it, once, and answers an error: the store then holds moves
// that are not, or not only, the one the table wrote.
type plantedMoves struct {
	*memStore
	plant atomic.Pointer[func(mine table.StoredMove) []table.StoredMove]
}

func (s *plantedMoves) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	plant := s.plant.Swap(nil)
	if plant == nil {
		return s.memStore.AppendAction(ctx, id, seq, m)
	}
	for i, p := range (*plant)(m) {
		if err := s.memStore.AppendAction(ctx, id, seq+i, p); err != nil {
			return err
		}
	}
	return errors.New("the connection reset")
}

// A refused move is taken as made only when the store holds exactly it as
// the next move: when the store holds another move at its number, or it
// and a move beyond it, the refusal stands and the table keeps the
// position before it (docs/tables.md, "A write whose answer was lost").
func TestMoveRefusedWhenTheStoreHoldsOther(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(mine, other table.StoredMove) []table.StoredMove
	}{
		{"another move at its number", func(_, other table.StoredMove) []table.StoredMove { return []table.StoredMove{other} }},
		{"it and a move beyond", func(mine, other table.StoredMove) []table.StoredMove { return []table.StoredMove{mine, other} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &plantedMoves{memStore: newMemStore()}
			h := newHub(t, st, newFakeClock())
			tb := mustCreate(t, h, "p", table.Config{Players: 2, Bots: []string{"", "random"}})
			mustJoin(t, tb, "p", 0)
			sub := mustSub(t, tb, "p", -1)
			u := until(t, sub, toMove(0))
			before := u.View.EventCount
			var planted []table.StoredMove
			plant := func(mine table.StoredMove) []table.StoredMove {
				other := mine // the same action, but seat 2's
				other.Seat = 1
				planted = c.plant(mine, other)
				return planted
			}
			st.plant.Store(&plant)
			stored := len(st.get(tb.ID()).Moves)
			if err := tb.Act(bg, "p", 0, anyLegal(t, u)); !errors.Is(err, table.ErrStore) {
				t.Fatalf("a move the store holds otherwise: %v, want ErrStore", err)
			}
			roundTrip(t, h, tb)
			if u := next(t, mustSub(t, tb, "p", -1)); u.View == nil || u.View.EventCount != before || u.View.ToMove != 0 {
				t.Fatalf("after the refusal the table shows %+v, want the position before (%d events, seat 1 to move)", u.View, before)
			}
			if moves := st.get(tb.ID()).Moves; len(moves) != stored+len(planted) {
				t.Fatalf("stored %+v, want only the %d planted beyond the first %d", moves, len(planted), stored)
			}
		})
	}
}
