package spidergame

import (
	"context"
	"errors"

	"cardtable/spider"
)

// GiveUp readies player's game id for its analysis: it must be over (won
// or stuck) or, with giveUp, is given up now. A game not won is closed to
// commands from then on, a stuck one too (it could take moves back and
// play the winning line the analysis shows), and its lineage's loss is
// made final, which closes the lineage's other games too (games opened
// from its saves: forgetLineage); the mark and the loss are stored before
// anything is answered. It returns a copy of the game and the game as it stands.
func (gs *Service) GiveUp(ctx context.Context, player, id string, giveUp bool) (*spider.Game, Snapshot, error) {
	for try := 0; ; try++ {
		e, err := gs.lock(ctx, player, id)
		if err != nil {
			return nil, Snapshot{}, err
		}
		if over, won := e.g.Outcome(); !won && !e.gaveUp {
			if !over && !giveUp {
				e.mu.Unlock()
				return nil, Snapshot{}, ErrInPlay
			}
			now := gs.now()
			// The mark and the loss are stored before the game closes:
			// if they cannot be, the game stays as it was. Stored even if
			// the player leaves meanwhile, within a move's bound (commit).
			wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
			err := gs.db.GiveUp(wctx, player, id, e.version, now, result(e, false, now, e.played))
			cancel()
			if err != nil {
				stale := errors.Is(err, ErrStale)
				if stale {
					gs.drop(e)
				}
				e.mu.Unlock()
				if stale && try < maxRetries {
					continue
				}
				return nil, Snapshot{}, err
			}
			e.version++
			e.gaveUp = true
			c, game := e.g.Clone(), snapshot(e, gs.now())
			e.mu.Unlock()
			// The store closed the lineage's other games with it.
			gs.forgetLineage(e)
			return c, game, nil
		}
		c, game := e.g.Clone(), snapshot(e, gs.now())
		e.mu.Unlock()
		return c, game, nil
	}
}
