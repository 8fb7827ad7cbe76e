package table_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/table"
)

// player plays seat for id from its subscription: on each update where
// the seat is to move (and that it has not acted on) it takes the first
// legal action. until returns the first update for which stop holds
// (having acted on it if it was the seat's turn).
type player struct {
	tb    testing.TB
	t     *table.Table
	id    string
	seat  int
	sub   *table.Sub
	acted int // event count it last acted at
}

func (p *player) until(stop func(table.Update) bool) table.Update {
	p.tb.Helper()
	for {
		u := next(p.tb, p.sub)
		if u.View != nil && u.View.ToMove == p.seat && u.View.EventCount != p.acted && !over(u) {
			p.acted = u.View.EventCount
			if err := p.t.Act(bg, p.id, p.seat, anyLegal(p.tb, u)); err != nil {
				p.tb.Fatalf("%s acts: %v", p.id, err)
			}
		}
		if stop(u) {
			return u
		}
	}
}

// movedBy: u's new events hold a move by seat.
func movedBy(seat int) func(table.Update) bool {
	return func(u table.Update) bool {
		if u.View == nil {
			return false
		}
		for _, e := range u.View.Events {
			if e.Kind == arlington.EventMove && e.Seat == seat {
				return true
			}
		}
		return false
	}
}

// now is id's view of t now, from a fresh subscription.
func now(tb testing.TB, t *table.Table, id string) table.Update {
	tb.Helper()
	return next(tb, mustSub(tb, t, id, -1))
}

// autoplay plays seat for id in a goroutine until the subscription
// ends (the test's cleanup closes it).
func autoplay(tb testing.TB, t *table.Table, id string, seat int) {
	var wg sync.WaitGroup
	tb.Cleanup(wg.Wait) // runs after the subscription's Close (cleanups run last first)
	sub := mustSub(tb, t, id, -1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		acted := -1
		for u := range sub.Updates() {
			if u.View == nil || u.View.ToMove != seat || u.View.EventCount == acted || over(u) {
				continue
			}
			acted = u.View.EventCount
			legal := u.View.Legal()
			if len(legal) == 0 {
				tb.Errorf("%s: no legal action", id)
				return
			}
			if err := t.Act(bg, id, seat, legal[0]); err != nil && !errors.Is(err, table.ErrNotYourTurn) && !errors.Is(err, table.ErrClosed) {
				tb.Errorf("%s acts: %v", id, err)
			}
		}
	}()
}

// stepBot plays the first legal action when the test hands it a step,
// so the test decides when a stand-in acts.
type stepBot struct{ steps chan struct{} }

func (stepBot) Name() string { return "step" }

func (b stepBot) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	select {
	case <-b.steps:
		return v.Legal()[0], nil
	case <-ctx.Done():
		return arlington.Action{}, ctx.Err()
	}
}

// step lets the stand-in take one action, failing if none is asked.
func step(tb testing.TB, steps chan struct{}) {
	tb.Helper()
	select {
	case steps <- struct{}{}:
	case <-time.After(waitTimeout):
		tb.Fatal("the stand-in was not asked to act")
	}
}

func TestTurnTimer(t *testing.T) {
	clk := newFakeClock()
	steps := make(chan struct{})
	bots := func(level string, seed uint64) (table.Bot, error) {
		if level == "step" {
			return stepBot{steps}, nil
		}
		return bot.New(level, seed)
	}
	h := newHub(t, newMemStore(), clk, func(o *table.Options) { o.Bots = bots })
	tb := mustCreate(t, h, "a", table.Config{Players: 3, Bots: []string{"", "", "random"}, TurnSeconds: 30, StandIn: "step"})
	mustJoin(t, tb, "a", 0)
	mustJoin(t, tb, "b", 1)
	autoplay(t, tb, "b", 1)
	w := mustSub(t, tb, "", 0)
	turn := 30 * time.Second

	// a never connected: at a's turn the timer runs (b is waiting) and
	// nothing happens before it runs out.
	u := until(t, w, toMove(0))
	roundTrip(t, h, tb)
	if clk.armed(turn) != 1 || clk.armed(turn-time.Second) != 0 {
		t.Fatalf("timers due within %v: %d, within %v: %d; want the turn timer alone",
			turn, clk.armed(turn), turn-time.Second, clk.armed(turn-time.Second))
	}
	turnAt := u.View.EventCount
	clk.Advance(turn)
	step(t, steps)
	u = until(t, w, movedBy(0))
	if u.View.EventsFrom > turnAt || !u.Seats[0].Away {
		t.Fatalf("after the timer: events from %d (a's turn at %d), seat 0 away %v", u.View.EventsFrom, turnAt, u.Seats[0].Away)
	}
	// Away, a's later turns are played at once, with no timer.
	step(t, steps)
	until(t, w, movedBy(0))

	// a comes back: the seat is theirs again and waits for them (the
	// stand-in may be thinking about a's turn: its answer is dropped).
	back := now(t, tb, "a")
	if back.Seats[0].Away || back.Seat != 0 || len(back.View.Hand) != back.View.HandSizes[0] {
		t.Fatalf("a back: away %v, seat %d, hand %v", back.Seats[0].Away, back.Seat, back.View.Hand)
	}
	u = until(t, w, func(u table.Update) bool { return u.View.ToMove == 0 && u.View.EventCount >= back.View.EventCount })
	if err := tb.Act(bg, "a", 0, anyLegal(t, now(t, tb, "a"))); err != nil {
		t.Fatalf("a's own turn after returning: %v", err)
	}
	// Connected but slow: the timer plays one action for a, who is not
	// marked away, and a's next turn waits for a again.
	u = until(t, w, func(u table.Update) bool { return u.View.ToMove == 0 && u.View.EventCount > u.View.EventsFrom })
	turnAt = u.View.EventCount
	roundTrip(t, h, tb)
	clk.Advance(turn)
	step(t, steps)
	u = until(t, w, movedBy(0))
	if u.Seats[0].Away {
		t.Fatal("a connected player who timed out is marked away")
	}
	if u.View.ToMove != 0 { // else the stand-in's action gave a the lead
		until(t, w, func(u table.Update) bool { return u.View.ToMove == 0 && u.View.EventCount > turnAt })
	}
	if err := tb.Act(bg, "a", 0, anyLegal(t, now(t, tb, "a"))); err != nil {
		t.Fatalf("a's next turn is theirs: %v", err)
	}
}

