package table

import (
	"context"
	"time"
)

// Pruner deletes the tables that finished (over, or closed idle) before
// a time, with their moves, and says how many; with them, the ratings of
// people last rated before then with fewer than MinRankedGames games
// (docs/tables.md, "Ratings"). *store.DB has it. A Store without it keeps
// every record.
type Pruner interface {
	PruneTables(ctx context.Context, before time.Time) (int64, error)
}

// prune deletes the finished tables older than KeepRecords now, then
// every PruneEvery. It is the hub's goroutine for that and returns when
// the hub stops (its context ends: Close, or the server's context), its
// only exit. A failure is reported through Logf and tried again at the
// next round. Live tables are never touched: the store keeps every open
// one, and a finished table's record stays downloadable for KeepRecords.
func (h *Hub) prune(p Pruner) {
	for {
		ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
		n, err := p.PruneTables(ctx, h.o.Clock.Now().UTC().Add(-h.o.KeepRecords))
		cancel()
		switch {
		case h.ctx.Err() != nil:
			return
		case err != nil:
			h.o.Logf("pruning finished tables: %v", err)
		case n > 0:
			h.o.Logf("pruned %d finished tables older than %v", n, h.o.KeepRecords)
		}
		t := h.o.Clock.NewTimer(h.o.PruneEvery)
		if h.o.onPrune != nil { // once the next round is timed
			h.o.onPrune(n)
		}
		select {
		case <-h.ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}
