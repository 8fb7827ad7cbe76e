package table

import (
	"context"
	"fmt"
	"time"
)

// GamesPage is how many finished games Games gives at most.
const GamesPage = 50

// Game is one finished game of a player, as their list shows it: no
// identity, nothing hidden (the game is over).
type Game struct {
	ID      string    `json:"id"`
	Ended   time.Time `json:"ended"`
	Target  int       `json:"target"`
	Seat    int       `json:"seat"`  // the player's seat
	Names   []string  `json:"names"` // each seat's name (SeatNames)
	Totals  []int     `json:"totals"`
	Winners []int     `json:"winners"`
}

// Games is player's finished games, the latest first, at most GamesPage:
// each replayed from the store for its scores. A stored table that cannot
// be replayed is left out, and reported once (Hub.unreadable).
func (h *Hub) Games(ctx context.Context, player string) ([]Game, error) {
	if err := checkID(player); err != nil {
		return nil, err
	}
	stored, err := h.o.Store.PlayerTables(ctx, player, GamesPage)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	out := make([]Game, 0, len(stored))
	for _, s := range stored {
		cfg, st, err := h.replay(s)
		if err != nil {
			h.unreadable(s.ID, "left out of its players' lists of games", err)
			continue
		}
		g := Game{ID: s.ID, Ended: s.Updated, Target: cfg.Target, Seat: -1,
			Totals: st.Totals(), Winners: st.Winners(), Names: storedNames(s, cfg)}
		for i, seat := range s.Seats {
			if seat.Player == player && !seat.Reserved {
				g.Seat = i
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// Names is the names of table id's seats (SeatNames: people by name, bots
// by seat and level): the live table's, or the stored ones once the table
// has left the hub (a finished game after a restart), so that a replay
// names the players however long ago the game ended.
func (h *Hub) Names(ctx context.Context, id string) ([]string, error) {
	if t, err := h.Table(id); err == nil {
		return SeatNames(t.Summary().Seats), nil
	}
	s, err := h.o.Store.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	cfg, err := h.storedConfig(s)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	return storedNames(s, cfg), nil
}

// storedNames is the seats' names of a stored table whose config is cfg.
func storedNames(s Stored, cfg Config) []string {
	infos := make([]SeatInfo, len(s.Seats))
	for i, seat := range s.Seats {
		infos[i] = SeatInfo{Seat: i, Bot: cfg.Bots[i], Name: seat.Name}
	}
	return SeatNames(infos)
}
