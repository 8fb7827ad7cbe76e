package spidergame

import (
	"context"
	"sync"
	"time"
)

// ForgetMargin is how long past Options.Forget an identity is kept before
// pruning forgets it (docs/api.md, "Retention"). An identity is recorded
// at most once a day, at its first request of the day, but every page
// load that day renews its cookie, so the cookie can outlive the recorded
// time by up to a day. The time recorded and the time pruning counts from
// are read on one clock (the server's with SQLite, the database's with
// PostgreSQL, whatever the servers' clocks say); the second day is to
// spare.
const ForgetMargin = 2 * 24 * time.Hour

// seenMemoMax bounds the identities a server remembers having recorded
// today: past it the memory starts again, and an identity recorded already
// costs one more read and conditional write, not a row.
const seenMemoMax = 100_000

// seenMemo is which identities this server recorded as seen on day
// (Unix days, UTC), so that an identity is written at most once a day
// however many requests it makes.
type seenMemo struct {
	mu  sync.Mutex
	day int64
	ids map[string]struct{}
}

// recorded reports whether player was recorded on now's day.
func (m *seenMemo) recorded(player string, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.ids[player]
	return ok && m.day == now.Unix()/86400
}

// mark notes that player was recorded on now's day.
func (m *seenMemo) mark(player string, now time.Time) {
	day := now.Unix() / 86400
	m.mu.Lock()
	defer m.mu.Unlock()
	if day != m.day || m.ids == nil || len(m.ids) >= seenMemoMax {
		m.day, m.ids = day, map[string]struct{}{}
	}
	m.ids[player] = struct{}{}
}

// Seen records that player made a request now (docs/api.md,
// "Retention"): an identity not seen for Options.Forget (and
// ForgetMargin) is pruned with everything it stored. Only an identity the
// store knows (recorded before, or owning something pruning would
// delete) is recorded, so a client sending made-up identities costs reads
// only, no row and no write; and each at most once a day on this server,
// however many requests it makes. A failed write is not noted, so the
// next request tries again.
func (gs *Service) Seen(ctx context.Context, player string) error {
	if player == "" || gs.forget <= 0 {
		return nil
	}
	now := gs.now()
	if gs.seen.recorded(player, now) {
		return nil
	}
	known, err := gs.db.Seen(ctx, player, now)
	if err != nil {
		return err
	}
	if known {
		gs.seen.mark(player, now)
	}
	return nil
}
