package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// TestMovedDropsTable: a write the store refuses because another server
// holds the table (ErrMoved) stops the table here: the action is refused,
// the table is gone from the hub, and its subscriptions end with ErrMoved
// (their connections reconnect, to the table's new server).
func TestMovedDropsTable(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "p", table.Config{Players: 2, Bots: []string{"", "random"}})
	mustJoin(t, tb, "p", 0)
	sub := mustSub(t, tb, "p", -1)
	u := until(t, sub, toMove(0))
	st.setFail(fmt.Errorf("taken: %w", table.ErrMoved))
	if err := tb.Act(bg, "p", 0, anyLegal(t, u)); !errors.Is(err, table.ErrMoved) {
		t.Fatalf("act on a table that moved: %v", err)
	}
	<-tb.Done()
	if !tb.Moved() {
		t.Fatal("the table does not say it moved")
	}
	for range sub.Updates() {
	}
	if !errors.Is(sub.Err(), table.ErrMoved) {
		t.Fatalf("subscription ended with %v, want ErrMoved", sub.Err())
	}
	if _, err := h.Table(tb.ID()); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the hub still lists it: %v", err)
	}
}

// server is one server of a test: its own connections to the database,
// its place in the registry, its hub.
type server struct {
	db  *pgstore.DB
	n   *pgstore.Node
	hub *table.Hub
	// live is hub once made, for the heartbeat's goroutine.
	live atomic.Pointer[table.Hub]
	// logMu guards logged, the hub's log lines.
	logMu  sync.Mutex
	logged []string
}

// logs is the hub's log lines so far.
func (s *server) logs() []string {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return append([]string(nil), s.logged...)
}

// A short lease for the test of a take-over after a crash, so that it
// comes within a second. The other tests' servers never die, and hold a
// lease no load outlasts (stableLease): a heartbeat held up past a short
// lease on a loaded machine let the other server take a live table from
// under the test (its next action refused as moved). Their servers still
// take a table given back at their next scan: that needs no lease to run
// out.
const (
	testLease   = 500 * time.Millisecond
	stableLease = time.Minute
	testBeat    = 100 * time.Millisecond
	testScan    = 100 * time.Millisecond
)

// startServer starts a server that holds its tables (stableLease).
func startServer(t *testing.T, url string) *server {
	t.Helper()
	return startServerLease(t, url, stableLease, nil)
}

// startServerStore is startServer with its hub's store wrap(db) (nil:
// db itself).
func startServerStore(t *testing.T, url string, wrap func(*pgstore.DB) table.Store) *server {
	t.Helper()
	return startServerLease(t, url, stableLease, wrap)
}

