package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/table"
)

// memStore is an in-memory table.Store that checks move numbering as the
// real one does.
type memStore struct {
	mu     sync.Mutex
	tables map[string]*table.Stored
	fail   error // returned by AppendAction and AppendChat when set
	// hold, when set, keeps every AppendAction waiting until it is
	// closed, each first telling stuck its table's id (holdActions).
	hold  chan struct{}
	stuck chan string
}

func newMemStore() *memStore { return &memStore{tables: map[string]*table.Stored{}} }

func (m *memStore) CreateTable(_ context.Context, t table.Stored) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tables[t.ID]; ok {
		return fmt.Errorf("table %s exists", t.ID)
	}
	t.Seats = append([]table.StoredSeat(nil), t.Seats...)
	m.tables[t.ID] = &t
	return nil
}

func (m *memStore) SaveSeats(_ context.Context, id string, seats []table.StoredSeat) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[id]
	if !ok {
		return table.ErrNotFound
	}
	t.Seats = append([]table.StoredSeat(nil), seats...)
	return nil
}

// writable is table id for a write (m.mu held), or the failure set.
func (m *memStore) writable(id string) (*table.Stored, error) {
	if m.fail != nil {
		return nil, m.fail
	}
	t, ok := m.tables[id]
	if !ok {
		return nil, table.ErrNotFound
	}
	return t, nil
}

func (m *memStore) AppendAction(_ context.Context, id string, seq int, mv table.StoredMove) error {
	m.mu.Lock()
	hold, stuck := m.hold, m.stuck
	m.mu.Unlock()
	if hold != nil {
		select {
		case stuck <- id:
		default:
		}
		<-hold
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.writable(id)
	if err != nil {
		return err
	}
	if seq != len(t.Moves) || t.Status != table.StatusOpen {
		return fmt.Errorf("move %d on a %s table with %d moves", seq, t.Status, len(t.Moves))
	}
	t.Moves = append(t.Moves, mv)
	return nil
}

func (m *memStore) AppendChat(_ context.Context, id string, l table.ChatLine, keep int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.writable(id)
	if err != nil {
		return err
	}
	last := 0
	if len(t.Chat) > 0 {
		last = t.Chat[len(t.Chat)-1].N
	}
	if l.N != last+1 {
		return fmt.Errorf("chat line %d after line %d", l.N, last)
	}
	t.Chat = append(t.Chat, l)
	t.Chat = append([]table.ChatLine(nil), t.Chat[max(0, len(t.Chat)-keep):]...)
	return nil
}

func (m *memStore) FinishTable(_ context.Context, id string, s table.Status, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[id]
	if !ok {
		return table.ErrNotFound
	}
	t.Status, t.Updated = s, at
	return nil
}

func (m *memStore) OpenTables(context.Context) ([]table.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Stored
	for _, t := range m.tables {
		if t.Status == table.StatusOpen {
			out = append(out, m.copyOf(t))
		}
	}
	return out, nil
}

func (m *memStore) PlayerTables(_ context.Context, player string, limit int) ([]table.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Stored
	for _, t := range m.tables {
		if t.Status == table.StatusOver && slices.ContainsFunc(t.Seats, func(s table.StoredSeat) bool { return s.Player == player && !s.Reserved }) {
			out = append(out, m.copyOf(t))
		}
	}
	slices.SortFunc(out, func(a, b table.Stored) int { return b.Updated.Compare(a.Updated) })
	return out[:min(limit, len(out))], nil
}

func (m *memStore) LoadTable(_ context.Context, id string) (table.Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[id]
	if !ok {
		return table.Stored{}, table.ErrNotFound
	}
	return m.copyOf(t), nil
}

func (m *memStore) copyOf(t *table.Stored) table.Stored {
	c := *t
	c.Seats = append([]table.StoredSeat(nil), t.Seats...)
	c.Moves = append([]table.StoredMove(nil), t.Moves...)
	c.Chat = append([]table.ChatLine(nil), t.Chat...)
	return c
}

func (m *memStore) get(id string) table.Stored {
	s, _ := m.LoadTable(context.Background(), id)
	return s
}

// holdActions keeps every AppendAction waiting (a database that stopped
// answering) until release is called; it returns where each waiting one
// tells its table's id. A test releases them before its hubs close
// (registering the release's cleanup after the hubs').
func (m *memStore) holdActions() (stuck <-chan string, release func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	hold := make(chan struct{})
	m.hold, m.stuck = hold, make(chan string, 16)
	var once sync.Once
	return m.stuck, func() { once.Do(func() { close(hold) }) }
}

func (m *memStore) setFail(err error) {
	m.mu.Lock()
	m.fail = err
	m.mu.Unlock()
}

// fakeClock fires its timers only when Advance says.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	clk  *fakeClock
	c    chan time.Time
	at   time.Time
	live bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) table.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{clk: c, c: make(chan time.Time, 1), at: c.now.Add(d), live: true}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.clk.mu.Lock()
	defer t.clk.mu.Unlock()
	was := t.live
	t.live = false
	return was
}

