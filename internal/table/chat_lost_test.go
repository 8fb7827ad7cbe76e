package table_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/table"
)

// lostChatAnswer stores a chat line and then answers an error, once: the
// commit went through but its answer was lost (a connection reset).
// The context of that write is spent: a read with it fails.
type lostChatAnswer struct {
	*memStore
	lose  atomic.Bool
	spent atomic.Value // the context whose time ran out
}

func (s *lostChatAnswer) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	err := s.memStore.AppendChat(ctx, id, l, keep)
	if err == nil && s.lose.CompareAndSwap(true, false) {
		s.spent.Store(ctx)
		return fmt.Errorf("the answer after the commit: %w", context.DeadlineExceeded)
	}
	return err
}

func (s *lostChatAnswer) LoadTable(ctx context.Context, id string) (table.Stored, error) {
	if spent, _ := s.spent.Load().(context.Context); spent == ctx {
		return table.Stored{}, context.DeadlineExceeded
	}
	return s.memStore.LoadTable(ctx, id)
}

// A chat line stored whose answer was lost is sent: its sender is told
// so (not that it was not stored, while everyone sees it), everyone sees
// it once, and the next line takes the next number.
func TestChatAfterALostAnswer(t *testing.T) {
	st := &lostChatAnswer{memStore: newMemStore()}
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	st.lose.Store(true)
	if err := tb.Chat(bg, table.Player{ID: "x", Name: "X"}, "stored"); err != nil {
		t.Fatalf("chat whose answer was lost: %v, want it sent", err)
	}
	if err := tb.Chat(bg, table.Player{ID: "y", Name: "Y"}, "next"); err != nil {
		t.Fatalf("the next line: %v", err)
	}
	var got []table.ChatLine
	for len(got) < 2 {
		got = append(got, next(t, w).Chat...)
	}
	if len(got) != 2 || got[0].N != 1 || got[0].Text != "stored" || got[1].N != 2 || got[1].Text != "next" {
		t.Fatalf("sent %+v, want lines 1 (stored) and 2 (next)", got)
	}
	if c := st.get(tb.ID()).Chat; len(c) != 2 {
		t.Fatalf("stored %+v", c)
	}
}

// otherChat, when other is set, stores a line of that text in place of
// the one written, once, and answers an error.
type otherChat struct {
	*memStore
	other atomic.Pointer[string]
}

func (s *otherChat) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	if text := s.other.Swap(nil); text != nil {
		l.Text = *text
		if err := s.memStore.AppendChat(ctx, id, l, keep); err != nil {
			return err
		}
		return errors.New("the connection reset")
	}
	return s.memStore.AppendChat(ctx, id, l, keep)
}

// A chat line is taken as sent after a refused write only when the store
// holds it: when it holds another line at its number, its sender is told
// it was not stored, and everyone sees the stored line.
func TestChatRefusedWhenTheStoreHoldsOther(t *testing.T) {
	st := &otherChat{memStore: newMemStore()}
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	other := "another"
	st.other.Store(&other)
	if err := tb.Chat(bg, table.Player{ID: "x", Name: "X"}, "mine"); !errors.Is(err, table.ErrChatNotStored) {
		t.Fatalf("chat whose number the store holds otherwise: %v, want ErrChatNotStored", err)
	}
	if got := next(t, w).Chat; len(got) != 1 || got[0].N != 1 || got[0].Text != other {
		t.Fatalf("sent %+v, want the stored line 1 (%s)", got, other)
	}
}

// A chat line the store refuses because another server holds the table
// stops the table here, as a refused move does.
func TestMovedChatDropsTable(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	st.setFail(fmt.Errorf("taken: %w", table.ErrMoved))
	if err := tb.Chat(bg, table.Player{ID: "x", Name: "X"}, "hello"); !errors.Is(err, table.ErrMoved) {
		t.Fatalf("chat on a table that moved: %v, want ErrMoved", err)
	}
	select {
	case <-tb.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the table runs on after its chat was refused as moved")
	}
	if !tb.Moved() {
		t.Fatal("the table does not say it moved")
	}
}
