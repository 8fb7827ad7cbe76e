package spidergame

import (
	"context"
	"time"
)

// Game retention (docs/api.md, "Storage"): a game nobody has changed for
// PruneIdle is deleted, and one with no move played after PruneUnplayed.
// Named saves and statistics are never pruned.
const (
	PruneIdle     = 90 * 24 * time.Hour
	PruneUnplayed = 24 * time.Hour
	pruneEvery    = time.Hour
)

// Prune deletes the games past their retention and returns how many.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	return s.db.PruneGames(ctx, now.Add(-PruneIdle), now.Add(-PruneUnplayed))
}

// RunPruner prunes now and then every pruneEvery, until ctx ends: it
// returns then (its only exit). Failures are logged and tried again at the
// next round.
func (s *Service) RunPruner(ctx context.Context) {
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
