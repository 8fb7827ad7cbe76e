package arlweb

// The hint: the action the hard bot would take in the player's seat.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// HintBot is the level whose choice a hint shows (the hard bot; the
// wiring makes it, Options.Hint).
const HintBot = "hard"

// hintTime bounds a hint's wait for a slot and its search unless
// Options.HintTime says otherwise.
const hintTime = 2 * time.Second

// hintSlots bounds the hints searching at once: each searches on several
// goroutines, and the players' tables come first.
var hintSlots = make(chan struct{}, 2)

type hintAnswer struct {
	Action string `json:"action"`
	Words  string `json:"words"` // the action as its button names it
	Bot    string `json:"bot"`
}

// seatView is the table in r's path and the requester's own view of it
// (never another seat's).
func (h *Handlers) seatView(r *http.Request) (*table.Table, arlington.View, error) {
	t, err := h.hub.Table(r.PathValue("id"))
	if err != nil {
		return nil, arlington.View{}, err
	}
	v, err := t.View(r.Context(), web.Player(r))
	return t, v, err
}

// hint answers the action the hard bot would take in the player's seat,
// decided from that seat's own view (never another hand).
func (h *Handlers) hint(w http.ResponseWriter, r *http.Request) error {
	if h.newHint == nil {
		return web.Errorf(web.ErrNotImplemented, "hints need a bot, which this server does not have")
	}
	t, v, err := h.seatView(r)
	if err != nil {
		return err
	}
	if v.ToMove < 0 {
		return table.ErrOver
	}
	if v.ToMove != v.Seat {
		// Words the page shows as they are: the seat counted from 1, as
		// the page does.
		return web.Errorf(web.ErrConflict, "a hint is for your turn; it is seat %d's turn", v.ToMove+1)
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.hintTime)
	defer cancel()
	release, err := hintTurn(r.Context(), ctx)
	if err != nil {
		return err
	}
	defer release()
	b, err := h.newHint(rand.Uint64())
	if err != nil {
		return err
	}
	a, err := b.Act(ctx, v)
	if err != nil {
		// The bot's own error goes to the log, not to the player.
		err = web.Public(fmt.Errorf("%w: no hint: %w", web.ErrUnavailable, err), "no hint could be found; try again")
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			// Out of its time, the wait for a turn included: the
			// machine's load, logged as a refusal for it
			// (docs/hosting.md "Logs"). Any other error of the bot's
			// is a fault.
			err = web.Busy(err)
		}
		return err
	}
	web.WriteJSON(w, http.StatusOK, hintAnswer{Action: a.String(), Words: arlington.ActionWords(v, a, table.SeatNames(t.Summary().Seats)), Bot: HintBot})
	return nil
}

// hintTurn takes one of hintSlots within ctx, the hint's time, derived
// from rctx, the request's. Refused, its error tells a client gone (rctx
// ended while waiting) from hints busy, a refusal for load: each is
// logged as such (web.EventLog.Fault).
func hintTurn(rctx, ctx context.Context) (release func(), err error) {
	select {
	case hintSlots <- struct{}{}:
		return func() { <-hintSlots }, nil
	case <-ctx.Done():
		if err := rctx.Err(); err != nil {
			return nil, fmt.Errorf("waiting for a hint's turn: %w", err)
		}
		// The player reads these words alone: the class is in the
		// status and the log.
		return nil, web.Busy(web.Public(web.Errorf(web.ErrUnavailable, "hints are busy"), "hints are busy; try again in a moment"))
	}
}
