package storetest_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

func chatLine(n int) table.ChatLine {
	return table.ChatLine{N: n, Seat: n%3 - 1, Name: fmt.Sprint("Zoë ", n%2), Text: fmt.Sprint("line ♥ ", n),
		At: t0.Add(time.Duration(n) * 1500 * time.Millisecond)}
}

// chatRows is how many chat rows the store holds, all tables together.
func chatRows(tb testing.TB, s storetest.Store) int {
	tb.Helper()
	n := 0
	if err := s.Export(context.Background(), "live_table_chat", func(any) error { n++; return nil }); err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestTableChat: a table keeps its last keep chat lines, in order, as
// written; a line out of sequence (doubled, or after a gap) is refused
// and changes nothing, as is one for a table that does not exist; open
// tables come back with their chat; pruning a finished table takes its
// chat with it.
func TestTableChat(t *testing.T) {
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		const keep = 4
		for _, id := range []string{"t1", "t2"} {
			if err := s.CreateTable(ctx, table.Stored{ID: id, Config: "{}", Seats: []table.StoredSeat{{}, {}},
				Created: t0, Updated: t0}); err != nil {
				t.Fatal(err)
			}
		}
		if got := must(s.LoadTable(ctx, "t1")); got.Chat == nil || len(got.Chat) != 0 {
			t.Fatalf("a new table's chat: %#v", got.Chat)
		}
		var want []table.ChatLine
		for n := 1; n <= keep+3; n++ {
			if err := s.AppendChat(ctx, "t1", chatLine(n), keep); err != nil {
				t.Fatalf("line %d: %v", n, err)
			}
			want = append(want, chatLine(n))
		}
		if err := s.AppendChat(ctx, "t2", chatLine(1), keep); err != nil {
			t.Fatal(err)
		}
		want = want[len(want)-keep:]
		if got := must(s.LoadTable(ctx, "t1")); !reflect.DeepEqual(got.Chat, want) {
			t.Fatalf("chat kept:\n%+v\nwant\n%+v", got.Chat, want)
		}
		if n := chatRows(t, s); n != keep+1 {
			t.Fatalf("%d chat rows stored, want %d", n, keep+1)
		}
		for _, n := range []int{keep + 3, keep + 5, 1, 0} {
			if err := s.AppendChat(ctx, "t1", chatLine(n), keep); !errors.Is(err, spidergame.ErrStale) {
				t.Fatalf("line %d after line %d: %v", n, keep+3, err)
			}
		}
		if err := s.AppendChat(ctx, "none", chatLine(1), keep); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("chat on no table: %v", err)
		}
		if got := must(s.LoadTable(ctx, "t1")); !reflect.DeepEqual(got.Chat, want) {
			t.Fatalf("refused lines changed the chat: %+v", got.Chat)
		}
		open := must(s.OpenTables(ctx))
		if len(open) != 2 || !reflect.DeepEqual(open[0].Chat, want) || len(open[1].Chat) != 1 || open[1].Chat[0] != chatLine(1) {
			t.Fatalf("open tables' chat: %+v", open)
		}
		if err := s.FinishTable(ctx, "t1", table.StatusOver, t0); err != nil {
			t.Fatal(err)
		}
		if n := must(s.PruneTables(ctx, t0.Add(time.Hour))); n != 1 {
			t.Fatalf("%d tables pruned", n)
		}
		if n := chatRows(t, s); n != 1 {
			t.Fatalf("%d chat rows left after pruning t1, want t2's one", n)
		}
	})
}

// TestChatTwoWriters: two stores (two servers, on a shared database)
// write the same tables' chat lines at once: each line is stored exactly
// once, in order, and the bound holds.
func TestChatTwoWriters(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		const tables, lines, keep = 4, 12, 5
		for i := range tables {
			if err := s.CreateTable(ctx, table.Stored{ID: fmt.Sprint("t", i), Config: "{}", Seats: []table.StoredSeat{{}, {}},
				Created: t0, Updated: t0}); err != nil {
				t.Fatal(err)
			}
		}
		stored := race(t, writersOf(t, b, db, s), tables, 1, lines+1, func(st storetest.Store, w int, id string, n int) error {
			l := chatLine(n)
			l.Text = fmt.Sprint("writer ", w, " line ", n)
			return st.AppendChat(ctx, id, l, keep)
		})
		for i := range tables {
			id := fmt.Sprint("t", i)
			got := must(s.LoadTable(ctx, id)).Chat
			if len(got) != keep {
				t.Fatalf("%s: %d lines kept, want %d: %+v", id, len(got), keep, got)
			}
			for j, l := range got {
				if n := lines - keep + 1 + j; l.N != n {
					t.Fatalf("%s: line %d is number %d, want %d", id, j, l.N, n)
				}
			}
			for n := 1; n <= lines; n++ {
				if c := stored[fmt.Sprint(id, "/", n)]; c != 1 {
					t.Fatalf("%s line %d acknowledged %d times", id, n, c)
				}
			}
		}
	})
}
