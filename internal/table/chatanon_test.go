package table_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// chatAs has who say text at tb and returns the line as a watcher w is
// sent it.
func chatAs(tb testing.TB, t *table.Table, w *table.Sub, who table.Player, text string) table.ChatLine {
	tb.Helper()
	if err := t.Chat(context.Background(), who, text); err != nil {
		tb.Fatalf("%s says %q: %v", who.ID, text, err)
	}
	got := next(tb, w).Chat
	if len(got) != 1 || got[0].Text != text {
		tb.Fatalf("%s said %q; sent %+v", who.ID, text, got)
	}
	return got[0]
}

// TestChatNamelessSpectatorsNumbered: spectators who gave no name chat
// as "Spectator 1", "Spectator 2", in the order they first chat, each
// keeping their number; a named spectator keeps their name. Two such
// spectators both read "Spectator", and no one could tell whether one
// person or two was talking.
func TestChatNamelessSpectatorsNumbered(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "p", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	for _, c := range []struct{ id, name, text, want string }{
		{"s1", "", "hello", "Spectator 1"},
		{"s2", " ", "hi", "Spectator 2"},
		{"ann", "Ann", "hey", "Ann"},
		{"s1", "", "who is winning?", "Spectator 1"},
		{"s3", "", "me too", "Spectator 3"},
		{"s2", "", "bye", "Spectator 2"},
	} {
		l := chatAs(t, tb, w, table.Player{ID: c.id, Name: c.name}, c.text)
		if l.Name != c.want || l.Seat != -1 {
			t.Errorf("%s (name %q) says %q as %q at seat %d, want %q at -1", c.id, c.name, c.text, l.Name, l.Seat, c.want)
		}
	}
}

// TestChatNamelessRefusedLinesTakeNoNumber: a nameless spectator's line
// that is refused (empty, past the chat allowance, not stored) gives no
// number: the next line accepted takes the next one, with no gap.
func TestChatNamelessRefusedLinesTakeNoNumber(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "p", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	if err := tb.Chat(bg, table.Player{ID: "empty"}, "  "); !errors.Is(err, table.ErrChat) {
		t.Fatalf("an empty line: %v, want ErrChat", err)
	}
	// One address's allowance used up by a named spectator.
	for i := 0; ; i++ {
		err := tb.Chat(bg, table.Player{ID: fmt.Sprint("named", i), Name: "Ann", Addr: "192.0.2.1"}, "hi")
		if errors.Is(err, table.ErrRateLimited) {
			break
		}
		if err != nil || i > table.AddrChatBurst {
			t.Fatalf("line %d from one address: %v", i, err)
		}
		next(t, w)
	}
	if err := tb.Chat(bg, table.Player{ID: "limited", Addr: "192.0.2.1"}, "hi"); !errors.Is(err, table.ErrRateLimited) {
		t.Fatalf("a line past the address's allowance: %v, want ErrRateLimited", err)
	}
	st.setFail(errors.New("disk full"))
	if err := tb.Chat(bg, table.Player{ID: "unstored"}, "hi"); !errors.Is(err, table.ErrChatNotStored) {
		t.Fatalf("a line the store refused: %v, want ErrChatNotStored", err)
	}
	st.setFail(nil)
	for _, c := range []struct{ id, want string }{{"s1", "Spectator 1"}, {"unstored", "Spectator 2"}, {"s1", "Spectator 1"}} {
		if got := chatAs(t, tb, w, table.Player{ID: c.id}, "hello").Name; got != c.want {
			t.Errorf("%s chats as %q after lines refused, want %q", c.id, got, c.want)
		}
	}
}

// TestChatNamelessNumbersBounded: a table remembers at most MaxAnon
// nameless spectators' numbers; past it they are forgotten and each
// takes a new number at their next line, never one given before.
func TestChatNamelessNumbersBounded(t *testing.T) {
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk)
	tb := mustCreate(t, h, "p", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	say := func(id string) string {
		t.Helper()
		clk.Advance(table.ChatEvery) // every allowance full again: the chat's own bound stays out of the way
		return chatAs(t, tb, w, table.Player{ID: id}, "hi").Name
	}
	for i := range table.MaxAnon {
		if got, want := say(fmt.Sprint("s", i)), fmt.Sprint("Spectator ", i+1); got != want {
			t.Fatalf("spectator %d chats as %q, want %q", i, got, want)
		}
	}
	if got, want := say("s0"), "Spectator 1"; got != want {
		t.Fatalf("within the bound, the first spectator chats again as %q, want %q", got, want)
	}
	if got, want := say("past"), fmt.Sprint("Spectator ", table.MaxAnon+1); got != want {
		t.Fatalf("past the bound, a newcomer chats as %q, want %q", got, want)
	}
	if got, want := say("s0"), fmt.Sprint("Spectator ", table.MaxAnon+2); got != want {
		t.Fatalf("past the bound, the first spectator chats again as %q, want a new number, %q", got, want)
	}
}

// TestChatNamelessNumbersAfterRestart: a table restored from its store
// gives nameless spectators numbers past every number given before,
// those of the lines it kept and those of the lines it forgot, so a
// newcomer's lines cannot pass for an earlier spectator's.
func TestChatNamelessNumbersAfterRestart(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			path := b.New(t)
			db := openDB(t, path)
			clk := newFakeClock()
			h1 := newHub(t, db, clk)
			tb := mustCreate(t, h1, "p", table.Config{Players: 2})
			id := tb.ID()
			mustJoin(t, tb, "p", 0)
			w := mustSub(t, tb, "", -1)
			next(t, w)
			for _, s := range []string{"s1", "s2", "s3", "s1"} {
				chatAs(t, tb, w, table.Player{ID: s}, "hi")
			}
			// Spectators 2 and 3's lines are forgotten; only 1's last is kept.
			for i := range table.ChatHistory - 1 {
				clk.Advance(table.ChatEvery)
				chatAs(t, tb, w, table.Player{ID: "p"}, fmt.Sprint("line ", i))
			}
			tb2, _ := restartTable(t, h1, db, path, id)
			w2 := mustSub(t, tb2, "", -1)
			if c := next(t, w2).Chat; len(c) != table.ChatHistory || c[0].Name != "Spectator 1" {
				t.Fatalf("kept after the restart: %d lines from %+v, want %d from Spectator 1's", len(c), c[0], table.ChatHistory)
			}
			for _, c := range []struct{ id, want string }{{"s9", "Spectator 4"}, {"s1", "Spectator 5"}, {"s9", "Spectator 4"}} {
				if got := chatAs(t, tb2, w2, table.Player{ID: c.id}, "again").Name; got != c.want {
					t.Errorf("after the restart %s chats as %q, want %q (1 to 3 were given before)", c.id, got, c.want)
				}
			}
		})
	}
}
