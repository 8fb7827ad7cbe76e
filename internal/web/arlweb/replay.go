package arlweb

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"cardtable/arlington"
	"cardtable/internal/web"
)

// ReplayPage is the most steps one replay answer holds: a game to a high
// target has thousands of moves, so the page fetches the replay in pages
// as the player steps through it.
const ReplayPage = 100

// replayStep is the game after one step: the deal, or one action with
// what followed from it (a trick taken, a hand scored, the next deal).
// The game is over, so its record with the seed is public: every hand is
// shown.
type replayStep struct {
	N      int                    `json:"n"`
	Hand   int                    `json:"hand"`
	Seat   int                    `json:"seat"`   // who acted; -1 for a deal
	Action string                 `json:"action"` // the action's notation; "" for a deal
	Words  []string               `json:"words"`  // the step's public events in words
	Hands  []arlington.Cards      `json:"hands"`
	Tables [][]arlington.TableSet `json:"tables"`
	Trick  []arlington.TrickCard  `json:"trick"` // as it lay; a trick taken in this step is shown complete
	Totals []int                  `json:"totals"`
	ToMove int                    `json:"toMove"`
	Sheet  []arlington.HandView   `json:"sheet,omitempty"` // the hands scored so far, on the steps that score one
}

type replayAnswer struct {
	Names   []string     `json:"names"`
	Target  int          `json:"target"`
	Steps   int          `json:"steps"` // in the whole game: the deal and one per move
	From    int          `json:"from"`
	Page    []replayStep `json:"page"`
	Totals  []int        `json:"totals"`
	Winners []int        `json:"winners"`
}

// replay answers the finished game's steps from ?from= (0 by default),
// at most ReplayPage of them. Before the game is over it is refused: the
// record's seed, and so every hand, is secret until then.
func (h *Handlers) replay(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	from := 0
	if f := r.URL.Query().Get("from"); f != "" {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: from must be a step number, not %q", web.ErrBadRequest, f)
		}
		from = n
	}
	text, err := h.hub.Record(r.Context(), id)
	if err != nil {
		return err
	}
	if !strings.Contains(text, "\nseed ") {
		return fmt.Errorf("%w: the replay opens once the game is over", web.ErrConflict)
	}
	rec, end, err := arlington.Load(strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("table %s: its record: %w", id, err)
	}
	// The players' names (bots by level), also once the table has left
	// the hub: the games page replays games from long ago.
	names, err := h.hub.Names(r.Context(), id)
	if err != nil {
		return err
	}
	if len(names) != rec.Config.Players {
		return fmt.Errorf("table %s: %d names for %d players", id, len(names), rec.Config.Players)
	}
	page, err := replaySteps(rec, names, from, ReplayPage)
	if err != nil {
		return fmt.Errorf("table %s: %w", id, err)
	}
	web.WriteJSON(w, http.StatusOK, replayAnswer{Names: names, Target: rec.Config.Target, Steps: len(rec.Moves) + 1,
		From: from, Page: page, Totals: end.Totals(), Winners: end.Winners()})
	return nil
}

// replaySteps plays rec from its start and keeps steps from..from+n-1.
// Every step is told (the narrator needs them all), only those are kept.
func replaySteps(rec arlington.Record, names []string, from, n int) ([]replayStep, error) {
	st, err := arlington.New(rec.Config, rec.Seed)
	if err != nil {
		return nil, err
	}
	nar := arlington.NewNarrator(names)
	page := []replayStep{}
	step := func(i, seat int, a string, trick []arlington.TrickCard) {
		var words []string
		scored := false
		for _, e := range st.Events(nar.Told()) {
			words = append(words, nar.Tell(e))
			scored = scored || e.Kind == arlington.EventScore
		}
		if i < from || i >= from+n {
			return
		}
		v := st.View(-1)
		s := replayStep{N: i, Hand: v.HandNumber, Seat: seat, Action: a, Words: words, Hands: make([]arlington.Cards, st.Players()),
			Tables: v.Tables, Trick: trick, Totals: v.Totals, ToMove: v.ToMove}
		if s.Trick == nil {
			s.Trick = v.Trick
		}
		for k := range s.Hands {
			s.Hands[k] = arlington.Cards(st.Hand(k).Cards())
		}
		if scored {
			s.Sheet = v.Results
		}
		page = append(page, s)
	}
	step(0, -1, "", nil)
	for i, m := range rec.Moves {
		if i+1 >= from+n {
			break
		}
		var before []arlington.TrickCard
		for _, p := range st.Trick() {
			before = append(before, arlington.TrickCard(p))
		}
		count := st.EventCount()
		if err := st.Apply(m.Seat, m.Action); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		// A trick taken in this step is shown as it lay, complete.
		var trick []arlington.TrickCard
		for _, e := range st.Events(count) {
			if e.Kind == arlington.EventTake {
				trick = append(before, arlington.TrickCard{Seat: m.Seat, Card: m.Action.Card})
				break
			}
		}
		step(i+1, m.Seat, m.Action.String(), trick)
	}
	return page, nil
}
