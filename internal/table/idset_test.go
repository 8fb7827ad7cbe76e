package table

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestIDSetBounded: each id is new once; past its bound the set forgets
// one id rather than grow, and a forgotten id counts as new again.
func TestIDSetBounded(t *testing.T) {
	s := newIDSet(3)
	if !s.add("a") || s.add("a") {
		t.Fatal(`"a" should be new once, then known`)
	}
	if !s.fits("a") || !s.fits("b") {
		t.Fatal(`with room, "a" (known) and "b" (new) should fit`)
	}
	for i := range 10 {
		s.add(fmt.Sprint(i))
		if len(s.ids) > 3 {
			t.Fatalf("after %d adds the set holds %d ids, bound 3", i+2, len(s.ids))
		}
	}
	if s.fits("new") || !s.fits("9") {
		t.Fatal(`full, a new id should not fit and the last added "9" should`)
	}
	forgotten := 0
	var gone string
	for _, id := range []string{"a", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		if !s.ids[id] {
			forgotten++
			gone = id
		}
	}
	if forgotten != 8 {
		t.Fatalf("%d of the 11 ids forgotten, want 8 (3 kept)", forgotten)
	}
	if !s.add(gone) {
		t.Fatalf("the forgotten %q should count as new", gone)
	}
}

// TestHubIDSetsBounded: a hub's sets of table ids are made with their
// bounds (a store full of bad rows cannot grow them; the tables to start
// again are at most those it may run, with as many again for tables taken
// as the limit was reached).
func TestHubIDSetsBounded(t *testing.T) {
	h, err := NewHub(t.Context(), Options{Store: noTables{}, Bots: noBots, MaxTables: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if u, s, a := IDSetBounds(h); u != maxUnreadable || s != maxUnstartable || a != 14 {
		t.Fatalf("bounds %d, %d and %d, want %d, %d and 14", u, s, a, maxUnreadable, maxUnstartable)
	}
}

// noTables is a store holding no tables; the hub above calls nothing else.
type noTables struct{ Store }

func (noTables) OpenTables(context.Context) ([]Stored, error) { return nil, nil }

func noBots(string, uint64) (Bot, error) { return nil, errors.New("no bots here") }
