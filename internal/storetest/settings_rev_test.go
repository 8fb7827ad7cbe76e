package storetest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
)

// TestSettingsRevision: a settings write older than the one kept (a
// smaller revision) is not stored, and is answered with the kept ones;
// the same revision again, a newer one, or a write with no revision (a
// page from before revisions) is stored.
func TestSettingsRevision(t *testing.T) {
	steps := []struct {
		js      string
		rev     int64
		kept    string // the settings kept afterwards
		keptRev int64  // and their revision
	}{
		{`{"a":5,"rev":5}`, 5, `{"a":5,"rev":5}`, 5},
		{`{"a":3,"rev":3}`, 3, `{"a":5,"rev":5}`, 5}, // older, after the newer: not stored
		{`{"a":0,"rev":0}`, 0, `{"a":5,"rev":5}`, 5},
		{`{"b":5,"rev":5}`, 5, `{"b":5,"rev":5}`, 5}, // the same revision: the same copy sent again
		{`{"a":7,"rev":7}`, 7, `{"a":7,"rev":7}`, 7},
		{`{"old":1}`, spidergame.NoRevision, `{"old":1}`, 7}, // stored, the revision 7 kept
		{`{"a":6,"rev":6}`, 6, `{"old":1}`, 7},               // the revision 7 is kept over the write without one
		{`{"a":8,"rev":8}`, 8, `{"a":8,"rev":8}`, 8},
	}
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		for i, st := range steps {
			kept, keptRev, err := s.PutSettingsRev(ctx, "p", st.js, st.rev)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if kept != st.kept || keptRev != st.keptRev {
				t.Errorf("step %d, writing %s (rev %d): answered %s rev %d, want %s rev %d", i, st.js, st.rev, kept, keptRev, st.kept, st.keptRev)
			}
			if got := must(s.Settings(ctx, "p")); got != st.kept {
				t.Errorf("step %d, writing %s (rev %d): kept %s, want %s", i, st.js, st.rev, got, st.kept)
			}
			if got, rev, err := s.SettingsRev(ctx, "p"); err != nil || got != st.kept || rev != st.keptRev {
				t.Errorf("step %d: SettingsRev %s rev %d (%v), want %s rev %d", i, got, rev, err, st.kept, st.keptRev)
			}
		}
		if got := must(s.Settings(ctx, "q")); got != "{}" {
			t.Errorf("another player's settings: %s", got)
		}
	})
}

// TestSettingsRevisionRace: writes of many revisions at once, from as many
// connections, leave the newest whatever order they reach the database
// in: the check and the write are one step.
func TestSettingsRevisionRace(t *testing.T) {
	const n = 16
	each(t, func(t *testing.T, _ storetest.Backend, _ string, s storetest.Store) {
		ctx := context.Background()
		for round := range 5 {
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() {
					// Descending, so that the newest tends to start first.
					rev := int64(round*n + n - i)
					_, _, errs[i] = s.PutSettingsRev(ctx, "p", fmt.Sprintf(`{"rev":%d}`, rev), rev)
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if got, want := must(s.Settings(ctx, "p")), fmt.Sprintf(`{"rev":%d}`, round*n+n); got != want {
				t.Fatalf("round %d: kept %s, want %s", round, got, want)
			}
		}
	})
}
