package arlweb

import (
	"fmt"
	"net/http"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// previewRequest is a group of cards.
type previewRequest struct {
	Cards arlington.Cards `json:"cards"`
}

// preview is what a group of cards would be as a set: legal, its spectra,
// its points (the engine's set functions).
func (h *Handlers) preview(w http.ResponseWriter, r *http.Request) error {
	_, ans, err := readPreview(w, r)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// tablePreview is preview at a table the requester sits at, with what
// the cards would do in their seat now (the engine's SelectionWords, from
// that seat's own view). The table is in the path, so that a table on
// another server is forwarded there (forward.go) like its other routes.
func (h *Handlers) tablePreview(w http.ResponseWriter, r *http.Request) error {
	set, ans, err := readPreview(w, r)
	if err != nil {
		return err
	}
	t, v, err := h.seatView(r)
	if err != nil {
		return err
	}
	ans.Say = arlington.SelectionWords(v, set, table.SeatNames(t.Summary().Seats))
	web.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// readPreview reads a previewRequest and answers what its cards are as a
// set.
func readPreview(w http.ResponseWriter, r *http.Request) (arlington.Set, previewAnswer, error) {
	var req previewRequest
	if err := web.ReadJSON(w, r, &req, 1<<10); err != nil {
		return 0, previewAnswer{}, err
	}
	if len(req.Cards) > 54 {
		return 0, previewAnswer{}, fmt.Errorf("%w: more cards than a deck", web.ErrBadRequest)
	}
	set, err := arlington.SetOf(req.Cards)
	if err != nil {
		return 0, previewAnswer{}, fmt.Errorf("%w: %v", web.ErrBadRequest, err)
	}
	ans := previewAnswer{SetInfo: arlington.AnalyzeSet(set), Why: arlington.WhyNotSet(set), As: []spectrumAs{}}
	for _, sp := range ans.Spectra {
		ans.As = append(ans.As, spectrumAs{sp, arlington.SpectrumWords(sp), arlington.PointsIn(set, sp)})
	}
	return set, ans, nil
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
