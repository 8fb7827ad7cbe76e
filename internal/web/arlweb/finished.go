package arlweb

// The routes of a finished game: its result once its table is gone, its
// record, the rematch and the player's list of finished games.

import (
	"errors"
	"fmt"
	"net/http"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// rematched is the rematch answer: the new table and the asker's seat.
type rematched struct {
	created
	Seat int `json:"seat"`
}

// rematch makes (or finds) the table where a finished game's seats play
// again and seats the asker there (table.Hub.RematchFrom): a new one
// counts against the asker's address as a new table does.
func (h *Handlers) rematch(w http.ResponseWriter, r *http.Request) error {
	t, seat, err := h.hub.RematchFrom(r.Context(), r.PathValue("id"), web.Player(r), web.AddrKey(r))
	var there *table.ElsewhereError
	if errors.As(err, &there) {
		// It runs on another server: the asker goes there by its link
		// and takes the seat held for them (seat -1: not seated yet).
		web.WriteJSON(w, http.StatusCreated, rematched{created{table.Summary{ID: there.ID, Status: table.StatusOpen},
			link(there.ID), tableCode(there.ID)}, -1})
		return nil
	}
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusCreated, rematched{h.summary(t), seat})
	return nil
}

// games is the requester's finished games (table.Hub.Games), each with
// its table's link, where the replay opens.
func (h *Handlers) games(w http.ResponseWriter, r *http.Request) error {
	games, err := h.hub.Games(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	type game struct {
		table.Game
		Link string `json:"link"`
	}
	out := make([]game, len(games))
	for i, g := range games {
		out[i] = game{g, link(g.ID)}
	}
	web.WriteJSON(w, http.StatusOK, struct {
		Games []game `json:"games"`
	}{out})
	return nil
}

// endedGame is a finished game's result with its table's link and code.
type endedGame struct {
	table.Ended
	Link string `json:"link"`
	Code string `json:"code"`
}

// ended is the result of a finished game whose table is no longer live
// (table.Hub.EndedGame), for its page: 404 for no such table, 409 for a
// game that did not reach its end.
func (h *Handlers) ended(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	e, err := h.hub.EndedGame(r.Context(), id, web.Player(r))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, endedGame{e, link(id), tableCode(id)})
	return nil
}

func (h *Handlers) record(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	text, err := h.hub.Record(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "arlington-"+safeName(id)+".txt"))
	_, err = w.Write([]byte(text))
	return err
}

// safeName keeps the letters, digits and dashes of an id for a file name.
func safeName(id string) string {
	b := []byte(id)
	out := b[:0]
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			out = append(out, c)
		}
	}
	return string(out)
}
