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
// Each Take is told on takes, with the tables it claimed.
type registry struct {
	st    *memStore
	mu    sync.Mutex
	owner map[string]string
	takes chan taken
}

type taken struct {
	server string
	ids    []string
}

func newRegistry(st *memStore) *registry {
	return &registry{st: st, owner: map[string]string{}, takes: make(chan taken, 64)}
}

// server is the table.Claims of the server called name.
func (r *registry) server(name string) table.Claims { return serverClaims{r, name} }

func (r *registry) ownerOf(id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.owner[id]
}

type serverClaims struct {
	r    *registry
	name string
}

func (c serverClaims) Take(ctx context.Context, room int, skip []string) ([]table.Stored, error) {
	open, err := c.r.st.OpenTables(ctx)
	if err != nil {
		return nil, err
	}
	var out []table.Stored
	var ids []string
	c.r.mu.Lock()
	for _, s := range open {
		if len(out) < room && c.r.owner[s.ID] == "" && !slices.Contains(skip, s.ID) {
			c.r.owner[s.ID] = c.name
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
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	out := map[string]bool{}
	for id, o := range c.r.owner {
		if o == c.name {
			out[id] = true
		}
	}
	return out, nil
}

func (c serverClaims) Release(_ context.Context, ids []string) error {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	for _, id := range ids {
		if c.r.owner[id] == c.name {
			c.r.owner[id] = ""
		}
	}
	return nil
}

// TestUnstartableGivenBack: a server that claims a table it cannot
// replay (here, a bot level its version does not know) gives it back
// (giveBack) at once rather than holding it unrun, and does not take it
// again at its later scans; another server that can run it takes it.
func TestUnstartableGivenBack(t *testing.T) {
	st := newMemStore()
	now := time.Now().UTC()
	if err := st.CreateTable(bg, table.Stored{ID: "T", Creator: "p", Config: `{"players":2,"bots":["","future"]}`, Seed: 1,
		Seats: make([]table.StoredSeat, 2), Status: table.StatusOpen, Created: now, Updated: now}); err != nil {
		t.Fatal(err)
	}
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