// gateBot answers the first legal action, but only once released, and
// ignores its context: the worst a bot can do.
type gateBot struct {
	asked   chan arlington.View
	release chan struct{}
}

func (g *gateBot) Name() string { return "gate" }

func (g *gateBot) Act(_ context.Context, v arlington.View) (arlington.Action, error) {
	a := v.Legal()[0]
	g.asked <- v
	<-g.release
	return a, nil
}

func TestStaleBotAnswerDropped(t *testing.T) {
	clk := newFakeClock()
	st := newMemStore()
	gate := &gateBot{asked: make(chan arlington.View, 1), release: make(chan struct{})}
	bots := func(level string, seed uint64) (table.Bot, error) {
		if level == "gate" {
			return gate, nil
		}
		return bot.New(level, seed)
	}
	h := newHub(t, st, clk, func(o *table.Options) { o.Bots = bots })
	stale := make(chan struct{}, 8)
	table.SetStaleHook(h, func() { stale <- struct{}{} })
	tb := mustCreate(t, h, "a", table.Config{Players: 2, TurnSeconds: 30, StandIn: "gate"})
	mustJoin(t, tb, "a", 0)
	mustJoin(t, tb, "b", 1)
	b := &player{tb: t, t: tb, id: "b", seat: 1, sub: mustSub(t, tb, "b", 0), acted: -1}
	u := b.until(toMove(0))
	clk.Advance(30 * time.Second)
	var v arlington.View
	select {
	case v = <-gate.asked:
	case <-time.After(waitTimeout):
		t.Fatal("the stand-in was not asked")
	}
	if v.EventCount != u.View.EventCount || v.Seat != 0 {
		t.Fatalf("stand-in asked at event %d for seat %d; a's turn is at %d", v.EventCount, v.Seat, u.View.EventCount)
	}
	// a returns while the stand-in thinks: a's turn is a's again, and
	// the stand-in's answer, arriving while it is still a's turn at the
	// very event it was asked at, is dropped.
	au := next(t, mustSub(t, tb, "a", -1))
	moves := len(st.get(tb.ID()).Moves)
	close(gate.release)
	select {
	case <-stale:
	case <-time.After(waitTimeout):
		t.Fatal("the stale answer was not dropped")
	}
	if got := st.get(tb.ID()).Moves; len(got) != moves {
		t.Fatalf("the stale answer was played: %v", got[moves:])
	}
	legal := au.View.Legal()
	mine := legal[len(legal)-1]
	if err := tb.Act(bg, "a", 0, mine); err != nil {
		t.Fatalf("a's own action after the stale answer: %v", err)
	}
	got := st.get(tb.ID()).Moves
	if len(got) != moves+1 || got[moves].Seat != 0 || mustParse(t, got[moves].Action) != mine {
		t.Fatalf("moves after a's action: %v (had %d)", got, moves)
	}
	// The table is not disturbed: b is to move and can.
	b.until(movedBy(1))
}

