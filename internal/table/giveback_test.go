package table_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"cardtable/internal/table"
)

// registry is a fake of the claims servers share (pgstore.Node's
// table.Claims) over one memStore: each table's owner, by server name.
// Each Take is told on takes, with the tables it claimed, and each
// Release on releases.
type registry struct {
	st       *memStore
	mu       sync.Mutex
	owner    map[string]string
	takes    chan taken
	releases chan taken
	// stale: tables a server's Held still names though it lost them (it
	// asked before the loss), until it takes them again.
	stale map[string]string
	// takers, when set, are the servers whose Take claims anything (the
	// least loaded); handOff, when set, becomes the only taker at the
	// next Release.
	takers  map[string]bool
	handOff string
	// cut: servers cut off from the store (their claims' calls fail, and
	// their lease has run out: Adrift).
	cut map[string]bool
	// leaseOut: servers whose lease is still run out (Adrift) though
	// their claims' calls work again: the store answers, their
	// heartbeat has not renewed the lease yet.
	leaseOut map[string]bool
}

// errCut is a claims call of a server cut off from the store.
var errCut = errors.New("the database is out of reach")

// setCut cuts server off from the store, or brings it back.
func (r *registry) setCut(server string, cut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut[server] = cut
}

func (r *registry) isCut(server string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cut[server]
}

// setLeaseOut keeps server's lease run out (Adrift) whether cut or not.
func (r *registry) setLeaseOut(server string, out bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.leaseOut[server] = out
}

// Adrift: a server cut off, or whose lease is still out (table.Adrift).
func (c serverClaims) Adrift() bool {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	return c.r.cut[c.name] || c.r.leaseOut[c.name]
}

type taken struct {
	server string
	ids    []string
}

func newRegistry(st *memStore) *registry {
	return &registry{st: st, owner: map[string]string{}, takes: make(chan taken, 64), releases: make(chan taken, 64),
		stale: map[string]string{}, cut: map[string]bool{}, leaseOut: map[string]bool{}}
}

// orphan makes table id nobody's, as if its server had lost it to one
// that then died, though its server's Held has not seen the loss yet.
func (r *registry) orphan(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stale[id] = r.owner[id]
	r.owner[id] = ""
}

// server is the table.Claims of the server called name.
func (r *registry) server(name string) table.Claims { return serverClaims{r, name} }

func (r *registry) ownerOf(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.owner[id]
}

// waitReleased waits for server's give-back of id (a Release naming it),
// passing over other releases; a wait past waitTimeout fails tb with
// what, and who holds id then.
func (r *registry) waitReleased(tb testing.TB, server, id, what string) {
	tb.Helper()
	for {
		select {
		case rel := <-r.releases:
			if rel.server == server && slices.Contains(rel.ids, id) {
				return
			}
		case <-time.After(waitTimeout):
			tb.Fatalf("%s within %v (%s held by %q)", what, waitTimeout, id, r.ownerOf(id))
		}
	}
}

type serverClaims struct {
	r    *registry
	name string
}

func (c serverClaims) Take(ctx context.Context, room int, skip []string) ([]table.Stored, error) {
	if c.r.isCut(c.name) {
		return nil, errCut
	}
	open, err := c.r.st.OpenTables(ctx)
	if err != nil {
		return nil, err
	}
	var out []table.Stored
	var ids []string
	c.r.mu.Lock()
	for _, s := range open {
		if c.r.takers != nil && !c.r.takers[c.name] {
			break
		}
		if len(out) < room && c.r.owner[s.ID] == "" && !slices.Contains(skip, s.ID) {
			c.r.owner[s.ID] = c.name
			delete(c.r.stale, s.ID)
			out = append(out, s)
			ids = append(ids, s.ID)
		}
	}
	c.r.mu.Unlock()
	select {
	case c.r.takes <- taken{c.name, ids}:
	default: // nobody is counting the scans now
	}
	return out, nil
}

func (c serverClaims) Held(context.Context) (map[string]bool, error) {
	if c.r.isCut(c.name) {
		return nil, errCut
	}
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	out := map[string]bool{}
	for id, o := range c.r.owner {
		if o == c.name {
			out[id] = true
		}
	}
	for id, o := range c.r.stale {
		if o == c.name {
			out[id] = true
		}
	}
	return out, nil
}

func (c serverClaims) Release(_ context.Context, ids []string) error {
	if c.r.isCut(c.name) {
		return errCut
	}
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	for _, id := range ids {
		if c.r.owner[id] == c.name {
			c.r.owner[id] = ""
		}
	}
	if c.r.handOff != "" {
		c.r.takers, c.r.handOff = map[string]bool{c.r.handOff: true}, ""
	}
	select {
	case c.r.releases <- taken{c.name, ids}:
	default:
	}
	return nil
}

