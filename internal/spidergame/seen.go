package spidergame

import (
	"context"
	"sync"
	"time"
)

// seenMemoMax bounds the identities a server remembers having recorded
// today: past it the memory starts again, and an identity recorded already
// costs one more conditional write, not a row.
const seenMemoMax = 100_000

// seenMemo is which identities this server recorded as seen on day
// (Unix days, UTC), so that an identity is written at most once a day
// however many requests it makes.
type seenMemo struct {
	mu  sync.Mutex
	day int64
	ids map[string]struct{}
}

// first reports whether player is not yet recorded on now's day, and
// marks it.
func (m *seenMemo) first(player string, now time.Time) bool {
	day := now.Unix() / 86400
	m.mu.Lock()
	defer m.mu.Unlock()
	if day != m.day || m.ids == nil || len(m.ids) >= seenMemoMax {
		m.day, m.ids = day, map[string]struct{}{}
	}
	if _, ok := m.ids[player]; ok {
		return false
	}
	m.ids[player] = struct{}{}
	return true
}

// forget unmarks player, whose recording failed, so that its next request
// tries again.
func (m *seenMemo) forget(player string) {
	m.mu.Lock()
	delete(m.ids, player)
	m.mu.Unlock()
}

// Seen records that player made a request now, at most once a day for
// each player (docs/api.md, "Storage"): an identity not seen for
// Options.Forget is pruned with everything it stored.
func (gs *Service) Seen(ctx context.Context, player string) error {
	if player == "" || gs.forget <= 0 {
		return nil
	}
	now := gs.now()
	if !gs.seen.first(player, now) {
		return nil
	}
	if err := gs.db.Seen(ctx, player, now); err != nil {
		gs.seen.forget(player)
		return err
	}
	return nil
}
