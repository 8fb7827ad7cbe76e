package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"cardtable/internal/table"
)

// TestAdriftStopsTables: a server cut off from the store for longer than
// its lease (Adrift) stops every table it runs: their connections end
// with ErrMoved, so the players reconnect and reach each table where it
// runs now, rather than stay at this server with every action refused
// until it reaches the store again. Once it does, it runs again the
// tables no other server took (PostgreSQL itself was down), still
// holding them; one another server took stays that server's.
func TestAdriftStopsTables(t *testing.T) {
	st := newMemStore()
	// A seat open for a person: the tables wait, quiet.
	storeTable(t, st, "T", `{"players":2,"bots":["","random"]}`)
	storeTable(t, st, "U", `{"players":2,"bots":["","random"]}`)
	reg := newRegistry(st)
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("A"), 5*time.Millisecond
	})
	subs := map[string]*table.Sub{}
	tables := map[string]*table.Table{}
	ended := map[string]chan struct{}{}
	for _, id := range []string{"T", "U"} {
		tb, err := a.Table(id)
		if err != nil {
			t.Fatalf("A runs %s: %v", id, err)
		}
		sub, done := mustSub(t, tb, "", -1), make(chan struct{})
		subs[id], ended[id], tables[id] = sub, done, tb
		go func() { // read to the subscription's end
			defer close(done)
			for range sub.Updates() {
			}
		}()
	}

	reg.setCut("A", true)
	for id, sub := range subs {
		select {
		case <-ended[id]:
		case <-time.After(waitTimeout):
			t.Fatalf("a connection to %s on the server cut off is still open after %v", id, waitTimeout)
		}
		if !errors.Is(sub.Err(), table.ErrMoved) {
			t.Fatalf("%s's connection ended with %v, want ErrMoved (reconnect)", id, sub.Err())
		}
		<-tables[id].Done() // stopped: gone from the hub
		if _, err := a.Table(id); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("the server cut off still runs %s: %v", id, err)
		}
	}

	// Meanwhile B took T (A's lease ran out); nobody took U.
	reg.mu.Lock()
	reg.owner["T"] = "B"
	reg.mu.Unlock()
	reg.setCut("A", false)
	deadline := time.Now().Add(waitTimeout)
	for {
		if _, err := a.Table("U"); err == nil && reg.ownerOf("U") == "A" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("U is not run again by A after the store answers (held by %q)", reg.ownerOf("U"))
		}
		time.Sleep(5 * time.Millisecond) // the next scan
	}
	if o := reg.ownerOf("T"); o != "B" {
		t.Fatalf("T is held by %q, want B, which took it", o)
	}
	if _, err := a.Table("T"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("A runs T, which B took: %v", err)
	}
	// U runs again and B holds T: neither waits to start again here.
	if got := table.AdriftOf(a); len(got) > 0 {
		t.Fatalf("tables to start again once U runs and B holds T: %q, want none", got)
	}
}

// TestAdriftStuckTable: a server whose lease ran out stops its tables;
// one busy with a store write that hangs (stopped together with the
// others: TestAdriftStopsTogether) is noted to start again only once it
// has stopped, so the scans that try it again while it hangs do not
// note it again and again (the tables noted are the tables stopped, each
// once; those waiting keep their places under MaxTables:
// TestAdriftHoldsPlaces).
func TestAdriftStuckTable(t *testing.T) {
	scans := make(chan []string, 100)
	reg, tables, release := hungAndQuiet(t, newMemStore(), []string{"S"}, []string{"T", "U"}, func(o *table.Options) {
		table.SetStopWait(o, 50*time.Millisecond)
		table.SetAdriftHook(o, func(adrift []string) {
			select {
			case scans <- adrift:
			default:
			}
		})
	})

	reg.setCut("A", true)
	for _, id := range []string{"T", "U"} {
		select {
		case <-tables[id].Done():
		case <-time.After(waitTimeout):
			t.Fatalf("%s still runs %v after the lease ran out, behind S's hung write", id, waitTimeout)
		}
	}
	// Three scans more with S still hung: S is not noted, T and U once.
	var got []string
	for range 3 {
		select {
		case got = <-scans:
		case <-time.After(waitTimeout):
			t.Fatalf("no scan within %v", waitTimeout)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"T", "U"}) {
		t.Fatalf("tables to start again while S hangs: %q, want T and U once each", got)
	}
	release()
	<-tables["S"].Done()
	for {
		select {
		case got = <-scans:
		case <-time.After(waitTimeout):
			t.Fatalf("no scan within %v", waitTimeout)
		}
		if slices.Contains(got, "S") {
			break
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"S", "T", "U"}) {
		t.Fatalf("tables to start again once S stopped: %q, want S, T and U once each", got)
	}
}

