package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cardtable/arlington"
)

// Tables rebuilt from the store: when a hub starts (restoreAll), when it
// claims a table another server gave up (claims.go), and for the record
// and the scores of a game no longer live (Record, games.go). A game is
// never stored whole: it is its seed and its moves, replayed.

// restoreAll starts every open table of the store, when this hub is the
// only one on it (no Claims). A table that cannot be restored is logged
// and left in the store; only failing to read the store is an error.
func (h *Hub) restoreAll(ctx context.Context) error {
	stored, err := h.o.Store.OpenTables(ctx)
	if err != nil {
		return fmt.Errorf("table: restoring: %w", err)
	}
	for _, s := range stored {
		if err := h.startStored(s); err != nil {
			h.unreadable(s.ID, "not restored (left in the store)", err)
		}
	}
	return nil
}

// startStored restores a stored table and starts it, or says why it
// cannot (the table is then left in the store as it is).
func (h *Hub) startStored(s Stored) error {
	t, err := h.restore(s)
	if err != nil {
		return err
	}
	h.start(t)
	return nil
}

// restore rebuilds a stored table.
func (h *Hub) restore(s Stored) (*Table, error) {
	cfg, st, err := h.replay(s)
	if err != nil {
		return nil, err
	}
	t := newTable(h, s, cfg, st)
	if len(s.Moves) > 0 && !st.Terminal() {
		t.l.resumed.key = [2]int{st.ToMove(), st.EventCount()}
		t.l.resumed.at = s.Updated
	}
	return t, nil
}

// replay rebuilds a stored table's game by replaying its moves from its
// seed: the same deals, the same event numbers. Its errors wrap
// ErrDamaged.
func (h *Hub) replay(s Stored) (Config, *arlington.State, error) {
	cfg, err := h.storedConfig(s)
	if err != nil {
		return cfg, nil, err
	}
	st, err := arlington.New(arlington.Config{Players: cfg.Players, Target: cfg.Target}, s.Seed)
	if err != nil {
		return cfg, nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	for i, m := range s.Moves {
		a, err := arlington.ParseAction(m.Action)
		if err != nil {
			return cfg, nil, fmt.Errorf("%w: move %d: %w", ErrDamaged, i, err)
		}
		if err := st.Apply(m.Seat, a); err != nil {
			return cfg, nil, fmt.Errorf("%w: move %d (%d %v): %w", ErrDamaged, i, m.Seat, a, err)
		}
	}
	return cfg, st, nil
}

// storedConfig is a stored table's config, checked against its seats. Its
// errors wrap ErrDamaged: a config the server stored and now refuses is
// not the requester's bad settings.
func (h *Hub) storedConfig(s Stored) (Config, error) {
	var cfg Config
	if err := json.Unmarshal([]byte(s.Config), &cfg); err != nil {
		return cfg, fmt.Errorf("%w: config: %w", ErrDamaged, err)
	}
	cfg, err := cfg.normalize(h.validLevel)
	if err != nil {
		return cfg, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	if len(s.Seats) != cfg.Players {
		return cfg, fmt.Errorf("%w: %d seats stored for %d players", ErrDamaged, len(s.Seats), cfg.Players)
	}
	return cfg, nil
}

// Record is table id's game in the engine's record text, live or stored.
// The seed is in it only once the game is over (or the table was closed
// before the end, when no one can play it on); before, its seed line is
// a comment saying so, and arlington.Load refuses the text.
func (h *Hub) Record(ctx context.Context, id string) (string, error) {
	if t, err := h.Table(id); err == nil {
		var rec string
		err := t.do(ctx, func(l *loop) error {
			rec = recordText(l.st.Record(), l.st.Terminal())
			return nil
		})
		if err == nil {
			return rec, nil
		}
		if !errors.Is(err, ErrClosed) {
			return "", err
		}
	}
	s, err := h.o.Store.LoadTable(ctx, id)
	if err != nil {
		return "", err
	}
	_, st, err := h.replay(s)
	if err != nil {
		return "", fmt.Errorf("table %s: %w", id, err)
	}
	return recordText(st.Record(), s.Status != StatusOpen || st.Terminal()), nil
}

// recordText is r in the engine's format, with the seed line withheld
// unless withSeed.
func recordText(r arlington.Record, withSeed bool) string {
	text := r.String()
	if withSeed {
		return text
	}
	line := fmt.Sprintf("seed %d\n", r.Seed)
	return strings.Replace(text, line, "# seed withheld until the game is over\n", 1)
}
