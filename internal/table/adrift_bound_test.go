package table_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/table"
)

// adriftAt runs tables ids on a hub of server A over st (MaxTables 2,
// scanning every 5 ms), cuts A off from the store and waits until every
// one has stopped and is noted to start again (adrift).
func adriftAt(t testing.TB, st table.Store, mem *memStore, ids []string, opts ...hubOpt) (*table.Hub, *registry) {
	t.Helper()
	for _, id := range ids {
		storeTable(t, mem, id, `{"players":2,"bots":["","random"]}`)
	}
	reg := newRegistry(mem)
	a := newHub(t, st, newFakeClock(), append([]hubOpt{func(o *table.Options) {
		o.Claims, o.ScanEvery, o.MaxTables = reg.server("A"), 5*time.Millisecond, 2
	}}, opts...)...)
	var tables []*table.Table
	for _, id := range ids {
		tb, err := a.Table(id)
		if err != nil {
			t.Fatalf("A runs %s: %v", id, err)
		}
		tables = append(tables, tb)
	}
	reg.setCut("A", true)
	for _, tb := range tables {
		select {
		case <-tb.Done():
		case <-time.After(waitTimeout):
			t.Fatalf("%s still runs %v after the lease ran out", tb.ID(), waitTimeout)
		}
	}
	deadline := time.Now().Add(waitTimeout)
	for !slices.Equal(table.AdriftOf(a), ids) {
		if time.Now().After(deadline) {
			t.Fatalf("tables to start again: %q, want %q", table.AdriftOf(a), ids)
		}
		time.Sleep(time.Millisecond) // the scan notes them once stopped
	}
	return a, reg
}

// waitRuns waits until hub a runs table id again (within waitTimeout),
// as its scan does once the store answers.
func waitRuns(t testing.TB, a *table.Hub, id string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		if _, err := a.Table(id); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is not run again after the store answers (within %v)", id, waitTimeout)
		}
		time.Sleep(5 * time.Millisecond) // the next scan
	}
}

// TestAdriftHoldsPlaces: the tables a server stopped while its lease was
// run out, waiting to start again here, keep their places under
// MaxTables: a create at the limit they make is refused. Were it not,
// the tables run and those waiting together passed MaxTables, and a
// second lease run out had more tables to note than the limit.
func TestAdriftHoldsPlaces(t *testing.T) {
	mem := newMemStore()
	a, _ := adriftAt(t, mem, mem, []string{"T", "U"})
	_, err := a.CreateFrom(bg, "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
	if !errors.Is(err, table.ErrTooMany) {
		t.Fatalf("create with 2 of 2 places held by tables waiting to start again: %v, want ErrTooMany", err)
	}
	// The refusal counts as it says: no table is open here, two wait.
	if want := "too many tables: 0 tables open and 2 waiting to start again (the limit is 2)"; err.Error() != want {
		t.Fatalf("refusal %q, want %q", err, want)
	}
}

// TestFullSaysOpen: at MaxTables with no table waiting to start again,
// the refusal says how many tables are open.
func TestFullSaysOpen(t *testing.T) {
	st := newMemStore()
	a := newHub(t, st, newFakeClock(), func(o *table.Options) { o.MaxTables, o.Reserve = 2, -1 })
	cfg := table.Config{Players: 2, Bots: []string{"", "random"}}
	mustCreate(t, a, "p", cfg)
	mustCreate(t, a, "q", cfg)
	_, err := a.CreateFrom(bg, "r", "", cfg)
	if want := "too many tables: 2 tables open"; err == nil || err.Error() != want {
		t.Fatalf("create at 2 of 2: %v, want %q", err, want)
	}
}

// failLive is a store on which the tables' own load of table bad fails
// (a damaged row, or the store refusing it), so that it cannot start
// again after an outage.
type failLive struct {
	*memStore
	bad string
}

func (s failLive) LoadLive(ctx context.Context, id string) (table.Stored, error) {
	if id == s.bad {
		return table.Stored{}, errors.New("the row cannot be read")
	}
	return s.memStore.LoadTable(ctx, id)
}

// TestAdriftTakesFewer: a table that cannot be loaded again after an
// outage keeps waiting to start again, and keeps its place: a server at
// MaxTables with it waiting takes no orphan. Had it taken one, a second
// lease run out noted more tables than MaxTables.
func TestAdriftTakesFewer(t *testing.T) {
	mem := newMemStore()
	a, reg := adriftAt(t, failLive{mem, "T"}, mem, []string{"T", "U"})
	storeTable(t, mem, "V", `{"players":2,"bots":["","random"]}`) // an orphan
	reg.setCut("A", false)
	waitRuns(t, a, "U")
	// Three scans' takes once U runs again: V is not taken.
	for range 3 {
		select {
		case tk := <-reg.takes:
			if tk.server == "A" && slices.Contains(tk.ids, "V") {
				t.Fatal("A took V with U running and T waiting to start again: 3 tables, past MaxTables 2")
			}
		case <-time.After(waitTimeout):
			t.Fatalf("no scan within %v", waitTimeout)
		}
	}
	if got := table.AdriftOf(a); !slices.Equal(got, []string{"T"}) {
		t.Fatalf("tables to start again: %q, want T, which cannot be loaded", got)
	}
	if o := reg.ownerOf("V"); o != "" {
		t.Fatalf("V is held by %q, want nobody", o)
	}
}

// TestAdriftForgetsTaken: a table stopped while the lease was run out
// that another server took meanwhile is no longer one to start again
// here once the store answers: its place under MaxTables is free again.
func TestAdriftForgetsTaken(t *testing.T) {
	mem := newMemStore()
	a, reg := adriftAt(t, mem, mem, []string{"T"})
	reg.mu.Lock()
	reg.owner["T"] = "B"
	reg.mu.Unlock()
	reg.setCut("A", false)
	deadline := time.Now().Add(waitTimeout)
	for len(table.AdriftOf(a)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("tables to start again: %q after the store answers, want none (B holds T)", table.AdriftOf(a))
		}
		time.Sleep(5 * time.Millisecond) // the next scan
	}
	if _, err := a.Table("T"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("A runs T, which B took: %v", err)
	}
}