// TestAdriftStopsTogether: a server whose lease ran out stops its tables
// together, one wait for all: two tables hang in a store write that is
// let go only once every quiet table has stopped, with a stop wait far
// longer than the test waits. Stopped one at a time, a hung table asked
// first holds the quiet ones up for its whole wait, and as the hung ones
// are first and last in the order the tables are stopped in (by id),
// either way round one of them is asked before the quiet ones; only asked
// together do the quiet ones stop at once and let the writes go.
func TestAdriftStopsTogether(t *testing.T) {
	st := newMemStore()
	hung := []string{"A", "Z"}
	quiet := []string{"M", "N", "O"}
	reg, tables, release := hungAndQuiet(t, st, hung, quiet)

	reg.setCut("A", true)
	for _, id := range quiet {
		select {
		case <-tables[id].Done():
		case <-time.After(waitTimeout):
			t.Fatalf("%s still runs %v after the lease ran out: stopped behind a hung table's wait, not with it", id, waitTimeout)
		}
	}
	release()
	hungEnd(t, tables, hung)
}

// liveOnly is a store whose requests' reads fail (LoadTable: every
// connection they may hold is taken) while the tables' own (LoadLive)
// go on.
type liveOnly struct{ *memStore }

func (s liveOnly) LoadTable(context.Context, string) (table.Stored, error) {
	return table.Stored{}, errors.New("no connection free for requests")
}

func (s liveOnly) LoadLive(ctx context.Context, id string) (table.Stored, error) {
	return s.memStore.LoadTable(ctx, id)
}

// TestAdriftResumesOnTablesSide: the tables a server stopped while cut
// off start again once the store answers even while requests hold every
// connection they may: the tables' own loads go on the store's side kept
// for the tables (table.LiveLoader).
func TestAdriftResumesOnTablesSide(t *testing.T) {
	mem := newMemStore()
	storeTable(t, mem, "U", `{"players":2,"bots":["","random"]}`)
	reg := newRegistry(mem)
	a := newHub(t, liveOnly{mem}, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("A"), 5*time.Millisecond
	})
	tb, err := a.Table("U")
	if err != nil {
		t.Fatalf("A runs U: %v", err)
	}
	reg.setCut("A", true)
	select {
	case <-tb.Done():
	case <-time.After(waitTimeout):
		t.Fatalf("U still runs %v after the lease ran out", waitTimeout)
	}
	reg.setCut("A", false)
	waitRuns(t, a, "U")
	if got := table.AdriftOf(a); len(got) > 0 {
		t.Fatalf("tables to start again once U runs again: %q, want none", got)
	}
}

