package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/internal/table"
)

var bg = context.Background()

// collect reads a subscription to the game's end, checking that the
// events arrive numbered without gap or repeat, and returns the updates.
func collect(tb testing.TB, s *table.Sub) []table.Update {
	tb.Helper()
	var out []table.Update
	have := -1
	for {
		u := next(tb, s)
		out = append(out, u)
		if u.View == nil {
			continue
		}
		if have >= 0 && u.View.EventsFrom != have {
			tb.Fatalf("events from %d, after %d received", u.View.EventsFrom, have)
		}
		for i, e := range u.View.Events {
			if e.N != u.View.EventsFrom+i {
				tb.Fatalf("event %d numbered %d", u.View.EventsFrom+i, e.N)
			}
		}
		have = u.View.EventCount
		if over(u) {
			return out
		}
	}
}

func TestBotsPlayToEnd(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "creator", table.Config{Players: 3, Bots: []string{"random", "greedy", "random"}})
	if s := tb.Summary(); !s.Started || s.OpenSeats != 0 {
		t.Fatalf("an all-bot table: %+v", s)
	}
	ups := collect(t, mustSub(t, tb, "", 0))
	last := ups[len(ups)-1].View
	if len(last.Winners) == 0 || last.Seat != -1 || len(last.Hand) != 0 {
		t.Fatalf("final spectator view: seat %d, hand %v, winners %v", last.Seat, last.Hand, last.Winners)
	}
	stored := st.get(tb.ID())
	if stored.Status != table.StatusOver {
		t.Fatalf("stored status %q, want over", stored.Status)
	}
	rec, err := h.Record(bg, tb.ID())
	if err != nil {
		t.Fatal(err)
	}
	r, s, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("the finished record does not load: %v\n%s", err, rec)
	}
	if r.Seed != stored.Seed || len(r.Moves) != len(stored.Moves) || s.EventCount() != last.EventCount {
		t.Fatalf("record: seed %d moves %d events %d; stored seed %d moves %d; view events %d",
			r.Seed, len(r.Moves), s.EventCount(), stored.Seed, len(stored.Moves), last.EventCount)
	}
	if fmt.Sprint(s.Totals()) != fmt.Sprint(last.Totals) {
		t.Fatalf("replayed totals %v, the table's %v", s.Totals(), last.Totals)
	}
}

// twoPeople is a started table with people a (seat 0) and b (seat 1) and
// two bots, each person subscribed, and the first update where a person
// is to move.
func twoPeople(tb testing.TB, h *table.Hub, cfg table.Config) (*table.Table, [2]*table.Sub) {
	tb.Helper()
	t := mustCreate(tb, h, "a", cfg)
	mustJoin(tb, t, "a", 0)
	mustJoin(tb, t, "b", 1)
	return t, [2]*table.Sub{mustSub(tb, t, "a", 0), mustSub(tb, t, "b", 0)}
}

