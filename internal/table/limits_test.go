package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/table"
)

// subscribeAll subscribes id n times to t and returns the subscriptions
// made and the first refusal (nil if none was refused).
func subscribeAll(tb testing.TB, t *table.Table, id string, n int) ([]*table.Sub, error) {
	tb.Helper()
	var subs []*table.Sub
	for range n {
		s, err := t.Subscribe(bg, id, -1)
		if err != nil {
			return subs, err
		}
		tb.Cleanup(s.Close)
		subs = append(subs, s)
	}
	return subs, nil
}

// ended reads what s holds without waiting and says whether it has ended.
func ended(s *table.Sub) bool {
	for {
		select {
		case _, ok := <-s.Updates():
			if !ok {
				return true
			}
		default:
			return false
		}
	}
}

func TestSpectatorsNeverLockOutSeats(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	mustJoin(t, tb, "p", 0)
	mustJoin(t, tb, "q", 1)

	// One identity opening 64 spectator connections gets its own share.
	got, err := subscribeAll(t, tb, "spy", 64)
	if len(got) != table.MaxWatching || !errors.Is(err, table.ErrCrowded) {
		t.Fatalf("one identity: %d spectator connections, then %v; want %d, then ErrCrowded", len(got), err, table.MaxWatching)
	}
	// Fresh identities fill the table's spectator share, no more.
	n := len(got)
	for i := 0; n < 64; i++ {
		if _, err := tb.Subscribe(bg, fmt.Sprintf("spy%d", i), -1); err != nil {
			if !errors.Is(err, table.ErrCrowded) {
				t.Fatal(err)
			}
			break
		}
		n++
	}
	if n != table.MaxSpectators {
		t.Fatalf("%d spectators at one table, want %d", n, table.MaxSpectators)
	}
	// The seated people still get in, as often as they reconnect; past
	// MaxSeatConns the oldest connection gives way.
	mine, err := subscribeAll(t, tb, "p", table.MaxSeatConns+2)
	if err != nil {
		t.Fatalf("a seated player's reconnect refused: %v", err)
	}
	for i, s := range mine {
		if replaced, gone := i < 2, ended(s); gone != replaced || replaced && !errors.Is(s.Err(), table.ErrReplaced) {
			t.Fatalf("connection %d of p: ended %v (%v)", i, gone, s.Err())
		}
	}
	if _, err := tb.Subscribe(bg, "q", -1); err != nil {
		t.Fatalf("q refused: %v", err)
	}
	if w := tb.Summary().Watching; w != table.MaxSpectators+table.MaxSeatConns+1 {
		t.Fatalf("watching %d", w)
	}
}

func TestSpectatorShareAcrossTables(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	a := mustCreate(t, h, "c", table.Config{Players: 2})
	b := mustCreate(t, h, "c", table.Config{Players: 2})
	got, _ := subscribeAll(t, a, "spy", table.MaxWatching-1)
	if len(got) != table.MaxWatching-1 {
		t.Fatalf("%d connections", len(got))
	}
	if _, err := subscribeAll(t, b, "spy", 2); !errors.Is(err, table.ErrCrowded) {
		t.Fatalf("past the share across tables: %v", err)
	}
	got[0].Close()
	if _, err := subscribeAll(t, b, "spy", 1); err != nil {
		t.Fatalf("a closed connection's place not given back: %v", err)
	}
	// Taking a seat turns a spectator's connections into the seat's: they
	// leave the spectator share (those past MaxSeatConns give way).
	got = got[1:]
	if _, err := subscribeAll(t, b, "spy", 1); !errors.Is(err, table.ErrCrowded) {
		t.Fatalf("share full: %v", err)
	}
	mustJoin(t, a, "spy", 0) // a holds 14 of them, b 2
	roundTrip(t, h, a)
	replaced := 0
	for _, s := range got {
		if ended(s) && errors.Is(s.Err(), table.ErrReplaced) {
			replaced++
		}
	}
	if replaced != table.MaxWatching-2-table.MaxSeatConns {
		t.Fatalf("%d connections replaced", replaced)
	}
	more, err := subscribeAll(t, b, "spy", table.MaxWatching)
	if len(more) != table.MaxWatching-2 || !errors.Is(err, table.ErrCrowded) {
		t.Fatalf("after taking a seat: %d more spectator connections, then %v", len(more), err)
	}
}

