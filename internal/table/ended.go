package table

import (
	"context"
	"errors"
	"fmt"

	"cardtable/arlington"
)

// Ended is a finished game's result as the page of its table shows it
// once the table is no longer live (the server restarted, or it closed
// idle after its end): nothing hidden, since the game is over, and no
// seed (the record has it).
type Ended struct {
	ID      string               `json:"id"`
	Players int                  `json:"players"`
	Target  int                  `json:"target"`
	Names   []string             `json:"names"` // each seat's (SeatNames)
	Totals  []int                `json:"totals"`
	Winners []int                `json:"winners"`
	Results []arlington.HandView `json:"results"` // each hand's scores and sets
	// Seat is the requester's seat there (-1: none), and Name the name
	// they played under, which a rematch seats them under.
	Seat int    `json:"seat"`
	Name string `json:"name,omitempty"`
	// Rematch is the id of the table where its seats play again, once
	// someone asked for it (RematchFrom).
	Rematch string `json:"rematch,omitempty"`
}

// EndedGame is table id's finished game, from the store, for player: the
// result of a game that reached its end (ErrNotOver for one that closed
// before its end, or goes on on another server; ErrNotFound for no
// such table).
func (h *Hub) EndedGame(ctx context.Context, id, player string) (Ended, error) {
	s, cfg, st, err := h.storedGame(ctx, id)
	if err != nil {
		return Ended{}, err
	}
	if !st.Terminal() {
		return Ended{}, fmt.Errorf("%w: table %s has no result", ErrNotOver, id)
	}
	e := Ended{ID: id, Players: cfg.Players, Target: cfg.Target, Names: storedNames(s, cfg),
		Totals: st.Totals(), Winners: st.Winners(), Results: st.View(-1).Results, Seat: storedSeatOf(s, player)}
	if e.Seat >= 0 {
		e.Name = s.Seats[e.Seat].Name
	}
	re := rematchID(id)
	if _, err := h.Table(re); err == nil {
		e.Rematch = re
	} else if _, err := h.o.Store.LoadTable(ctx, re); err == nil {
		e.Rematch = re
	}
	return e, nil
}

// storedGame is the stored table id with its settings and its game
// replayed. A table the store does not have is ErrNotFound; one it
// cannot replay wraps ErrDamaged (a server fault).
func (h *Hub) storedGame(ctx context.Context, id string) (Stored, Config, *arlington.State, error) {
	s, err := h.o.Store.LoadTable(ctx, id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Stored{}, Config{}, nil, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		return Stored{}, Config{}, nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	cfg, st, err := h.replay(s)
	if err != nil {
		return Stored{}, Config{}, nil, fmt.Errorf("table %s: %w", id, err)
	}
	return s, cfg, st, nil
}
