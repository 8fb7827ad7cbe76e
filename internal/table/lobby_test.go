package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/internal/table"
)

func TestCreateRefusesBadSettings(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	cases := []struct {
		name string
		cfg  table.Config
	}{
		{"one seat", table.Config{Players: 1}},
		{"seven seats", table.Config{Players: 7}},
		{"negative target", table.Config{Players: 2, Target: -3}},
		{"huge target", table.Config{Players: 2, Target: table.MaxTarget + 1}},
		{"unknown bot", table.Config{Players: 2, Bots: []string{"", "wizard"}}},
		{"more bots than seats", table.Config{Players: 2, Bots: []string{"", "", "random"}}},
		{"timer too short", table.Config{Players: 2, TurnSeconds: 2}},
		{"timer too long", table.Config{Players: 2, TurnSeconds: table.MaxTurnSeconds + 1}},
		{"unknown stand-in", table.Config{Players: 2, StandIn: "wizard"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := h.CreateFrom(bg, "p", "", c.cfg); !errors.Is(err, table.ErrBadConfig) {
				t.Fatalf("err = %v, want ErrBadConfig", err)
			}
		})
	}
	// A person reads which seat: counted from 1, as the form shows seats.
	_, err := h.CreateFrom(bg, "p", "", table.Config{Players: 3, Bots: []string{"", "wizard"}})
	if want := `bad table settings: seat 2: unknown bot level "wizard"`; err == nil || err.Error() != want {
		t.Fatalf("the second seat's unknown bot: %v, want %q", err, want)
	}
	if n := len(h.List()); n != 0 {
		t.Fatalf("%d tables after refusals", n)
	}
	if _, err := h.CreateFrom(bg, "", "", table.Config{Players: 2}); !errors.Is(err, table.ErrBadPlayer) {
		t.Fatalf("no identity: %v", err)
	}
}

func TestCreateDefaults(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	cases := []struct {
		name      string
		cfg       table.Config
		turn      int
		openSeats int
	}{
		{"people only: no timer", table.Config{Players: 3}, -1, 3},
		{"with a bot: the timer", table.Config{Players: 3, Bots: []string{"", "EASY "}}, table.DefaultTurnSeconds, 2},
		{"timer off", table.Config{Players: 2, Bots: []string{"random"}, TurnSeconds: -1}, -1, 1},
		{"timer set", table.Config{Players: 2, TurnSeconds: 20}, 20, 2},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustCreate(t, h, fmt.Sprint("p", i), c.cfg).Summary()
			if s.TurnSeconds != c.turn || s.OpenSeats != c.openSeats || s.Target != 32 || s.Started {
				t.Fatalf("summary %+v", s)
			}
		})
	}
}

func TestHubLimits(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock(), func(o *table.Options) { o.MaxTables = 4; o.MaxPerPlayer = 2 })
	cfg := table.Config{Players: 2}
	mustCreate(t, h, "a", cfg)
	mustCreate(t, h, "a", cfg)
	if _, err := h.CreateFrom(bg, "a", "", cfg); !errors.Is(err, table.ErrTooMany) {
		t.Fatalf("a third table for one player: %v", err)
	}
	mustCreate(t, h, "b", cfg)
	mustCreate(t, h, "c", cfg)
	if _, err := h.CreateFrom(bg, "d", "", cfg); !errors.Is(err, table.ErrTooMany) {
		t.Fatalf("a fifth table: %v", err)
	}
	if n := len(h.List()); n != 4 {
		t.Fatalf("%d tables listed", n)
	}
	if _, err := h.Table("nope"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("unknown table: %v", err)
	}
	if _, err := h.Record(bg, "nope"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("unknown record: %v", err)
	}
}