// TestAdriftPastLimitKept: a table stopped while the lease was run out
// past MaxTables (were any ever run past it) is kept to start again,
// not given back: the store is out of reach then, so a give-back fails,
// and the renewed lease would keep it held and run nowhere.
func TestAdriftPastLimitKept(t *testing.T) {
	st := newMemStore()
	reg := newRegistry(st)
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery, o.MaxTables = reg.server("A"), time.Hour, 1
	})
	reg.mu.Lock()
	reg.owner["T"], reg.owner["U"] = "A", "A"
	reg.mu.Unlock()
	table.NoteAdrift(a, []string{"T", "U"})
	if got := table.AdriftOf(a); !slices.Equal(got, []string{"T", "U"}) {
		t.Fatalf("tables to start again: %q, want T and U (room past MaxTables: a margin)", got)
	}
	for _, id := range []string{"T", "U"} {
		if o := reg.ownerOf(id); o != "A" {
			t.Fatalf("%s, noted to start again, is held by %q, want A", id, o)
		}
	}
}

// TestAdriftResumeKeepsLimit: a table stopped while the lease was run
// out keeps its place until it runs again: a create that comes while it
// is loaded again, at the limit, is refused. Were the place freed before
// the table took it again, that create got in, and MaxTables+1 tables
// were open.
func TestAdriftResumeKeepsLimit(t *testing.T) {
	mem := newMemStore()
	created := make(chan error, 1)
	var hub atomic.Pointer[table.Hub]
	var once sync.Once
	a, reg := adriftAt(t, mem, mem, []string{"T", "U"}, func(o *table.Options) {
		table.SetResumeHook(o, func(string) {
			once.Do(func() { // set by then: tables start again only once the cut ends, below
				_, err := hub.Load().CreateFrom(bg, "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
				created <- err
			})
		})
	})
	hub.Store(a)
	reg.setCut("A", false)
	select {
	case err := <-created:
		if !errors.Is(err, table.ErrTooMany) {
			t.Fatalf("create while a table waiting to start again is loaded, with 2 of 2 places taken: %v, want ErrTooMany", err)
		}
	case <-time.After(waitTimeout):
		t.Fatalf("no table started again within %v", waitTimeout)
	}
	waitRuns(t, a, "T")
	waitRuns(t, a, "U")
}

// TestAdriftCountsForReserve: a table waiting to start again takes a
// place under MaxTables for the reserve too: with 3 places, the last
// one kept for players with no table open, one table waiting and one
// run, a player who has a table open is refused, and one who has none
// is let in. Not counted, the waiting table left the reserve untouched
// and the player got a second table in it.
func TestAdriftCountsForReserve(t *testing.T) {
	st := newMemStore()
	reg := newRegistry(st)
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery, o.MaxTables, o.Reserve = reg.server("A"), time.Hour, 3, 1
	})
	reg.mu.Lock()
	reg.owner["W"] = "A"
	reg.mu.Unlock()
	table.NoteAdrift(a, []string{"W"})
	cfg := table.Config{Players: 2, Bots: []string{"", "random"}}
	mustCreate(t, a, "p", cfg)
	_, err := a.CreateFrom(bg, "p", "", cfg)
	if !errors.Is(err, table.ErrTooMany) || !strings.Contains(err.Error(), "the last 1 of 3 places are kept") {
		t.Fatalf("a second table for p with 1 run, 1 waiting to start again, 3 places and 1 kept: %v, want the reserve's refusal", err)
	}
	if _, err := a.CreateFrom(bg, "q", "", cfg); err != nil {
		t.Fatalf("a first table for q in the place kept: %v", err)
	}
}

// TestTakeKeepsLimit: an orphan the scan claimed while there was room is
// given back, not run, if a create took that room before it started:
// run, MaxTables+1 tables were open. Another server with room takes it.
func TestTakeKeepsLimit(t *testing.T) {
	st := newMemStore()
	reg := newRegistry(st)
	created := make(chan error, 1)
	var hub atomic.Pointer[table.Hub]
	var once sync.Once
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery, o.MaxTables, o.Reserve = reg.server("A"), 5*time.Millisecond, 1, -1
		table.SetTakeHook(o, func(string) {
			once.Do(func() { // set by then: the orphan is stored after the hub starts
				_, err := hub.Load().CreateFrom(bg, "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
				created <- err
			})
		})
	})
	hub.Store(a)
	storeTable(t, st, "V", `{"players":2,"bots":["","random"]}`) // an orphan
	select {
	case err := <-created:
		if err != nil {
			t.Fatalf("create with the 1 place free: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatalf("V not taken within %v", waitTimeout)
	}
	reg.waitReleased(t, "A", "V", "V, taken as the create filled the 1 place, is not given back")
	if _, err := a.Table("V"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("A runs V besides the table created: 2 tables, past MaxTables 1 (%v)", err)
	}
	if o := reg.ownerOf("V"); o != "" {
		t.Fatalf("V is held by %q, want nobody (given back)", o)
	}
}