// Advance moves time on by d and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	keep := c.timers[:0]
	for _, t := range c.timers {
		if t.live && !t.at.After(c.now) {
			t.live = false
			t.c <- c.now
		}
		if t.live {
			keep = append(keep, t)
		}
	}
	c.timers = keep
}

// armed is how many timers are waiting to fire within d from now.
func (c *fakeClock) armed(d time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if t.live && !t.at.After(c.now.Add(d)) {
			n++
		}
	}
	return n
}

type hubOpt func(*table.Options)

// newHub starts a hub on st with a fake clock; bots are bot.New plus the
// test levels of extra.
func newHub(tb testing.TB, st table.Store, clk *fakeClock, opts ...hubOpt) *table.Hub {
	tb.Helper()
	o := table.Options{Store: st, Bots: newBot, Clock: clk, BotTime: time.Hour}
	for _, f := range opts {
		f(&o)
	}
	h, err := table.NewHub(context.Background(), o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(h.Close)
	return h
}

// waitTimeout guards every wait on a channel: a test that reaches it has
// failed (the condition never came), it does not stand in for one.
const waitTimeout = 20 * time.Second

// next is the next update of s; it fails the test if s ends or nothing
// comes in waitTimeout.
func next(tb testing.TB, s *table.Sub) table.Update {
	tb.Helper()
	select {
	case u, ok := <-s.Updates():
		if !ok {
			tb.Fatalf("subscription ended: %v", s.Err())
		}
		return u
	case <-time.After(waitTimeout):
		tb.Fatal("no update")
	}
	panic("unreachable")
}

// nextOrDropped is s's next update, or ok false when the table dropped s
// for falling behind (the subscriber then subscribes again).
func nextOrDropped(tb testing.TB, s *table.Sub) (table.Update, bool) {
	tb.Helper()
	select {
	case u, ok := <-s.Updates():
		if !ok {
			if errors.Is(s.Err(), table.ErrSlow) {
				return table.Update{}, false
			}
			tb.Fatalf("subscription ended: %v", s.Err())
		}
		return u, true
	case <-time.After(waitTimeout):
		tb.Fatal("no update")
	}
	panic("unreachable")
}

// until reads s's updates until cond holds for one, and returns it.
func until(tb testing.TB, s *table.Sub, cond func(table.Update) bool) table.Update {
	tb.Helper()
	for {
		if u := next(tb, s); cond(u) {
			return u
		}
	}
}

func over(u table.Update) bool { return u.View != nil && u.View.Phase == arlington.PhaseOver }

func toMove(seat int) func(table.Update) bool {
	return func(u table.Update) bool { return u.View != nil && u.View.ToMove == seat }
}

func mustCreate(tb testing.TB, h *table.Hub, creator string, cfg table.Config) *table.Table {
	tb.Helper()
	t, err := h.CreateFrom(context.Background(), creator, "", cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func mustJoin(tb testing.TB, t *table.Table, id string, seat int) int {
	tb.Helper()
	got, err := t.Join(context.Background(), table.Player{ID: id, Name: "name " + id}, seat)
	if err != nil {
		tb.Fatalf("join %s: %v", id, err)
	}
	return got
}

func mustSub(tb testing.TB, t *table.Table, id string, since int) *table.Sub {
	tb.Helper()
	s, err := t.Subscribe(context.Background(), id, since)
	if err != nil {
		tb.Fatalf("subscribe %q: %v", id, err)
	}
	tb.Cleanup(s.Close)
	return s
}

// anyLegal is the first legal action of u's view.
func anyLegal(tb testing.TB, u table.Update) arlington.Action {
	tb.Helper()
	legal := u.View.Legal()
	if len(legal) == 0 {
		tb.Fatalf("seat %d has no legal action (to move %d)", u.View.Seat, u.View.ToMove)
	}
	return legal[0]
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// roundTrip makes a round trip through t's goroutine: whatever it was doing
// (a broadcast, say) is done when sync returns.
func roundTrip(tb testing.TB, h *table.Hub, t *table.Table) {
	tb.Helper()
	if _, err := h.Record(context.Background(), t.ID()); err != nil {
		tb.Fatal(err)
	}
}

// newBot is the bots of arlington/bot as the wiring hands them to a hub.
func newBot(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }
