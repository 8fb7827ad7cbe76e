package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/internal/table"
)

// A client without a cookie is a fresh identity on every connection: the
// spectator places one address takes at a table are bounded on their
// own, so others can still watch.
func TestSpectatorPlacesPerAddress(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	mustJoin(t, tb, "p", 0)
	n := 0
	for ; n < table.MaxSpectators; n++ {
		if _, err := tb.SubscribeChat(bg, fmt.Sprintf("fresh%d", n), "192.0.2.1", -1, -1); err != nil {
			if !errors.Is(err, table.ErrCrowded) || !strings.Contains(err.Error(), "your address") {
				t.Fatalf("after %d: %v", n, err)
			}
			break
		}
	}
	if n != table.MaxAddrWatch {
		t.Fatalf("one address took %d spectator places, want %d", n, table.MaxAddrWatch)
	}
	if _, err := tb.SubscribeChat(bg, "other", "198.51.100.7", -1, -1); err != nil {
		t.Fatalf("another address: %v", err)
	}
	// The seated person from that address still gets in.
	if _, err := tb.SubscribeChat(bg, "p", "192.0.2.1", -1, -1); err != nil {
		t.Fatalf("the seated person: %v", err)
	}
}

// Fresh identities from one address share the address's chat allowance.
func TestChatPerAddress(t *testing.T) {
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk)
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	mustJoin(t, tb, "p", 0)
	said := 0
	for i := range 100 {
		err := tb.Chat(bg, table.Player{ID: fmt.Sprintf("fresh%d", i), Name: "W", Addr: "192.0.2.1"}, "hi")
		if errors.Is(err, table.ErrRateLimited) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		said++
	}
	if said != table.AddrChatBurst {
		t.Fatalf("one address sent %d lines at once, want %d", said, table.AddrChatBurst)
	}
	if err := tb.Chat(bg, table.Player{ID: "q", Name: "Q", Addr: "198.51.100.7"}, "hi"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	clk.Advance(table.AddrChatEvery)
	if err := tb.Chat(bg, table.Player{ID: "fresh99", Name: "W", Addr: "192.0.2.1"}, "again"); err != nil {
		t.Fatalf("after %v: %v", table.AddrChatEvery, err)
	}
	// A person refused by their own allowance takes nothing from the
	// address's.
	for range table.ChatBurst {
		if err := tb.Chat(bg, table.Player{ID: "p", Addr: "203.0.113.5"}, "x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Chat(bg, table.Player{ID: "p", Addr: "203.0.113.5"}, "x"); !errors.Is(err, table.ErrRateLimited) {
		t.Fatalf("past the person's burst: %v", err)
	}
}

// A line the address's allowance refuses takes nothing from the
// person's: once that address is spent, the person still has their
// whole burst from another.
func TestChatAddrRefusalSparesPerson(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	for i := range table.AddrChatBurst {
		if err := tb.Chat(bg, table.Player{ID: fmt.Sprintf("fresh%d", i), Name: "W", Addr: "192.0.2.1"}, "hi"); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 * table.ChatBurst {
		if err := tb.Chat(bg, table.Player{ID: "v", Name: "V", Addr: "192.0.2.1"}, "hi"); !errors.Is(err, table.ErrRateLimited) {
			t.Fatalf("from the spent address: %v", err)
		}
	}
	for i := range table.ChatBurst {
		if err := tb.Chat(bg, table.Player{ID: "v", Name: "V", Addr: "198.51.100.7"}, "hi"); err != nil {
			t.Fatalf("line %d of the person's burst from another address: %v", i+1, err)
		}
	}
}

// Only -1 means no turn timer; any other number out of range is refused
// in words that give the range.
func TestTurnSecondsOutOfRange(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	for _, s := range []int{-2, -60, 4, table.MaxTurnSeconds + 1} {
		_, err := h.CreateFrom(bg, "p", "", table.Config{Players: 2, TurnSeconds: s})
		if !errors.Is(err, table.ErrBadConfig) || !strings.Contains(err.Error(), fmt.Sprintf("from %d to %d s (or -1 for none", table.MinTurnSeconds, table.MaxTurnSeconds)) {
			t.Fatalf("turnSeconds %d: %v", s, err)
		}
	}
	if _, err := h.CreateFrom(bg, "p", "", table.Config{Players: 2, TurnSeconds: -1}); err != nil {
		t.Fatalf("-1: %v", err)
	}
}

// A spectator refused a place is told whether a seat is open in the
// error itself (ErrSeatOpen), whichever limit refused them: the table's,
// the address's or their own; with every seat taken it is not said.
func TestSpectatorRefusalSaysSeatOpen(t *testing.T) {
	refusal := func(tb *table.Table, id, addr string) error {
		t.Helper()
		for range table.MaxSpectators + 1 {
			s, err := tb.SubscribeChat(bg, id, addr, -1, -1)
			if err != nil {
				if !errors.Is(err, table.ErrCrowded) {
					t.Fatalf("refused with %v, want ErrCrowded", err)
				}
				return err
			}
			t.Cleanup(s.Close)
		}
		t.Fatalf("%d spectators, none refused", table.MaxSpectators+1)
		return nil
	}
	fresh := 0
	freshIDs := func(tb *table.Table) error { // the table's share: fresh identities, no address
		t.Helper()
		for range table.MaxSpectators + 1 {
			fresh++
			s, err := tb.SubscribeChat(bg, fmt.Sprintf("fresh%d", fresh), "", -1, -1)
			if err != nil {
				return err
			}
			t.Cleanup(s.Close)
		}
		t.Fatal("the table's spectator share never filled")
		return nil
	}
	for _, tc := range []struct {
		limit string
		err   func(*table.Table) error
	}{
		{"the table's", freshIDs},
		{"the address's", func(tb *table.Table) error { return refusal(tb, "", "192.0.2.1") }},
		{"the identity's", func(tb *table.Table) error { return refusal(tb, "spy", "") }},
	} {
		// A fresh hub for each, so one limit's connections do not fill another's.
		h := newHub(t, newMemStore(), newFakeClock())
		open := mustCreate(t, h, "c", table.Config{Players: 2})
		mustJoin(t, open, "p", 0)
		if err := tc.err(open); !errors.Is(err, table.ErrSeatOpen) {
			t.Errorf("%s limit, a seat open: %v does not wrap ErrSeatOpen", tc.limit, err)
		}
		h = newHub(t, newMemStore(), newFakeClock())
		full := mustCreate(t, h, "c", table.Config{Players: 2, Bots: []string{"", "random"}})
		mustJoin(t, full, "q", 0)
		if err := tc.err(full); errors.Is(err, table.ErrSeatOpen) {
			t.Errorf("%s limit, every seat taken: %v wraps ErrSeatOpen", tc.limit, err)
		}
	}
}
