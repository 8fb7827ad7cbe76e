package table_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/table"
)

// failFirstRelease is a server's claims whose first Release fails (the
// database did not answer it), as a give-back can.
type failFirstRelease struct {
	table.Claims
	failed atomic.Bool
}

var errReleaseLost = errors.New("the release did not reach the database")

func (c *failFirstRelease) Release(ctx context.Context, ids []string) error {
	if c.failed.CompareAndSwap(false, true) {
		return errReleaseLost
	}
	return c.Claims.Release(ctx, ids)
}

// strayHub starts hub A over a stored table T it cannot replay (a bot
// level its version does not know), with claims whose first Release
// fails: A takes T at its start, and its give-back of T fails, so A
// holds T and runs it nowhere.
func strayHub(tb testing.TB, scanEvery time.Duration) (*table.Hub, *registry) {
	tb.Helper()
	st := newMemStore()
	storeTable(tb, st, "T", `{"players":2,"bots":["","future"]}`)
	reg := newRegistry(st)
	claims := &failFirstRelease{Claims: reg.server("A")}
	h, err := table.NewHub(bg, table.Options{Store: st, Clock: newFakeClock(), BotTime: time.Hour,
		Claims: claims, ScanEvery: scanEvery,
		Bots: func(level string, seed uint64) (table.Bot, error) {
			if level == "future" {
				return nil, errors.New("unknown bot level")
			}
			return newBot(level, seed)
		}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(h.Close)
	if !claims.failed.Load() {
		tb.Fatal("A gave nothing back at its start")
	}
	if o := reg.ownerOf("T"); o != "A" {
		tb.Fatalf("T is held by %q after a failed give-back, want A", o)
	}
	return h, reg
}

// TestStrayGivenBackByScan: a table this server holds but neither runs
// nor will start again (its give-back failed) is given back at the next
// scan, rather than held, its lease renewed, and run nowhere.
func TestStrayGivenBackByScan(t *testing.T) {
	h, reg := strayHub(t, 5*time.Millisecond)
	reg.waitReleased(t, "A", "T", "A's scans did not give T back")
	if o := reg.ownerOf("T"); o != "" {
		t.Fatalf("T is held by %q after A gave it back", o)
	}
	if _, err := h.Table("T"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("A runs T: %v", err)
	}
}

// TestStrayGivenBackAtClose: a server stopping gives back every table
// the store says it holds, not only those it runs: one whose give-back
// failed is released too, so another server takes it at once.
func TestStrayGivenBackAtClose(t *testing.T) {
	h, reg := strayHub(t, time.Hour) // no scan comes before Close
	h.Close()
	if o := reg.ownerOf("T"); o != "" {
		t.Fatalf("T is held by %q after A stopped", o)
	}
}
