package table_test

import (
	"context"
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
	until(t, sub, func(u table.Update) bool { return u.View != nil && u.View.EventCount > before })
	if moves := st.get(tb.ID()).Moves; len(moves) <= stored || moves[stored].Seat != 0 {
		t.Fatalf("stored %+v, want seat 1's move %v as number %d", moves, a, stored)
	}
	// The game goes on: seat 1 moves again once the bot has played.
	u = until(t, sub, toMove(0))
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