func TestRefusalsDisturbNothing(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb, subs := twoPeople(t, h, table.Config{Players: 4, Bots: []string{"", "", "random", "random"}})
	// Wait until a person is to move: the bots are then idle, and with the
	// fake clock still, nothing else can happen at the table.
	u := until(t, subs[0], func(u table.Update) bool { return u.View != nil && u.View.ToMove < 2 })
	mover := u.View.ToMove
	roundTrip(t, h, tb) // the update's broadcast to the others is done
	ids := [2]string{"a", "b"}
	other := 1 - mover
	for range len(subs[other].Updates()) {
		next(t, subs[other]) // drain: from here on, any update is a disturbance
	}
	for range len(subs[mover].Updates()) {
		u = next(t, subs[mover])
	}
	if u.View.ToMove != mover {
		t.Fatalf("the table moved on while idle: to move %d", u.View.ToMove)
	}
	mine := u
	legal := mine.View.Legal()[0]
	notHeld := arlington.Action{Kind: arlington.LeadCard, Card: 0}
	for _, c := range arlington.FullDeck.Cards() {
		if !strings.Contains(fmt.Sprint(mine.View.Hand), c.String()) {
			notHeld.Card = c
			if u.View.Phase != arlington.PhaseLead {
				notHeld.Kind = arlington.PlayCard
			}
			break
		}
	}
	before := len(st.get(tb.ID()).Moves)
	cases := []struct {
		name   string
		player string
		seat   int
		a      arlington.Action
		want   error
	}{
		{"out of turn", ids[other], -1, legal, table.ErrNotYourTurn},
		{"for another seat", ids[other], mover, legal, table.ErrNotYourSeat},
		{"stranger", "stranger", mover, legal, table.ErrNotSeated},
		{"no identity", "", mover, legal, table.ErrNotSeated},
		{"for a bot's seat", ids[mover], 2, legal, table.ErrNotYourSeat},
		{"card not held", ids[mover], -1, notHeld, table.ErrIllegal},
		{"junk", ids[mover], -1, arlington.Action{Kind: 99}, table.ErrIllegal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := tb.Act(bg, c.player, c.seat, c.a)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if errors.Is(c.want, table.ErrIllegal) && !errors.Is(err, arlington.ErrIllegal) {
				t.Fatalf("err = %v does not wrap the engine's reason", err)
			}
		})
	}
	if n := len(st.get(tb.ID()).Moves); n != before {
		t.Fatalf("refusals stored %d moves", n-before)
	}
	for i, s := range subs {
		if n := len(s.Updates()); n != 0 {
			t.Fatalf("person %d received %d updates from others' refused actions", i, n)
		}
	}
	// The right person's legal action goes through and everyone sees it.
	if err := tb.Act(bg, ids[mover], mover, legal); err != nil {
		t.Fatal(err)
	}
	u = next(t, subs[other])
	if u.View.EventCount <= mine.View.EventCount || u.View.Events[0].Action != legal {
		t.Fatalf("after the legal action: events %v", u.View.Events)
	}
}

func TestSlowSubscriberDropped(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 4, Target: 12, Bots: []string{"random", "random", "random", "random"}})
	slow := mustSub(t, tb, "", 0) // never read until the end
	ups := collect(t, mustSub(t, tb, "", 0))
	if len(ups) <= table.SubBuffer {
		t.Fatalf("a game of %d updates cannot overflow the buffer of %d", len(ups), table.SubBuffer)
	}
	n := 0
	for range slow.Updates() {
		n++
	}
	if !errors.Is(slow.Err(), table.ErrSlow) || n != table.SubBuffer {
		t.Fatalf("slow subscriber: %d updates then %v; want %d then ErrSlow", n, slow.Err(), table.SubBuffer)
	}
}

func TestReconnectSince(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 3, Bots: []string{"", "random", "random"}})
	mustJoin(t, tb, "p", 0)
	watch := mustSub(t, tb, "", 0)
	p := mustSub(t, tb, "p", 0)
	u := until(t, p, toMove(0))
	if err := tb.Act(bg, "p", 0, anyLegal(t, u)); err != nil {
		t.Fatal(err)
	}
	seen := until(t, p, func(u table.Update) bool { return u.View.EventCount > u.View.EventsFrom }).View.EventCount
	p.Close()
	for range p.Updates() {
		// what was queued before Close; then the channel is closed
	}
	if !errors.Is(p.Err(), table.ErrClosed) {
		t.Fatalf("closed subscription: Err %v", p.Err())
	}
	// The table plays on while p is gone: the bots act as long as the
	// spectator is connected, up to p's turn.
	until(t, watch, func(u table.Update) bool { return u.View.EventCount > seen && u.View.ToMove == 0 })
	back := next(t, mustSub(t, tb, "p", seen))
	if back.View.EventsFrom != seen || back.View.Events[0].N != seen || back.View.EventCount <= seen ||
		len(back.View.Events) != back.View.EventCount-seen {
		t.Fatalf("since %d: events from %d, %d events, count %d", seen, back.View.EventsFrom, len(back.View.Events), back.View.EventCount)
	}
	if back.Seat != 0 || len(back.View.Hand) == 0 {
		t.Fatalf("reconnected as seat %d with hand %v", back.Seat, back.View.Hand)
	}
	full := next(t, mustSub(t, tb, "p", -1))
	if full.View.EventsFrom != 0 || len(full.View.Events) != full.View.EventCount {
		t.Fatalf("since -1: events from %d, %d of %d", full.View.EventsFrom, len(full.View.Events), full.View.EventCount)
	}
}
