package table_test

import (
	"testing"
	"time"

	"cardtable/internal/table"
)

// TestSubscribeKeepAway: a connection that asks to keep its person away
// watches a seat marked away without bringing them back (a window that
// must not undo a Leave made elsewhere meanwhile), and plays as any on a
// seat that is present; an ordinary subscription still brings them back.
func TestSubscribeKeepAway(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "p", table.Config{Players: 2, Bots: []string{"", "random"}})
	mustJoin(t, tb, "p", 0)
	if err := tb.Leave(bg, "p"); err != nil {
		t.Fatal(err)
	}
	keep, err := tb.SubscribeKeep(bg, "p", "", -1, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	if u := next(t, keep); u.Seat != 0 || !u.Seats[0].Away {
		t.Fatalf("first view of a connection keeping the person away: seat %d, %+v", u.Seat, u.Seats[0])
	}
	if s := tb.Summary().Seats[0]; !s.Away {
		t.Fatalf("seat after a keep-away subscription: %+v", s)
	}
	back := mustSub(t, tb, "p", -1)
	defer back.Close()
	if u := next(t, back); u.Seats[0].Away {
		t.Fatalf("first view of an ordinary subscription: %+v", u.Seats[0])
	}
	if s := tb.Summary().Seats[0]; s.Away || !s.Present {
		t.Fatalf("seat after an ordinary subscription: %+v", s)
	}
	// Present: a keep-away subscription leaves them present.
	again, err := tb.SubscribeKeep(bg, "p", "", -1, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if u := next(t, again); u.Seats[0].Away {
		t.Fatalf("keep-away subscription to a present seat: %+v", u.Seats[0])
	}
}

// TestSubscribeKeepAwayTimedOut: a person marked away because their
// turn's timer ran out while they were not connected did not leave: a
// connection asking to keep them away (a page shown again by Back)
// brings them back as any connection does. keepAway kept every seat
// away, so they stayed away, told they had left, though they never
// pressed Leave.
func TestSubscribeKeepAwayTimedOut(t *testing.T) {
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk)
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Bots: []string{"", ""}, TurnSeconds: 30})
	mustJoin(t, tb, "a", 0)
	mustJoin(t, tb, "b", 1)
	autoplay(t, tb, "b", 1)
	w := mustSub(t, tb, "", 0)
	until(t, w, toMove(0))
	roundTrip(t, h, tb)
	clk.Advance(30 * time.Second)
	until(t, w, func(u table.Update) bool { return u.Seats[0].Away })
	keep, err := tb.SubscribeKeep(bg, "a", "", -1, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	if u := next(t, keep); u.Seats[0].Away {
		t.Fatalf("first view of a keep-away connection of a person timed out, not left: %+v", u.Seats[0])
	}
	if s := tb.Summary().Seats[0]; s.Away {
		t.Fatalf("seat after it: %+v", s)
	}
}