// storeTable stores an open two-seat table id with config, as a server
// that has since died made it: no server runs it.
func storeTable(tb testing.TB, st *memStore, id, config string) {
	tb.Helper()
	now := time.Now().UTC()
	if err := st.CreateTable(bg, table.Stored{ID: id, Creator: "p", Config: config, Seed: 1,
		Seats: make([]table.StoredSeat, 2), Status: table.StatusOpen, Created: now, Updated: now}); err != nil {
		tb.Fatal(err)
	}
}

// TestUnstartableGivenBack: a server that claims a table it cannot
// replay (here, a bot level its version does not know) gives it back
// (giveBack) at once rather than holding it unrun, and does not take it
// again at its later scans; another server that can run it takes it.
func TestUnstartableGivenBack(t *testing.T) {
	st := newMemStore()
	storeTable(t, st, "T", `{"players":2,"bots":["","future"]}`)
	reg := newRegistry(st)
	old := func(level string, seed uint64) (table.Bot, error) {
		if level == "future" {
			return nil, errors.New("unknown bot level")
		}
		return newBot(level, seed)
	}
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery, o.Bots = reg.server("A"), 5*time.Millisecond, old
	})
	// A took T at its start and could not run it: T is nobody's.
	if _, err := a.Table("T"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("A runs T: %v", err)
	}
	if o := reg.ownerOf("T"); o != "" {
		t.Fatalf("T is held by %q, want given back", o)
	}
	// A's later scans leave it (its first Take, at its start, took it).
	if tk := <-reg.takes; tk.server != "A" || !slices.Equal(tk.ids, []string{"T"}) {
		t.Fatalf("the first take: %+v, want A's of T", tk)
	}
	for scans := 0; scans < 3; {
		select {
		case tk := <-reg.takes:
			if tk.server != "A" {
				continue
			}
			if slices.Contains(tk.ids, "T") {
				t.Fatal("A took T again")
			}
			scans++
		case <-time.After(waitTimeout):
			t.Fatal("A stopped scanning")
		}
	}
	// B, whose version knows the level, takes T and runs it.
	b := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("B"), time.Hour
		o.Bots = func(level string, seed uint64) (table.Bot, error) {
			if level == "future" {
				level = "random"
			}
			return newBot(level, seed)
		}
	})
	if _, err := b.Table("T"); err != nil || reg.ownerOf("T") != "B" {
		t.Fatalf("B runs T: %v (held by %q)", err, reg.ownerOf("T"))
	}
}

// TestOldCopyGivenBack: a server that claims a table of which an old copy
// still runs here stops that copy first; when the copy does not stop in
// time (its database write hangs), the claim is given back (giveBack)
// rather than held by a server that does not run it, and another server
// takes the table and runs it.
func TestOldCopyGivenBack(t *testing.T) {
	st := newMemStore()
	storeTable(t, st, "T", `{"players":2,"bots":["random","random"]}`)
	stuck, release := st.holdActions()
	reg := newRegistry(st)
	reg.takers = map[string]bool{"A": true}
	a := newHub(t, st, newFakeClock(), func(o *table.Options) {
		o.Claims, o.ScanEvery = reg.server("A"), 5*time.Millisecond
		table.SetStopWait(o, 50*time.Millisecond)
	})
	old, err := a.Table("T")
	if err != nil {
		release()
		t.Fatalf("A runs T: %v", err)
	}
	mustSub(t, old, "", -1) // watched, its bots play
	// Cleanups run last first: the writes go on before the subscription
	// and the hubs close, which wait on the tables.
	t.Cleanup(release)
	select { // T's first bot move hangs in the store: its copy on A is stuck
	case <-stuck:
	case <-time.After(waitTimeout):
		t.Fatal("no move of T reached the store")
	}
	// A loses T and T is orphaned again, before A's Held has seen it: A
	// takes it again, cannot stop its stuck copy, and gives the claim
	// back; B, the only taker from then on, takes T.
	reg.mu.Lock()
	reg.handOff = "B"
	reg.mu.Unlock()
	reg.orphan("T")
	select {
	case r := <-reg.releases:
		if r.server != "A" || !slices.Equal(r.ids, []string{"T"}) {
			t.Fatalf("released %+v, want A's T", r)
		}
	case <-time.After(waitTimeout):
		t.Fatal("A never gave T back")
	}
	if o := reg.ownerOf("T"); o != "" {
		t.Fatalf("T is held by %q after A gave it back", o)
	}
	b := newHub(t, st, newFakeClock(), func(o *table.Options) { o.Claims, o.ScanEvery = reg.server("B"), time.Hour })
	t.Cleanup(release)
	if _, err := b.Table("T"); err != nil || reg.ownerOf("T") != "B" {
		t.Fatalf("B runs T: %v (held by %q)", err, reg.ownerOf("T"))
	}
}
