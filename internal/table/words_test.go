package table_test

import (
	"slices"
	"strconv"
	"testing"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// TestSeatNames: a seat goes by its person's name, its bot's level or its
// number; a name two people share gets the seat number.
func TestSeatNames(t *testing.T) {
	seats := []table.SeatInfo{{Seat: 0, Name: "Ann"}, {Seat: 1, Bot: "greedy"}, {Seat: 2, Name: "Ann"}, {Seat: 3, Open: true}}
	want := []string{"Ann (1)", "Bot 2 (greedy)", "Ann (3)", "Seat 4"}
	if got := table.SeatNames(seats); !slices.Equal(got, want) {
		t.Fatalf("names %q, want %q", got, want)
	}
}

// TestWordsOnce: the table tells each event in words once, and every
// update carries the words of its events: the same whichever
// subscription carries them and whatever since it started from (the
// whole log for a count the table never reached), the narrator's over the
// whole log, and later updates go on where the first left off.
func TestWordsOnce(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 3, Bots: []string{"", "random", "random"}})
	mustJoin(t, tb, "a", 0)
	sub := mustSub(t, tb, "a", 0)
	// a plays until it is its turn again past the twelfth event; the
	// bots then wait for it, so the log holds still.
	acted := -1
	for {
		u := next(t, sub)
		if u.View == nil || u.View.ToMove != 0 || over(u) || u.View.EventCount == acted {
			continue
		}
		if u.View.EventCount >= 12 {
			break
		}
		acted = u.View.EventCount
		if err := tb.Act(bg, "a", 0, anyLegal(t, u)); err != nil {
			t.Fatal(err)
		}
	}
	full := next(t, mustSub(t, tb, "a", -1))
	n := full.View.EventCount
	if want := []string{"name a", "Bot 2 (random)", "Bot 3 (random)"}; !slices.Equal(full.Names, want) {
		t.Fatalf("names %q, want %q", full.Names, want)
	}
	nar := arlington.NewNarrator(full.Names)
	var want []string
	for _, e := range full.View.Events {
		want = append(want, nar.Tell(e))
	}
	if full.View.EventsFrom != 0 || len(full.View.Events) != n || !slices.Equal(full.Log, want) {
		t.Fatalf("the whole log: events from %d, %d of %d, words %q; want %q", full.View.EventsFrom, len(full.View.Events), n, full.Log, want)
	}
	for _, since := range []int{-1, 0, 3, n, n + 5} {
		for _, who := range []string{"a", "watcher"} {
			t.Run(who+" since "+strconv.Itoa(since), func(t *testing.T) {
				s := mustSub(t, tb, who, since)
				u := next(t, s)
				from := since
				if since < 0 || since > n {
					from = 0
				}
				if u.View.EventsFrom != from || len(u.View.Events) != n-from || !slices.Equal(u.Log, want[from:]) {
					t.Fatalf("events from %d, %d of them, words %q; want from %d, %q", u.View.EventsFrom, len(u.View.Events), u.Log, from, want[from:])
				}
			})
		}
	}
	later := mustSub(t, tb, "watcher", 3)
	next(t, later)
	if err := tb.Act(bg, "a", 0, anyLegal(t, full)); err != nil {
		t.Fatal(err)
	}
	u := until(t, later, func(u table.Update) bool { return u.View.EventCount > n })
	for _, e := range u.View.Events {
		want = append(want, nar.Tell(e))
	}
	if u.View.EventsFrom != n || !slices.Equal(u.Log, want[n:]) {
		t.Fatalf("the next update: events from %d, words %q; want from %d, %q", u.View.EventsFrom, u.Log, n, want[n:])
	}
}
