package arlweb

import (
	"fmt"
	"net/http"

	"cardtable/arlington"
	"cardtable/internal/web"
)

// previewRequest is a group of cards, and optionally the table at which
// the requester is choosing them: then the answer says what they would do
// there, in the phase of play.
type previewRequest struct {
	Cards arlington.Cards `json:"cards"`
	Table string          `json:"table,omitempty"`
}

// preview is what a group of cards would be as a set: legal, its spectra,
// its points (the engine's set functions); with a table, also what the
// selection would do in the requester's seat now (the engine's
// SelectionWords, from that seat's own view).
func (h *Handlers) preview(w http.ResponseWriter, r *http.Request) error {
	var req previewRequest
	if err := web.ReadJSON(w, r, &req, 1<<10); err != nil {
		return err
	}
	if len(req.Cards) > 54 {
		return fmt.Errorf("%w: more cards than a deck", web.ErrBadRequest)
	}
	set, err := arlington.SetOf(req.Cards)
	if err != nil {
		return fmt.Errorf("%w: %v", web.ErrBadRequest, err)
	}
	ans := previewAnswer{SetInfo: arlington.AnalyzeSet(set), Why: arlington.WhyNotSet(set), As: []spectrumAs{}}
	for _, sp := range ans.Spectra {
		ans.As = append(ans.As, spectrumAs{sp, arlington.SpectrumWords(sp), arlington.PointsIn(set, sp)})
	}
	if req.Table != "" {
		t, err := h.hub.Table(req.Table)
		if err != nil {
			return err
		}
		v, err := t.View(r.Context(), web.Player(r))
		if err != nil {
			return err
		}
		ans.Say = arlington.SelectionWords(v, set)
	}
	web.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// previewAnswer is the engine's analysis of a group of cards, with why it
// is not a set (the rule it breaks) and, for a set, what it is in each
// spectrum it fits: the player chooses among them when leading it. Say,
// asked at a table, is what the player needs to know instead in the
// phase of play (a card in a trick is no set), "" when the analysis is it.
type previewAnswer struct {
	arlington.SetInfo
	Why string       `json:"why,omitempty"`
	Say string       `json:"say,omitempty"`
	As  []spectrumAs `json:"as"`
}

type spectrumAs struct {
	Spectrum arlington.Spectrum `json:"spectrum"`
	Words    string             `json:"words"`
	Points   int                `json:"points"`
}
