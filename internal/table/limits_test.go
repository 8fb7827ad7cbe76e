package table_test

import (
	"errors"
	"fmt"
	"testing"

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
