package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/table"
)

var bg = context.Background()

// collect reads a subscription to the game's end, checking that the
// events arrive numbered without gap or repeat, and returns the updates.
// collect reads a subscription's updates to the game's end, as a client
// does: a subscriber that falls behind while bots play at machine speed is
// dropped (ErrSlow), and subscribes again from the last event it has.
func collect(tb testing.TB, t *table.Table, s *table.Sub) []table.Update {
	tb.Helper()
	var out []table.Update
	have := -1
	id := ""
	for {
		u, ok := nextOrDropped(tb, s)
		if !ok {
			s = mustSub(tb, t, id, have)
			continue
		}
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
	ups := collect(t, tb, mustSub(t, tb, "", 0))
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
			// The page shows these words: the seat counts from 1 there.
			words := map[string]string{
				"for another seat": fmt.Sprintf("not your seat: you hold seat %d, not seat %d", other+1, mover+1),
				"for a bot's seat": fmt.Sprintf("not your seat: you hold seat %d, not seat 3", mover+1),
			}
			if want, ok := words[c.name]; ok && err.Error() != want {
				t.Fatalf("err = %q, want %q", err, want)
			}
			if want := fmt.Sprintf("not your turn: it is seat %d's turn", mover+1); errors.Is(c.want, table.ErrNotYourTurn) && err.Error() != want {
				t.Fatalf("err = %q, want %q", err, want)
			}
			if n := strings.Count(err.Error(), "illegal action"); errors.Is(c.want, table.ErrIllegal) && n != 1 {
				t.Fatalf("err = %q says \"illegal action\" %d times, want once", err, n)
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
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	slow := mustSub(t, tb, "", 0) // never read until the end
	fast := mustSub(t, tb, "", 0)
	next(t, fast)
	// Every chat line is an update for each subscriber; the table never
	// waits for the slow one.
	lines := table.SubBuffer + 5
	for i := range lines {
		if err := tb.Chat(bg, table.Player{ID: fmt.Sprint("s", i), Name: "S"}, fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
		if u := next(t, fast); len(u.Chat) != 1 || u.Chat[0].Text != fmt.Sprint(i) {
			t.Fatalf("line %d: the fast subscriber got %+v", i, u.Chat)
		}
	}
	n := 0
	for range slow.Updates() {
		n++
	}
	if !errors.Is(slow.Err(), table.ErrSlow) || n != table.SubBuffer {
		t.Fatalf("slow subscriber: %d updates then %v; want %d then ErrSlow", n, slow.Err(), table.SubBuffer)
	}
	if s := tb.Summary(); s.Watching != 1 {
		t.Fatalf("%d connections after the drop, want 1", s.Watching)
	}
}

func TestReconnectSince(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 3, Bots: []string{"", "random", "random"}})
	mustJoin(t, tb, "p", 0)
	watch := mustSub(t, tb, "", 0)
	p := mustSub(t, tb, "p", 0)
	// p plays until the bots are to move after p's action.
	pl := &player{tb: t, t: tb, id: "p", seat: 0, sub: p, acted: -1}
	seen := pl.until(func(u table.Update) bool {
		return u.View != nil && u.View.ToMove != 0 && u.View.EventCount > u.View.EventsFrom && pl.acted >= 0
	}).View.EventCount
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

func TestStoreFailureLosesNothing(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb, subs := twoPeople(t, h, table.Config{Players: 2})
	u := until(t, subs[0], func(u table.Update) bool { return u.View != nil })
	mover := u.View.ToMove
	ids := [2]string{"a", "b"}
	roundTrip(t, h, tb)
	for range len(subs[1-mover].Updates()) {
		next(t, subs[1-mover])
	}
	legal := anyLegal(t, now(t, tb, ids[mover]))
	for range len(subs[1-mover].Updates()) {
		next(t, subs[1-mover]) // the presence update of that subscription
	}
	st.setFail(errors.New("disk full"))
	if err := tb.Act(bg, ids[mover], mover, legal); !errors.Is(err, table.ErrStore) {
		t.Fatalf("act with the store failing: %v", err)
	}
	if n := len(subs[1-mover].Updates()); n != 0 || len(st.get(tb.ID()).Moves) != 0 {
		t.Fatalf("an unstored action was broadcast (%d updates) or kept", n)
	}
	st.setFail(nil)
	if err := tb.Act(bg, ids[mover], mover, legal); err != nil {
		t.Fatalf("the same action once the store works: %v", err)
	}
	if u := next(t, subs[1-mover]); u.View.Events[0].Action != legal || len(st.get(tb.ID()).Moves) != 1 {
		t.Fatalf("after the retry: events %v", u.View.Events)
	}
}

// brokenBot always fails: the table plays a random legal action for it.
type brokenBot struct{}

func (brokenBot) Name() string { return "broken" }

func (brokenBot) Act(context.Context, arlington.View) (arlington.Action, error) {
	return arlington.Action{Kind: arlington.PlayCard}, errors.New("broken")
}

// illegalBot answers an action the rules refuse.
type illegalBot struct{}

func (illegalBot) Name() string { return "illegal" }

func (illegalBot) Act(context.Context, arlington.View) (arlington.Action, error) {
	return arlington.Action{Kind: arlington.Kill}, nil
}

func TestFailingBotsNeverStallATable(t *testing.T) {
	bots := func(level string, seed uint64) (table.Bot, error) {
		switch level {
		case "broken":
			return brokenBot{}, nil
		case "illegal":
			return illegalBot{}, nil
		}
		return bot.New(level, seed)
	}
	h := newHub(t, newMemStore(), newFakeClock(), func(o *table.Options) { o.Bots = bots })
	tb := mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"broken", "illegal"}})
	collect(t, tb, mustSub(t, tb, "", 0))
}

func TestBotActionRetriedAfterStoreFailure(t *testing.T) {
	st := newMemStore()
	st.setFail(errors.New("disk full"))
	clk := newFakeClock()
	logs := make(chan string, 100)
	h := newHub(t, st, clk, func(o *table.Options) {
		o.Logf = func(f string, a ...any) {
			select {
			case logs <- fmt.Sprintf(f, a...):
			default:
			}
		}
	})
	tb := mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"random", "random"}})
	w := mustSub(t, tb, "", 0)
	select {
	case l := <-logs:
		if !strings.Contains(l, "disk full") {
			t.Fatalf("log %q", l)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the store failure was not reported")
	}
	roundTrip(t, h, tb)
	if n := len(st.get(tb.ID()).Moves); n != 0 {
		t.Fatalf("%d moves stored with the store failing", n)
	}
	st.setFail(nil)
	clk.Advance(time.Second)
	collect(t, tb, w)
}
