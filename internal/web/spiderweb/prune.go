package spiderweb

import (
	"context"
	"time"
)

// Game retention (docs/api.md, "Storage"): a game nobody has changed for
// pruneIdle is deleted, and one with no move played after pruneUnplayed.
// Named saves and statistics are never pruned.
const (
	pruneIdle     = 90 * 24 * time.Hour
	pruneUnplayed = 24 * time.Hour
	pruneEvery    = time.Hour
)

// Prune deletes the games past their retention and returns how many.
func (s *Handlers) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	return s.db.PruneGames(ctx, now.Add(-pruneIdle), now.Add(-pruneUnplayed))
}

// RunPruner prunes now and then every pruneEvery, until ctx ends: it
// returns then (its only exit). Failures are logged and tried again at the
// next round.
func (s *Handlers) RunPruner(ctx context.Context) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		n, err := s.Prune(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			s.log.WarnContext(ctx, "pruning old games", "err", err)
		case n > 0:
			s.log.InfoContext(ctx, "pruned old games", "games", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
