package table_test

import (
	"context"
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
// gives nameless spectators numbers past those of the lines it kept, so
// a newcomer's lines cannot pass for an earlier spectator's.
func TestChatNamelessNumbersAfterRestart(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			path := b.New(t)
			db := openDB(t, path)
			h1 := newHub(t, db, newFakeClock())
			tb := mustCreate(t, h1, "p", table.Config{Players: 2})
			id := tb.ID()
			mustJoin(t, tb, "p", 0)
			w := mustSub(t, tb, "", -1)
			next(t, w)
			chatAs(t, tb, w, table.Player{ID: "s1"}, "one")
			chatAs(t, tb, w, table.Player{ID: "s2"}, "two")
			h1.Close()
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db2 := openDB(t, path)
			defer db2.Close()
			h2 := newHub(t, db2, newFakeClock())
			tb2, err := h2.Table(id)
			if err != nil {
				t.Fatalf("not restored: %v", err)
			}
			w2 := mustSub(t, tb2, "", -1)
			next(t, w2)
			if got := chatAs(t, tb2, w2, table.Player{ID: "s9"}, "three").Name; got != "Spectator 3" {
				t.Errorf("after the restart a newcomer chats as %q, want Spectator 3 (1 and 2 are in the kept lines)", got)
			}
		})
	}
}