func TestTablesPerAddressAndReserve(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock(), func(o *table.Options) {
		o.MaxTables, o.MaxPerAddress, o.Reserve = 10, 3, 2
	})
	cfg := table.Config{Players: 2}
	for _, c := range []struct {
		creator, addr string
		ok            bool
	}{
		{"a1", "1.1.1.1", true}, {"a2", "1.1.1.1", true}, {"a3", "1.1.1.1", true},
		{"a4", "1.1.1.1", false}, // fresh identities from one address: bounded
		{"b1", "2.2.2.2", true}, {"b2", "2.2.2.2", true}, {"b3", "2.2.2.2", true},
		{"c1", "3.3.3.3", true}, {"c2", "3.3.3.3", true}, // 8 open: the last 2 are kept
		{"c3", "3.3.3.3", false}, // the address has a table open
		{"b1", "5.5.5.5", false}, // the identity has a table open
		{"d1", "4.4.4.4", true}, {"e1", "6.6.6.6", true},
		{"f1", "7.7.7.7", false}, // all 10 open
	} {
		_, err := h.CreateFrom(bg, c.creator, c.addr, cfg)
		if c.ok && err != nil || !c.ok && !errors.Is(err, table.ErrTooMany) {
			t.Fatalf("%s from %s: %v (want ok %v)", c.creator, c.addr, err, c.ok)
		}
	}
}

// TestRematchCountsAgainstAddress: a new rematch table is the asker's
// from their address, as a new table would be: refused past the
// address's bound, and counted towards it. Finding the one made already
// is not refused.
func TestRematchCountsAgainstAddress(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock(), func(o *table.Options) { o.MaxPerAddress = 2 })
	old, err := h.CreateFrom(bg, "a", "1.1.1.1", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	mustJoin(t, old, "a", 0)
	playOut(t, old, map[int]string{0: "a"})
	if _, err := h.CreateFrom(bg, "x", "1.1.1.1", table.Config{Players: 2}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.RematchFrom(bg, old.ID(), "a", "1.1.1.1"); !errors.Is(err, table.ErrTooMany) {
		t.Fatalf("a rematch from an address at its bound: %v, want ErrTooMany", err)
	}
	re, _, err := h.RematchFrom(bg, old.ID(), "a", "2.2.2.2")
	if err != nil {
		t.Fatal(err)
	}
	if again, _, err := h.RematchFrom(bg, old.ID(), "a", "1.1.1.1"); err != nil || again != re {
		t.Fatalf("asking again: %v, %v; want the same table", again, err)
	}
	if _, err := h.CreateFrom(bg, "y", "2.2.2.2", table.Config{Players: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.CreateFrom(bg, "z", "2.2.2.2", table.Config{Players: 2}); !errors.Is(err, table.ErrTooMany) {
		t.Fatalf("a third table from the rematch's address: %v, want ErrTooMany", err)
	}
}

// turns is a bot level whose decisions wait until the test lets one end,
// noting which table's bot started each and how many ran at once.
type turns struct {
	mu            sync.Mutex
	running, most int
	started       chan string
	release       chan struct{}
}

type turnBot struct {
	g    *turns
	name string
}

func (turnBot) Name() string { return "gate" }

func (b turnBot) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	g := b.g
	g.mu.Lock()
	g.running++
	g.most = max(g.most, g.running)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.running--
		g.mu.Unlock()
	}()
	g.started <- b.name
	select {
	case <-g.release:
		return v.Legal()[0], nil
	case <-ctx.Done():
		return arlington.Action{}, ctx.Err()
	}
}

func (g *turns) factory(level string, seed uint64) (table.Bot, error) {
	if name, ok := strings.CutPrefix(level, "gate"); ok {
		return turnBot{g, name}, nil
	}
	return bot.New(level, seed)
}

// TestBotWorkersShared: with one worker, three watched bot tables think
// one at a time, taking turns in the order they asked; a table waiting
// for a worker has no deadline running (its bot has not started).
func TestBotWorkersShared(t *testing.T) {
	g := &turns{started: make(chan string, 16), release: make(chan struct{})}
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk, func(o *table.Options) { o.Bots = g.factory; o.BotWorkers = 1 })
	tables := map[string]*table.Table{}
	for _, name := range []string{"a", "b", "c"} {
		tables[name] = mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"gate" + name, "gate" + name}})
	}
	startedOf := func() string {
		t.Helper()
		select {
		case s := <-g.started:
			return s
		case <-time.After(waitTimeout):
			t.Fatal("no bot started")
		}
		panic("unreachable")
	}
	subs := map[string]*table.Sub{}
	subs["a"] = mustSub(t, tables["a"], "", -1)
	if s := startedOf(); s != "a" {
		t.Fatalf("%s started", s)
	}
	subs["b"] = mustSub(t, tables["b"], "", -1)
	subs["c"] = mustSub(t, tables["c"], "", -1)
	if n := table.BotsWaiting(h); n != 2 {
		t.Fatalf("%d decisions waiting for a worker, want 2", n)
	}
	roundTrip(t, h, tables["a"]) // a has taken its start
	if n := clk.armed(24 * time.Hour); n != 1 {
		t.Fatalf("%d deadlines running, want 1 (the thinking bot's)", n)
	}
	var order []string
	for thinking := "a"; len(order) < 6; {
		g.release <- struct{}{}
		next := startedOf()
		// The released table's move is broadcast once it has asked for
		// its next decision.
		until(t, subs[thinking], func(u table.Update) bool { return movedBy(0)(u) || movedBy(1)(u) })
		order = append(order, next)
		thinking = next
	}
	if got := strings.Join(order, ""); got != "bcabca" {
		t.Fatalf("turns %s, want bcabca", got)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.most != 1 {
		t.Fatalf("%d decisions at once with one worker", g.most)
	}
}