// startServerLease is startServerStore with a lease of its own.
func startServerLease(t *testing.T, url string, lease time.Duration, wrap func(*pgstore.DB) table.Store) *server {
	t.Helper()
	ctx := context.Background()
	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{db: db}
	s.n, err = db.Join(ctx, pgstore.NodeOptions{Addr: "127.0.0.1:1", Lease: lease, Beat: testBeat,
		Tables: func() []table.Summary {
			if h := s.live.Load(); h != nil {
				return h.List()
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	var st table.Store = db
	if wrap != nil {
		st = wrap(db)
	}
	s.hub, err = table.NewHub(ctx, table.Options{Store: st, Bots: newBot, Clock: newFakeClock(), BotTime: time.Hour,
		Claims: s.n, ScanEvery: testScan, Logf: func(f string, a ...any) {
			s.logMu.Lock()
			defer s.logMu.Unlock()
			s.logged = append(s.logged, fmt.Sprintf(f, a...))
		}})
	if err != nil {
		t.Fatal(err)
	}
	s.live.Store(s.hub)
	t.Cleanup(func() {
		s.hub.Close()
		s.n.Close(context.Background())
		s.db.Close()
	})
	return s
}

// TestTakeOverAfterCrash: two servers share one database. A table runs on
// A; A's connections to the database die (a crash: nothing given back),
// and B takes the table from its stored moves once A's lease runs out.
// Every action A acknowledged is there, none twice; the player
// reconnects to B with the event count they had, and the game (its bots
// too) plays to the end there.
func TestTakeOverAfterCrash(t *testing.T) {
	url := pgtest.DB(t)
	a := startServerLease(t, url, testLease, nil)
	b := startServerLease(t, url, testLease, nil)
	tb := mustCreate(t, a.hub, "p", table.Config{Players: 3, Target: 12, Bots: []string{"", "random", "random"}})
	id := tb.ID()
	if _, err := b.hub.Table(id); err == nil {
		t.Fatal("B runs A's table")
	}
	mustJoin(t, tb, "p", 0)
	p := &player{tb: t, t: tb, id: "p", seat: 0, sub: mustSub(t, tb, "p", 0), acted: -1}
	u := p.until(func(u table.Update) bool { return u.View != nil && u.View.EventCount >= 12 && u.View.ToMove == 0 })
	acked, err := a.hub.Record(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	before := movesOf(t, acked)
	crashed := time.Now()
	a.db.Close() // A can no longer write anything, nor renew its lease
	var tb2 *table.Table
	for tb2 == nil {
		if tb2, err = b.hub.Table(id); err != nil {
			tb2 = nil
			if time.Since(crashed) > 10*time.Second {
				t.Fatal("B did not take the table in 10 s")
			}
			time.Sleep(testScan / 2) // B's next scan
		}
	}
	t.Logf("taken over %v after the crash (lease %v)", time.Since(crashed).Round(time.Millisecond), testLease)
	seen := u.View.EventCount
	p2 := &player{tb: t, t: tb2, id: "p", seat: 0, sub: mustSub(t, tb2, "p", seen), acted: -1}
	first := next(t, p2.sub)
	if first.View == nil || first.View.EventsFrom != seen {
		t.Fatalf("reconnected since %d: %+v", seen, first.View)
	}
	if !over(first) && first.View.ToMove == 0 {
		p2.acted = first.View.EventCount
		if err := tb2.Act(bg, "p", 0, anyLegal(t, first)); err != nil {
			t.Fatal(err)
		}
	}
	p2.until(over)
	final, err := b.hub.Record(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	after := movesOf(t, final)
	if len(after) < len(before) || strings.Join(after[:len(before)], "\n") != strings.Join(before, "\n") {
		t.Fatalf("acknowledged moves lost:\nbefore %v\nafter  %v", before, after)
	}
	if _, s, err := arlington.Load(strings.NewReader(final)); err != nil || !s.Terminal() {
		t.Fatalf("the record replays to its end: %v", err)
	}
	stored, err := b.db.LoadTable(bg, id)
	if err != nil || stored.Status != table.StatusOver || len(stored.Moves) != len(after) {
		t.Fatalf("stored %s with %d moves (%v), the record has %d", stored.Status, len(stored.Moves), err, len(after))
	}
	// Written once the scan that took it ended, long before the game did.
	if l := b.logs(); !slices.Contains(l, "took 1 orphaned table") {
		t.Errorf("B's log does not say it took one table: %q", l)
	}
}

// TestAwaySurvivesRestart: a person who left a game in play is stored as
// away, so a restarted hub (or another server taking the table) has the
// stand-in play for them at once, as before, rather than waiting on their
// turn timer.
func TestAwaySurvivesRestart(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h1, err := table.NewHub(bg, table.Options{Store: st, Bots: newBot, Clock: clk, BotTime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustCreate(t, h1, "p", table.Config{Players: 2, Target: 500, Bots: []string{"", "random"}})
	mustJoin(t, tb, "p", 0)
	if err := tb.Leave(bg, "p"); err != nil {
		t.Fatal(err)
	}
	if s := st.get(tb.ID()).Seats[0]; !s.Away || s.Player != "p" {
		t.Fatalf("stored seat after leaving: %+v", s)
	}
	h1.Close()
	h2 := newHub(t, st, clk) // the clock never moves: no turn timer runs out
	tb2, err := h2.Table(tb.ID())
	if err != nil {
		t.Fatal(err)
	}
	if s := tb2.Summary().Seats[0]; !s.Away {
		t.Fatalf("restored seat: %+v", s)
	}
	sub := mustSub(t, tb2, "", -1)
	defer sub.Close()
	next(t, sub)
	until(t, sub, movedBy(0))
	// Back: stored too.
	if _, err := tb2.Join(bg, table.Player{ID: "p", Name: "P"}, -1); err != nil {
		t.Fatal(err)
	}
	if s := st.get(tb.ID()).Seats[0]; s.Away {
		t.Fatalf("stored seat after returning: %+v", s)
	}
}

// TestRematchElsewhere: a game's rematch table that runs on another server
// (the two tables were taken over by different servers) is named to a
// person asking for it, with its id, rather than said closed: they take
// the seat held for them there.
func TestRematchElsewhere(t *testing.T) {
	url := pgtest.DB(t)
	a := startServer(t, url)
	b := startServer(t, url)
	old := mustCreate(t, a.hub, "a", table.Config{Players: 3, Target: 1, Bots: []string{"", "random", ""}})
	mustJoin(t, old, "a", 0)
	mustJoin(t, old, "b", 2)
	playOut(t, old, map[int]string{0: "a", 2: "b"})
	re, _, err := a.hub.RematchFrom(bg, old.ID(), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	// The rematch table moves to B: A, stopping, takes none and gives it
	// back.
	if err := a.n.Drain(bg); err != nil {
		t.Fatal(err)
	}
	if err := a.n.Release(bg, []string{re.ID()}); err != nil {
		t.Fatal(err)
	}
	var there *table.Table
	for deadline := time.Now().Add(waitTimeout); ; {
		_, errA := a.hub.Table(re.ID())
		if tb, errB := b.hub.Table(re.ID()); errB == nil && errA != nil {
			there = tb
			break
		}
		if time.Now().After(deadline) {
			r, err := a.n.Route(bg, re.ID())
			t.Fatalf("the rematch table did not move to B in %v: at A %v; its row %+v (%v), A is %s, B is %s\nA's log %q\nB's log %q",
				waitTimeout, errA, r, err, a.n.ID(), b.n.ID(), a.logs(), b.logs())
		}
		time.Sleep(testScan / 2) // the servers' next scans
	}
	_, _, err = a.hub.RematchFrom(bg, old.ID(), "b", "")
	var ee *table.ElsewhereError
	if !errors.As(err, &ee) || ee.ID != re.ID() {
		t.Fatalf("the rematch asked at A while it runs at B: %v, want it named", err)
	}
	if seat, err := there.Join(bg, table.Player{ID: "b", Name: "B"}, -1); err != nil || seat != 0 {
		t.Fatalf("b takes the seat held there: %d, %v; want 0", seat, err)
	}
}
