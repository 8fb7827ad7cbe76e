package spidergame

import (
	"context"
	"fmt"
	"time"
)

// Game retention (docs/api.md, "Storage"): a game nobody has changed for
// PruneIdle is deleted, and one with no move played after PruneUnplayed.
// Everything an identity stored (named saves and statistics too) goes
// once the identity is unseen for Options.Forget plus ForgetMargin.
const (
	PruneIdle     = 90 * 24 * time.Hour
	PruneUnplayed = 24 * time.Hour
	pruneEvery    = time.Hour
)

// Prune deletes what identities unseen for Options.Forget plus
// ForgetMargin stored, then the games past their retention, and returns
// how many games the latter were.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	if s.forget > 0 {
		n, err := s.db.PruneUnseen(ctx, now.Add(-s.forget-ForgetMargin))
		if err != nil {
			return 0, fmt.Errorf("forgetting unseen players: %w", err)
		}
		if n > 0 {
			s.log.InfoContext(ctx, "forgot players unseen for the identity cookie's life", "players", n)
		}
	}
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