// triedStore is memStore, failing every action while fail is set and
// telling the test of each try.
type triedStore struct {
	*memStore
	tried chan struct{}
}

func (s triedStore) AppendAction(ctx context.Context, id string, seq int, mv table.StoredMove) error {
	err := s.memStore.AppendAction(ctx, id, seq, mv)
	select { // the test reads each try while the store fails; later ones may pass unread
	case s.tried <- struct{}{}:
	default:
	}
	return err
}

// TestBotRetryBacksOff: with the database gone, a bot's action is tried
// again after waits doubling from RetryMin to RetryMax, each drawn from
// the upper half of its step, with one log line per step; once the store
// works again the game goes on and the recovery is logged.
func TestBotRetryBacksOff(t *testing.T) {
	st := triedStore{newMemStore(), make(chan struct{}, 1)}
	st.setFail(errors.New("no such table: moves"))
	clk := newFakeClock()
	var mu sync.Mutex
	var logs []string
	h := newHub(t, st, clk, func(o *table.Options) {
		o.Logf = func(f string, a ...any) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf(f, a...))
			mu.Unlock()
		}
	})
	tb := mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"random", "random"}})
	w := mustSub(t, tb, "", 0)
	tried := func() {
		t.Helper()
		select {
		case <-st.tried:
		case <-time.After(waitTimeout):
			t.Fatal("the action was not tried again")
		}
		roundTrip(t, h, tb) // the retry is armed
	}
	var steps []time.Duration
	for fails := 1; fails <= 8; fails++ {
		tried()
		step := min(table.RetryMax, table.RetryMin<<(fails-1))
		if clk.armed(step) != 1 || clk.armed(step/2-time.Millisecond) != 0 {
			t.Fatalf("failure %d: the retry is not armed within %s to %s", fails, step/2, step)
		}
		steps = append(steps, step)
		clk.Advance(step)
	}
	tried()
	mu.Lock()
	n := len(logs)
	for _, l := range logs {
		if !strings.Contains(l, "no such table: moves") {
			t.Errorf("log %q", l)
		}
	}
	mu.Unlock()
	// 1, 2, 4, 8, 16 and 30 s: six steps, six lines for nine failures.
	if n != 6 {
		t.Fatalf("%d log lines for 9 failures over the steps %v, want 6", n, steps)
	}
	if got := len(st.get(tb.ID()).Moves); got != 0 {
		t.Fatalf("%d moves stored with the store failing", got)
	}
	st.setFail(nil)
	clk.Advance(table.RetryMax)
	tried()
	until(t, w, func(u table.Update) bool { return movedBy(0)(u) || movedBy(1)(u) })
	mu.Lock()
	defer mu.Unlock()
	if last := logs[len(logs)-1]; !strings.Contains(last, "stored again after 9 failures") {
		t.Fatalf("last log %q", last)
	}
}

// TestRunawayBotGivesBackItsWorker: a bot that ignores its context holds
// its worker only until the table gives up on it (1.5 × BotTime): then
// the next table's bot starts, although the runaway one still runs.
func TestRunawayBotGivesBackItsWorker(t *testing.T) {
	g := &turns{started: make(chan string, 16), release: make(chan struct{})}
	runaway := &gateBot{asked: make(chan arlington.View, 1), release: make(chan struct{})}
	factory := func(level string, seed uint64) (table.Bot, error) {
		if level == "runaway" {
			return runaway, nil
		}
		return g.factory(level, seed)
	}
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk, func(o *table.Options) { o.Bots = factory; o.BotWorkers = 1 })
	t.Cleanup(func() { close(runaway.release) }) // before the hub closes
	a := mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"runaway", "runaway"}})
	b := mustCreate(t, h, "c", table.Config{Players: 2, Target: 8, Bots: []string{"gateb", "gateb"}})
	mustSub(t, a, "", -1)
	select {
	case <-runaway.asked:
	case <-time.After(waitTimeout):
		t.Fatal("the runaway bot was not asked")
	}
	mustSub(t, b, "", -1)
	if n := table.BotsWaiting(h); n != 1 {
		t.Fatalf("%d decisions waiting, want b's", n)
	}
	roundTrip(t, h, a) // a's deadline is armed
	clk.Advance(2 * time.Hour)
	select {
	case s := <-g.started:
		if s != "b" {
			t.Fatalf("%s started", s)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the runaway bot kept the only worker")
	}
}
