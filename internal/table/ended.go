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
	// someone asked for it (RematchFrom), while it is open to join.
	// RematchClosed says it was made and has closed since (idle, or its
	// game over): nobody can join it, and no second rematch is made, so
	// the page sends its players to the lobby for a new table.
	Rematch       string `json:"rematch,omitempty"`
	RematchClosed bool   `json:"rematchClosed,omitempty"`
}

// EndedGame is table id's finished game, from the store, for player: the
// result of a game that reached its end (ErrNotOver for one that closed
// before its end, or goes on on another server; ErrNotFound for no
// such table).
//
// A table live here is ErrNotOver before anything is replayed: its page
// has its views, and replaying the game for nothing costs.
func (h *Hub) EndedGame(ctx context.Context, id, player string) (Ended, error) {
	if _, err := h.Table(id); err == nil {
		return Ended{}, fmt.Errorf("%w: table %s is live", ErrNotOver, id)
	}
	s, err := h.stored(ctx, id)
	if err != nil {
		return Ended{}, err
	}
	cfg, st, err := h.replayStored(s)
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
	e.Rematch, e.RematchClosed = h.rematchOf(ctx, id)
	return e, nil
}

// rematchOf is table id's rematch table while it can be joined (live
// here, or open in the store: another server runs it, or it comes back
// at the next start), or closed: it was made and has closed since.
func (h *Hub) rematchOf(ctx context.Context, id string) (open string, closed bool) {
	re := rematchID(id)
	if _, err := h.Table(re); err == nil {
		return re, false
	}
	s, err := h.o.Store.LoadTable(ctx, re)
	switch {
	case err != nil:
		return "", false
	case s.Status == StatusOpen:
		return re, false
	default:
		return "", true
	}
}

// stored is the stored table id, not replayed: ErrNotFound for one the
// store does not have (replayStored replays it).
func (h *Hub) stored(ctx context.Context, id string) (Stored, error) {
	s, err := h.o.Store.LoadTable(ctx, id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Stored{}, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		return Stored{}, fmt.Errorf("%w: %w", ErrStore, err)
	}
	return s, nil
}

// replayStored is stored table s's settings and game, replayed; an error
// wraps ErrDamaged (a server fault).
func (h *Hub) replayStored(s Stored) (Config, *arlington.State, error) {
	cfg, st, err := h.replay(s)
	if err != nil {
		return Config{}, nil, fmt.Errorf("table %s: %w", s.ID, err)
	}
	return cfg, st, nil
}