func TestJoinAndLeave(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 3, Bots: []string{"", "random", ""}})
	w := mustSub(t, tb, "", 0)
	if u := next(t, w); u.View != nil {
		t.Fatal("a view before the game starts")
	}
	join := func(id, name string, seat int) (int, error) {
		return tb.Join(bg, table.Player{ID: id, Name: name}, seat)
	}
	if _, err := join("a", "  ", -1); !errors.Is(err, table.ErrBadName) {
		t.Fatalf("blank name: %v", err)
	}
	if _, err := join("a", strings.Repeat("x", table.MaxNameRunes+1), -1); !errors.Is(err, table.ErrBadName) {
		t.Fatalf("long name: %v", err)
	}
	if _, err := join("a", "a\x07", -1); !errors.Is(err, table.ErrBadName) {
		t.Fatalf("control character: %v", err)
	}
	if _, err := join("a", "\u3164\u034f", -1); !errors.Is(err, table.ErrBadName) {
		t.Fatalf("invisible name: %v", err)
	}
	// The words count seats from 1, as the page and --seat do.
	if _, err := join("a", "Ann", 1); !errors.Is(err, table.ErrSeatTaken) || err.Error() != "seat taken: seat 2" {
		t.Fatalf("a bot's seat: %v, want \"seat taken: seat 2\"", err)
	}
	if _, err := join("a", "Ann", 5); !errors.Is(err, table.ErrNoSeat) { // bad input, not a seat taken
		t.Fatalf("no such seat: %v", err)
	}
	if s, err := join("a", "Ann", 2); err != nil || s != 2 {
		t.Fatalf("join seat 2: %d, %v", s, err)
	}
	if s, err := join("a", "Annie", -1); err != nil || s != 2 {
		t.Fatalf("joining again keeps the seat: %d, %v", s, err)
	}
	if st.get(tb.ID()).Seats[2] != (table.StoredSeat{Player: "a", Name: "Annie"}) {
		t.Fatalf("stored seats %+v", st.get(tb.ID()).Seats)
	}
	if _, err := join("b", "Bo", 2); !errors.Is(err, table.ErrSeatTaken) || err.Error() != "seat taken: seat 3" {
		t.Fatalf("a taken seat: %v, want \"seat taken: seat 3\"", err)
	}
	if err := tb.Leave(bg, "b"); !errors.Is(err, table.ErrNotSeated) {
		t.Fatalf("leave unseated: %v", err)
	}
	if err := tb.Leave(bg, "a"); err != nil {
		t.Fatal(err)
	}
	if s := tb.Summary(); s.OpenSeats != 2 {
		t.Fatalf("leaving before the start opens the seat: %+v", s)
	}
	mustJoin(t, tb, "a", -1)
	if s, err := join("b", "Bo", -1); err != nil || s != 2 {
		t.Fatalf("the last open seat: %d, %v", s, err)
	}
	u := until(t, w, func(u table.Update) bool { return u.View != nil })
	if u.Seats[2].Name != "Bo" || u.Seats[0].Name != "name a" || u.Seats[1].Bot != "random" {
		t.Fatalf("seats %+v", u.Seats)
	}
	if _, err := join("c", "Cy", -1); !errors.Is(err, table.ErrTableFull) {
		t.Fatalf("join a started table: %v", err)
	}
	// Leaving after the start keeps the seat the player's, played by a
	// bot at once while they are away.
	if err := tb.Leave(bg, "b"); err != nil {
		t.Fatal(err)
	}
	if s := tb.Summary(); !s.Seats[2].Away || s.Seats[2].Name != "Bo" {
		t.Fatalf("after leaving a game in play: %+v", s.Seats[2])
	}
}