// TestAdriftReleasedAtClose: a server stopping while the tables it
// stopped when cut off are not started again (the store answers, its
// lease not renewed yet) gives them back with those it runs, so that
// another server takes them at once rather than after the lease; one
// another server took meanwhile stays that server's.
func TestAdriftReleasedAtClose(t *testing.T) {
	st := newMemStore()
	storeTable(t, st, "T", `{"players":2,"bots":["","random"]}`)
	storeTable(t, st, "U", `{"players":2,"bots":["","random"]}`)
	reg := newRegistry(st)
	a, err := table.NewHub(context.Background(), table.Options{Store: st, Bots: newBot, Clock: newFakeClock(),
		BotTime: time.Hour, Claims: reg.server("A"), ScanEvery: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	t.Cleanup(func() { once.Do(a.Close) })
	var tables []*table.Table
	for _, id := range []string{"T", "U"} {
		tb, err := a.Table(id)
		if err != nil {
			t.Fatalf("A runs %s: %v", id, err)
		}
		tables = append(tables, tb)
	}
	reg.setLeaseOut("A", true)
	reg.setCut("A", true)
	for _, tb := range tables {
		select {
		case <-tb.Done():
		case <-time.After(waitTimeout):
			t.Fatalf("%s still runs %v after the lease ran out", tb.ID(), waitTimeout)
		}
	}
	// B took T while A was cut off; A's calls work again, its lease
	// still out: nothing is started again before it stops.
	reg.mu.Lock()
	reg.owner["T"] = "B"
	reg.mu.Unlock()
	reg.setCut("A", false)
	once.Do(a.Close)
	if o := reg.ownerOf("U"); o != "" {
		t.Fatalf("U, stopped while A was cut off and still A's, is held by %q after A stopped, want nobody (given back)", o)
	}
	if o := reg.ownerOf("T"); o != "B" {
		t.Fatalf("T is held by %q after A stopped, want B, which took it", o)
	}
}

// TestLostStopTogether: tables another server took are stopped here
// together, as those of a server cut off are (TestAdriftStopsTogether):
// two lost tables hang in a store write let go only once every quiet
// lost table has stopped, with a stop wait far longer than the test
// waits; the quiet ones must all stop within 5 s of B's taking them.
// Stopped one at a time, the quiet ones asked after a hung one
// waited for the scan's whole store wait and were tried again scans
// later (19 quiet ones behind one hung took 20 s to 80 s to stop).
func TestLostStopTogether(t *testing.T) {
	st := newMemStore()
	hung := []string{"A", "Z"}
	var quiet []string
	for i := range 18 {
		quiet = append(quiet, fmt.Sprintf("Q%02d", i))
	}
	reg, tables, release := hungAndQuiet(t, st, hung, quiet)

	reg.mu.Lock()
	for id := range tables {
		reg.owner[id] = "B" // A's lease ran out, B took them all
	}
	reg.mu.Unlock()
	// One deadline for all the quiet ones, shorter than a scan's store
	// wait (10 s): stopped one at a time, those asked after a hung table
	// wait that whole wait, and a fresh wait for each would let a later
	// scan stop them in time.
	const quietWithin = 5 * time.Second
	deadline := time.After(quietWithin)
	for _, id := range quiet {
		select {
		case <-tables[id].Done():
		case <-deadline:
			t.Fatalf("%s, lost, still runs here %v after B took it: stopped behind a hung table's wait, not with it", id, quietWithin)
		}
	}
	release()
	hungEnd(t, tables, hung)
}

// hungAndQuiet runs st's tables hung (bots whose moves' writes hang,
// held until release) and quiet (a seat open, nothing written) on a hub
// of server A, scanning every 5 ms, its stop wait longer than the tests
// wait unless an opt sets it, and waits until each hung table's write
// is held.
func hungAndQuiet(t testing.TB, st *memStore, hung, quiet []string, opts ...hubOpt) (*registry, map[string]*table.Table, func()) {
	t.Helper()
	for _, id := range hung { // bots: they move, and hang
		storeTable(t, st, id, `{"players":2,"bots":["random","random"]}`)
	}
	for _, id := range quiet { // a seat open for a person: quiet
		storeTable(t, st, id, `{"players":2,"bots":["","random"]}`)
	}
	stuck, release := st.holdActions()
	reg := newRegistry(st)
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("A"), 5*time.Millisecond
		table.SetStopWait(o, 3*waitTimeout)
		for _, opt := range opts {
			opt(o)
		}
	})
	tables := map[string]*table.Table{}
	for _, id := range append(slices.Clone(hung), quiet...) {
		tb, err := a.Table(id)
		if err != nil {
			release()
			t.Fatalf("A runs %s: %v", id, err)
		}
		tables[id] = tb
	}
	for _, id := range hung {
		mustSub(t, tables[id], "", -1) // watched, its bots play
	}
	t.Cleanup(release) // last first: the writes end before the hub closes
	waiting := map[string]bool{}
	for len(waiting) < len(hung) {
		select {
		case id := <-stuck:
			waiting[id] = true
		case <-time.After(waitTimeout):
			t.Fatalf("moves of %v reached the store, want both of %q", waiting, hung)
		}
	}
	return reg, tables, release
}

// hungEnd waits for the hung tables to stop once their writes ended.
func hungEnd(t testing.TB, tables map[string]*table.Table, hung []string) {
	t.Helper()
	for _, id := range hung {
		select {
		case <-tables[id].Done():
		case <-time.After(waitTimeout):
			t.Fatalf("%s still runs %v after its write ended", id, waitTimeout)
		}
	}
}