func mustParse(tb testing.TB, s string) arlington.Action {
	tb.Helper()
	a, err := arlington.ParseAction(s)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

func TestIdleClose(t *testing.T) {
	clk := newFakeClock()
	st := newMemStore()
	h := newHub(t, st, clk)
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	s := mustSub(t, tb, "", 0)
	clk.Advance(table.DefaultIdleAfter)
	if _, err := h.Record(bg, tb.ID()); err != nil { // a round trip: the table is live
		t.Fatalf("a watched table closed: %v", err)
	}
	s.Close()
	if _, err := h.Record(bg, tb.ID()); err != nil { // the idle timer is armed
		t.Fatal(err)
	}
	clk.Advance(table.DefaultIdleAfter - time.Second)
	if _, err := h.Table(tb.ID()); err != nil {
		t.Fatalf("closed before its time: %v", err)
	}
	clk.Advance(time.Second)
	select {
	case <-tb.Done():
	case <-time.After(waitTimeout):
		t.Fatal("an idle table was not closed")
	}
	if _, err := h.Table(tb.ID()); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("closed table still listed: %v", err)
	}
	if got := st.get(tb.ID()).Status; got != table.StatusClosed {
		t.Fatalf("stored status %q", got)
	}
	if err := tb.Act(bg, "a", 0, arlington.Action{Kind: arlington.Pass}); !errors.Is(err, table.ErrClosed) {
		t.Fatalf("act on a closed table: %v", err)
	}
	rec, err := h.Record(bg, tb.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := arlington.Load(stringsReader(rec)); err != nil {
		t.Fatalf("a closed table's record (seed included) does not load: %v", err)
	}
}

// TestTurnTimerResumes: a table restored (after a restart, or taken over
// by another server) gives the turn it was waiting on what was left of
// its timer when the table was last written, not a fresh one; and at
// least MinTurnSeconds, for the person to reconnect.
func TestTurnTimerResumes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		gone, want time.Duration
	}{
		{"20 s of 30 gone", 20 * time.Second, 10 * time.Second},
		{"all of it gone", 45 * time.Second, table.MinTurnSeconds * time.Second},
		{"none gone", 0, 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			st := newMemStore()
			h1 := newHub(t, st, clk)
			tb := mustCreate(t, h1, "a", table.Config{Players: 2, Bots: []string{"", ""}, TurnSeconds: 30})
			mustJoin(t, tb, "a", 0)
			mustJoin(t, tb, "b", 1)
			autoplay(t, tb, "b", 1)
			// a acts once, so the table has a move stored, and it is a's
			// turn again.
			w := mustSub(t, tb, "a", -1)
			u := until(t, w, toMove(0))
			if err := tb.Act(bg, "a", 0, anyLegal(t, u)); err != nil {
				t.Fatal(err)
			}
			at := u.View.EventCount
			until(t, w, func(u table.Update) bool { return u.View != nil && u.View.ToMove == 0 && u.View.EventCount > at })
			h1.Close()

			st.mu.Lock()
			st.tables[tb.ID()].Updated = clk.Now().Add(-tc.gone)
			st.mu.Unlock()
			h2 := newHub(t, st, clk)
			tb2, err := h2.Table(tb.ID())
			if err != nil {
				t.Fatal(err)
			}
			mustSub(t, tb2, "b", -1) // b waits on a: the timer runs
			roundTrip(t, h2, tb2)
			if clk.armed(tc.want) != 1 || clk.armed(tc.want-time.Second) != 0 {
				t.Fatalf("timers due within %v: %d, within %v: %d; want one, due in %v",
					tc.want, clk.armed(tc.want), tc.want-time.Second, clk.armed(tc.want-time.Second), tc.want)
			}
		})
	}
}

// TestTimedOnlyWhileTimerRuns: a view marks the turn timed only while the
// turn timer really runs for the seat to move: a person's turn with
// someone else connected, not a bot's turn, nor the turn a stand-in plays
// once the person's timer ran out (the timer is stopped then). Both were
// marked timed, and a page hurried its pace for them.
func TestTimedOnlyWhileTimerRuns(t *testing.T) {
	clk := newFakeClock()
	gate := &gateBot{asked: make(chan arlington.View, 1), release: make(chan struct{})}
	bots := func(level string, seed uint64) (table.Bot, error) {
		if level == "gate" {
			return gate, nil
		}
		return bot.New(level, seed)
	}
	h := newHub(t, newMemStore(), clk, func(o *table.Options) { o.Bots = bots })
	tb := mustCreate(t, h, "a", table.Config{Players: 2, Bots: []string{"", "random"}, TurnSeconds: 30, StandIn: "gate"})
	mustJoin(t, tb, "a", 0)
	mustSub(t, tb, "", 0) // someone watching: a's turns are timed
	s := mustSub(t, tb, "a", 0)
	acted := -1
	for sawBot := false; !sawBot; {
		u := next(t, s)
		switch {
		case u.View == nil:
		case u.View.ToMove == 1:
			sawBot = true
			if u.Timed {
				t.Error("the bot's turn is marked timed")
			}
		case u.View.ToMove == 0 && u.View.EventCount > acted:
			if !u.Timed {
				t.Fatal("a's turn, someone watching, is not marked timed")
			}
			acted = u.View.EventCount
			if err := tb.Act(bg, "a", 0, anyLegal(t, u)); err != nil {
				t.Fatal(err)
			}
		}
	}
	until(t, s, toMove(0))
	clk.Advance(30 * time.Second)
	select {
	case <-gate.asked:
	case <-time.After(waitTimeout):
		t.Fatal("the stand-in was not asked")
	}
	// Another spectator arrives while the stand-in thinks: everyone is
	// sent a view, and it must not mark the stand-in's turn timed.
	mustSub(t, tb, "", 0)
	if u := next(t, s); u.Timed {
		t.Error("the turn the stand-in plays, a's timer run out, is marked timed")
	}
	close(gate.release)
}