func TestChat(t *testing.T) {
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk)
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	mustJoin(t, tb, "a", 0)
	w := mustSub(t, tb, "", 0)
	say := func(id, text string) error { return tb.Chat(bg, table.Player{ID: id, Name: "Watcher"}, text) }
	cases := []struct {
		text string
		want error
	}{
		{"", table.ErrChat},
		{" \n\t ", table.ErrChat},
		{strings.Repeat("é", table.MaxChatRunes+1), table.ErrChat},
		{"bad \xff utf-8", table.ErrChat},
	}
	for _, c := range cases {
		if err := say("a", c.text); !errors.Is(err, c.want) {
			t.Fatalf("chat %q: %v, want %v", c.text, err, c.want)
		}
	}
	for i := range table.ChatBurst {
		if err := say("a", fmt.Sprintf("hello\n%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := say("a", "one more"); !errors.Is(err, table.ErrRateLimited) {
		t.Fatalf("past the burst: %v", err)
	}
	if err := say("b", "a spectator"); err != nil {
		t.Fatalf("another player is not limited by a's messages: %v", err)
	}
	clk.Advance(table.ChatEvery)
	if err := say("a", "again"); err != nil {
		t.Fatalf("after %v: %v", table.ChatEvery, err)
	}
	u := until(t, w, func(u table.Update) bool { return len(u.Chat) > 0 && u.Chat[len(u.Chat)-1].Text == "again" })
	last := u.Chat[len(u.Chat)-1]
	if last.Seat != 0 || last.Name != "name a" || last.N != table.ChatBurst+2 {
		t.Fatalf("line %+v", last)
	}
	// The history is bounded and a new subscriber gets it.
	for i := range 2 * table.ChatHistory {
		if err := say(fmt.Sprint("s", i), fmt.Sprint("line ", i)); err != nil {
			t.Fatal(err)
		}
	}
	first := next(t, mustSub(t, tb, "", 0))
	if len(first.Chat) != table.ChatHistory || first.Chat[len(first.Chat)-1].Text != fmt.Sprint("line ", 2*table.ChatHistory-1) {
		t.Fatalf("history of %d lines, last %+v", len(first.Chat), first.Chat[len(first.Chat)-1])
	}
	if strings.Contains(u.Chat[0].Text, "\n") {
		t.Fatal("a line break kept in a chat line")
	}
}

// TestViewIsTheSeatsOwn: View gives a seated player their own seat's view
// (their hand, no other), and nothing to a stranger or before the start.
func TestViewIsTheSeatsOwn(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	mustJoin(t, tb, "alice", 0)
	if _, err := tb.View(bg, "alice"); !errors.Is(err, table.ErrNotStarted) {
		t.Fatalf("before the start: %v, want ErrNotStarted", err)
	}
	mustJoin(t, tb, "bob", 1)
	if _, err := tb.View(bg, "eve"); !errors.Is(err, table.ErrNotSeated) {
		t.Fatalf("a stranger: %v, want ErrNotSeated", err)
	}
	for seat, id := range []string{"alice", "bob"} {
		v, err := tb.View(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Seat != seat || len(v.Hand) == 0 {
			t.Fatalf("%s: seat %d hand %v, want seat %d with cards", id, v.Seat, v.Hand, seat)
		}
	}
}

// TestLeftNotPresentFromAnotherWindow: a person who left the game in
// play while another window of theirs stays connected is away and not
// present: a Leave is the person's. Before, the other window kept them
// shown present while the stand-in played their seat.
func TestLeftNotPresentFromAnotherWindow(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	mustJoin(t, tb, "a", 0)
	mustJoin(t, tb, "b", 1)          // the game starts
	other := mustSub(t, tb, "a", -1) // Ann's other window
	next(t, other)
	if s := tb.Summary().Seats[0]; !s.Present || s.Away {
		t.Fatalf("Ann connected: %+v", s)
	}
	if err := tb.Leave(bg, "a"); err != nil {
		t.Fatal(err)
	}
	u := next(t, other)
	for !u.Seats[0].Away { // updates sent before the Leave's
		u = next(t, other)
	}
	if s := u.Seats[0]; s.Present {
		t.Errorf("Ann left, her other window open: the seat is %+v; want away, not present", s)
	}
	if s := tb.Summary().Seats[0]; !s.Away || s.Present {
		t.Errorf("Ann left: the lobby shows her seat %+v; want away, not present", s)
	}
}
