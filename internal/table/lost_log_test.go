package table_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/table"
)

// TestLostLoggedOnceStopped: a table another server took is logged as
// dropped here once it has stopped, and once: one hung in a store write
// past the stop wait is not logged as dropped while it still runs (each
// scan logged it again, though it ran on), only counted among those not
// stopped in time; once its write ends and it stops, one line says so.
func TestLostLoggedOnceStopped(t *testing.T) {
	st := newMemStore()
	storeTable(t, st, "A", `{"players":2,"bots":["random","random"]}`) // bots: it moves, and hangs
	storeTable(t, st, "Q", `{"players":2,"bots":["","random"]}`)       // quiet
	stuck, release := st.holdActions()
	reg := newRegistry(st)
	var mu sync.Mutex
	var logs []string
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("A"), 5*time.Millisecond
		table.SetStopWait(o, 20*time.Millisecond)
		o.Logf = func(f string, args ...any) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf(f, args...))
			mu.Unlock()
		}
	})
	tables := map[string]*table.Table{}
	for _, id := range []string{"A", "Q"} {
		tb, err := a.Table(id)
		if err != nil {
			release()
			t.Fatalf("A runs %s: %v", id, err)
		}
		tables[id] = tb
	}
	mustSub(t, tables["A"], "", -1) // watched, its bots play
	t.Cleanup(release)
	select {
	case <-stuck:
	case <-time.After(waitTimeout):
		t.Fatal("A's move never reached the store")
	}
	count := func(want string) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, l := range logs {
			if strings.Contains(l, want) {
				n++
			}
		}
		return n
	}
	snapshot := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logs...)
	}
	reg.mu.Lock()
	reg.owner["A"], reg.owner["Q"] = "B", "B"
	reg.mu.Unlock()
	// Three scans that found A still running: the condition the test waits for.
	// A scan's line about A is either kind, the fix's or the fault's.
	const notStopped = "another server holds tables run here: 0 of 1 stopped"
	const droppedA = "table A: another server holds it now; dropped here"
	deadline := time.Now().Add(waitTimeout)
	for count(notStopped)+count(droppedA) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("no three scans found A still running; log %q", snapshot())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := count(droppedA); n != 0 {
		t.Fatalf("A, hung and still running, logged as dropped %d times (%d scans told it was not stopped)", n, count(notStopped))
	}
	if n := count("table Q: another server holds it now; dropped here"); n != 1 {
		t.Fatalf("Q, stopped, logged as dropped %d times, want once", n)
	}
	release()
	select {
	case <-tables["A"].Done():
	case <-time.After(waitTimeout):
		t.Fatal("A still runs after its write ended")
	}
	for count(droppedA) < 1 {
		if time.Now().After(deadline.Add(waitTimeout)) {
			t.Fatalf("A, stopped, never logged as dropped; log %q", snapshot())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
