package table

import (
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
	for i := range 10 {
		s.add(fmt.Sprint(i))
		if len(s.ids) > 3 {
			t.Fatalf("after %d adds the set holds %d ids, bound 3", i+2, len(s.ids))
		}
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
