package spiderweb

// The analysis of a game that is over (issue 24, docs/analysis.md "The
// page"): where it was lost, and a winning line from there. It reads the
// hidden cards, so it is only for games that are won, stuck or given up.

import (
	"context"
	"fmt"
	"net/http"

	"cardtable/internal/web"
	"cardtable/spider"
)

// Analysis is what Options.Analyze finds (solver.Analyze, in the web's
// terms): Results[k] is "winnable", "lost" or "unknown" for the position
// after the game's first k moves, from 0 (the opening) to the game's
// moves played; LastWinnable the largest winnable k (-1: none); Line a
// winning line from that point (empty when the game is won or none is
// winnable).
type Analysis struct {
	Results      []string
	LastWinnable int
	Line         []spider.Move
	Complete     bool
	// StoppedBy names the total limit that cut the analysis short
	// ("time", "nodes", "cancelled"), "" when none did.
	StoppedBy string
}

// analysisRetry is the Retry-After, in seconds, of a request refused
// because another analysis is running: about an analysis's typical time.
const analysisRetry = 10

type analysisRequest struct {
	// GiveUp ends a game still in play: it counts as lost, and no further
	// command is accepted on it. Without it a game in play is refused.
	GiveUp bool `json:"giveUp"`
}

type analysisPoint struct {
	Move   int    `json:"move"`
	Result string `json:"result"`
}

// analysisResponse is the answer: the game as it now stands (over), the
// analysis, and the steps of the line: Steps[0] is the position after
// LastWinnable moves and Steps[i] the one after the line's first i moves,
// every card shown (the game is over).
type analysisResponse struct {
	Game         gameResponse    `json:"game"`
	Moves        int             `json:"moves"`
	Points       []analysisPoint `json:"points"`
	LastWinnable *int            `json:"lastWinnable"`
	Line         []string        `json:"line"`
	// LineText says each move of Line in words, as a hint does.
	LineText  []string      `json:"lineText"`
	Complete  bool          `json:"complete"`
	StoppedBy string        `json:"stoppedBy,omitempty"`
	Steps     []spider.View `json:"steps"`
}

func (s *Handlers) analysis(w http.ResponseWriter, r *http.Request) error {
	var req analysisRequest
	if err := decodeJSON(w, r, &req, true); err != nil {
		return err
	}
	if s.opts.Analyze == nil {
		return web.Errorf(web.ErrNotImplemented, "the analysis needs the solver, which this server does not have")
	}
	// One analysis at a time on the whole server: each is seconds of a
	// core. Taken before the game is given up, so a refusal changes nothing.
	select {
	case s.analyses <- struct{}{}:
		defer func() { <-s.analyses }()
	default:
		w.Header().Set("Retry-After", fmt.Sprint(analysisRetry))
		return web.Errorf(web.ErrUnavailable, "another analysis is running: try again in %d s", analysisRetry)
	}
	g, game, err := s.games.giveUp(r.Context(), web.Player(r), r.PathValue("id"), req.GiveUp)
	if err != nil {
		return err
	}
	a, err := s.opts.Analyze(r.Context(), g)
	if err != nil {
		return err
	}
	resp, err := analysisAnswer(g, a)
	if err != nil {
		return err
	}
	resp.Game = game
	web.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// analysisAnswer turns a into the answer, replaying its line on a copy of
// g taken back to the last winnable point for the steps.
func analysisAnswer(g *spider.Game, a *Analysis) (analysisResponse, error) {
	n := g.MovesPlayed()
	if len(a.Results) != n+1 {
		return analysisResponse{}, fmt.Errorf("analysis of %d points for a game of %d moves", len(a.Results), n)
	}
	resp := analysisResponse{Moves: n, Points: make([]analysisPoint, n+1), Line: []string{}, LineText: []string{},
		Complete: a.Complete, StoppedBy: a.StoppedBy, Steps: []spider.View{}}
	for k, res := range a.Results {
		resp.Points[k] = analysisPoint{Move: k, Result: res}
	}
	k := a.LastWinnable
	if k < 0 || k > n {
		return resp, nil
	}
	resp.LastWinnable = &k
	c := g.Clone()
	for c.MovesPlayed() > k {
		if err := c.Undo(); err != nil {
			return resp, fmt.Errorf("taking the game back to move %d: %v", k, err)
		}
	}
	resp.Steps = append(resp.Steps, c.View(true))
	for _, m := range a.Line {
		// The line is the solver's: a move it cannot replay is a server
		// fault, not the player's (no %w).
		text := describe(c.Pos(), m)
		if err := c.Play(m); err != nil {
			return resp, fmt.Errorf("analysis line from move %d: %v: %v", k, m, err)
		}
		resp.Line = append(resp.Line, m.String())
		resp.LineText = append(resp.LineText, text)
		resp.Steps = append(resp.Steps, c.View(true))
	}
	return resp, nil
}

// errGivenUp refuses a command on a game the player gave up.
var errGivenUp = web.Errorf(web.ErrConflict, "this game was given up for its analysis: it takes no more moves; start a new game (the New game dialog takes its deal number to play it again)")

// giveUp readies player's game id for its analysis: it must be over (won
// or stuck) or, with giveUp, is given up now (counted as lost, and closed
// to commands). It returns a copy of the game and the answer about it.
func (gs *games) giveUp(ctx context.Context, player, id string, giveUp bool) (*spider.Game, gameResponse, error) {
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return nil, gameResponse{}, err
	}
	defer e.mu.Unlock()
	if over, _ := e.g.Outcome(); !over && !e.gaveUp {
		if !giveUp {
			return nil, gameResponse{}, web.Errorf(web.ErrConflict,
				"this game is still in play: the analysis uses the hidden cards, so it is only for a game that is over (give it up first)")
		}
		// The loss is stored before the game closes: if it cannot be, the
		// game stays in play.
		if err := gs.db.RecordResult(context.WithoutCancel(ctx), player, result(e, false, gs.now(), e.played)); err != nil {
			return nil, gameResponse{}, err
		}
		e.gaveUp = true
	}
	return e.g.Clone(), view(e, gs.now()), nil
}
