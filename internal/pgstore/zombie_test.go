package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/table"
)

// TestStalledServerDropsTable: a server that stalls (its heartbeat stops,
// its hub and its connections to the database go on, as a server paused
// or cut off for longer than its lease) loses its table to another
// server; the stalled one can write it no more, drops it and ends its
// subscriptions with ErrMoved, while the table plays on at the other
// server from the stored moves, none lost or doubled.
func TestStalledServerDropsTable(t *testing.T) {
	ctx := context.Background()
	_, _, a, b := twoServers(t, pgtest.DB(t))
	hub := func(db table.Store, n *pgstore.Node) *table.Hub {
		h, err := table.NewHub(ctx, table.Options{Store: db, Claims: n, ScanEvery: testBeat,
			Bots: func(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		return h
	}
	ha, hb := hub(a.DB(), a), hub(b.DB(), b)
	tb, err := ha.CreateFrom(ctx, "p", "", table.Config{Players: 2, Target: 500, Bots: []string{"random", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Crash()
	// A spectator until the table stops at A; one that falls behind the
	// bots (a slow machine) subscribes again, as a page would.
	for {
		sub, err := tb.Subscribe(ctx, "", -1)
		if err != nil {
			if errors.Is(err, table.ErrClosed) && tb.Moved() {
				break // it stopped between the two subscriptions
			}
			t.Fatal(err)
		}
		for range sub.Updates() {
		}
		if errors.Is(sub.Err(), table.ErrSlow) {
			continue
		}
		if !errors.Is(sub.Err(), table.ErrMoved) || !tb.Moved() {
			t.Fatalf("A's table ended with %v (moved %v), want ErrMoved", sub.Err(), tb.Moved())
		}
		break
	}
	var tb2 *table.Table
	for deadline := time.Now().Add(10 * time.Second); tb2 == nil; {
		if tb2, err = hb.Table(tb.ID()); err != nil {
			tb2 = nil
			if time.Now().After(deadline) {
				t.Fatal("B did not take the table")
			}
			time.Sleep(testBeat) // B's next scan
		}
	}
	sub2, err := tb2.Subscribe(ctx, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub2.Close()
	first := <-sub2.Updates()
	for u := range sub2.Updates() { // B's bots play on
		if u.View.EventCount > first.View.EventCount+5 {
			break
		}
	}
	s, err := b.DB().LoadTable(ctx, tb.ID())
	if err != nil {
		t.Fatal(err)
	}
	st, _ := arlington.New(arlington.Config{Players: 2, Target: 500}, s.Seed)
	for i, m := range s.Moves {
		a, err := arlington.ParseAction(m.Action)
		if err == nil {
			err = st.Apply(m.Seat, a)
		}
		if err != nil {
			t.Fatalf("stored move %d does not replay: %v", i, err)
		}
	}
}
