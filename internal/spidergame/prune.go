package spidergame

import (
	"context"
	"errors"
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

// Prune deletes the games past their retention, then what identities
// unseen for Options.Forget plus ForgetMargin stored, and returns how many
// games the former were. The games go first, so that a long backlog of
// identities to forget, or a failure forgetting them, never holds back
// the games' own retention.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	n, err := s.db.PruneGames(ctx, now.Add(-PruneIdle), now.Add(-PruneUnplayed))
	if err != nil {
		err = fmt.Errorf("pruning old games: %w", err)
	}
	if s.forget > 0 {
		forgot, ferr := s.db.PruneUnseen(ctx, now, s.forget+ForgetMargin)
		if ferr != nil {
			err = errors.Join(err, fmt.Errorf("forgetting unseen players: %w", ferr))
		}
		if forgot > 0 {
			s.log.InfoContext(ctx, "forgot players unseen for the identity cookie's life", "players", forgot)
		}
	}
	return n, err
}

// RunPruner prunes now and then every pruneEvery, until ctx ends: it
// returns then (its only exit). Failures are logged and tried again at the
// next round.
func (s *Service) RunPruner(ctx context.Context) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		n, err := s.Prune(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.log.WarnContext(ctx, "pruning", "err", err)
		}
		if n > 0 {
			s.log.InfoContext(ctx, "pruned old games", "games", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
