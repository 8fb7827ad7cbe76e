package cli

import (
	"context"
	"testing"
	"time"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
	"cardtable/internal/web/arlweb"
)

// TestClusterWhere: where a table's requests go. A finished table held
// here that this server no longer runs (its claim not given back: the
// release failed) is answered here from the database, not "moving" for as
// long as this server lives; an open table held here and not running yet
// waits; another live server's table is forwarded there.
func TestClusterWhere(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	join := func(addr string) (*pgstore.DB, *pgstore.Node) {
		db, err := pgstore.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		n, err := db.Join(ctx, pgstore.NodeOptions{Addr: addr, Lease: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close(context.Background()) })
		return db, n
	}
	a, na := join("a:1")
	_, nb := join("b:1")
	now := time.Now().UTC()
	for _, id := range []string{"OPEN", "OVER"} {
		if err := a.CreateTable(ctx, table.Stored{ID: id, Creator: "p", Config: `{"players":2}`, Seed: 1,
			Seats: make([]table.StoredSeat, 2), Status: table.StatusOpen, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.FinishTable(ctx, "OVER", table.StatusOver, now); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    *pgstore.Node
		id   string
		want arlweb.Place
	}{
		{na, "OVER", arlweb.Place{Here: true}},
		{na, "OPEN", arlweb.Place{Wait: true}},
		{nb, "OPEN", arlweb.Place{Addr: "a:1"}},
		{nb, "NONE", arlweb.Place{Here: true}},
	} {
		if got, err := (cluster{c.n}).Where(ctx, c.id); err != nil || got != c.want {
			t.Errorf("%s asked by %s: %+v (%v), want %+v", c.id, c.n.ID(), got, err, c.want)
		}
	}
}
