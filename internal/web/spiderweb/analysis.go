package spiderweb

// The analysis of a game that is over (docs/analysis.md "The
// page"): where it was lost, and a winning line from there. It reads the
// hidden cards, so it is only for games that are won, stuck or given up.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"cardtable/internal/spidergame"
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
	// TimeLimit is the analysis's total time limit, which the page names
	// when the answer is left open by it (0: none).
	TimeLimit time.Duration
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
	LineText []string `json:"lineText"`
	Complete bool     `json:"complete"`
	// Exact: the last winnable point is proven winnable and the next one
	// proven lost (or the game's edge). Otherwise Band is the points left
	// unknown between them.
	Exact bool          `json:"exact"`
	Band  *analysisBand `json:"band"`
	// LimitSeconds is the time limit that left the band open, when it
	// was the time limit.
	LimitSeconds float64       `json:"limitSeconds,omitempty"`
	StoppedBy    string        `json:"stoppedBy,omitempty"`
	Steps        []spider.View `json:"steps"`
}

// analysisBand is the points left unknown, From to To.
type analysisBand struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// sureness is how sure an analysis of results is (solver.Analysis.Exact
// and Band, said of the web's results): exact when the last winnable
// point k is next to the first lost one (the opening lost when k is -1,
// the end winnable when none is lost), otherwise the band between them.
func sureness(results []string, k int) (bool, *analysisBand) {
	lost := len(results)
	for i, r := range results {
		if r == "lost" {
			lost = i
			break
		}
	}
	if lost == k+1 {
		return true, nil
	}
	return false, &analysisBand{From: k + 1, To: lost - 1}
}

// analysisStart reads an analysis request and takes the server's one
// analysis slot (analysisSlot), before anything changes; the caller calls
// release when done.
func (s *Handlers) analysisStart(w http.ResponseWriter, r *http.Request) (req analysisRequest, release func(), err error) {
	if err := decodeJSON(w, r, &req, true); err != nil {
		return req, nil, err
	}
	release, err = s.analysisSlot(w, r)
	return req, release, err
}

func (s *Handlers) analysis(w http.ResponseWriter, r *http.Request) error {
	req, release, err := s.analysisStart(w, r)
	if err != nil {
		return err
	}
	defer release()
	g, game, err := s.games.GiveUp(r.Context(), web.Player(r), r.PathValue("id"), req.GiveUp)
	if err != nil {
		return err
	}
	return s.analyse(w, r, g, response(game), http.StatusOK)
}

// analyseSave analyses a named save (docs/api.md): the save opened as a
// new game, given up unless it is won (with giveUp when it is still in
// play), and that game's analysis. The save stays as it is.
func (s *Handlers) analyseSave(w http.ResponseWriter, r *http.Request) error {
	req, release, err := s.analysisStart(w, r)
	if err != nil {
		return err
	}
	defer release()
	rec, g, err := s.loadSave(r)
	if err != nil {
		return err
	}
	if over, _ := g.Outcome(); !over && !req.GiveUp {
		return spidergame.ErrInPlay
	}
	// The service owns g once started: the analysis works on a copy.
	c := g.Clone()
	started, err := s.add(r, g, rec.Lineage, rec.Played, true)
	if err != nil {
		return err
	}
	game := response(started)
	if err := s.analyse(w, r, c, game, http.StatusCreated); err != nil {
		// The new game is stored and the game shown left: the refusal
		// names it, so the page can show it and analyse it again.
		return &openedError{err, game}
	}
	return nil
}

// openedError is the failure of a request that opened a game before it
// failed (a save's analysis): the answer carries that game ("game", as
// docs/api.md says), so the client does not lose it.
type openedError struct {
	err  error
	game gameResponse
}

func (e *openedError) Error() string { return e.err.Error() }
func (e *openedError) Unwrap() error { return e.err }

// writeOpened answers err, of the request that opened game, as the web
// layer answers any error, with the game added.
func writeOpened(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error, game gameResponse) {
	c := &captured{header: http.Header{}, code: http.StatusOK}
	web.WriteError(c, r, log, err)
	var body struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(c.body.Bytes(), &body) != nil {
		body.Error = "internal error"
	}
	for k, v := range c.header {
		w.Header()[k] = v
	}
	web.WriteJSON(w, c.code, struct {
		Error string       `json:"error"`
		Game  gameResponse `json:"game"`
	}{body.Error, game})
}

// captured is an answer kept in memory (writeOpened).
type captured struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (c *captured) Header() http.Header         { return c.header }
func (c *captured) Write(b []byte) (int, error) { return c.body.Write(b) }
func (c *captured) WriteHeader(code int)        { c.code = code }

// analysisSlot takes the server's one analysis slot for r's address, or
// refuses with 503 and Retry-After (analysisTurns); the caller calls
// release when done. It is taken before anything changes, so a refusal
// changes nothing. 501 without an analyser.
func (s *Handlers) analysisSlot(w http.ResponseWriter, r *http.Request) (release func(), err error) {
	if s.opts.Analyze == nil {
		return nil, web.Errorf(web.ErrNotImplemented, "the analysis needs the solver, which this server does not have")
	}
	// One analysis at a time on the whole server: each is seconds of a
	// core.
	taken, running := s.analyses.take(web.AddrKey(r), s.now())
	if taken {
		return func() { s.analyses.release(s.now()) }, nil
	}
	w.Header().Set("Retry-After", fmt.Sprint(analysisRetry))
	// Said as it is: the page tells this refusal from the other 503s (a
	// database replaced, a save that kept meeting changes) by its first
	// words, "another analysis".
	msg := fmt.Sprintf("another analysis is running on the server: try again in %d s", analysisRetry)
	if !running {
		msg = fmt.Sprintf("another analysis is waiting its turn on the server: try again in %d s", analysisRetry)
	}
	return nil, web.Busy(web.Public(web.Errorf(web.ErrUnavailable, "%s", msg), msg))
}

// analyse analyses g, a copy of the game game is the answer about, and
// answers with code.
func (s *Handlers) analyse(w http.ResponseWriter, r *http.Request, g *spider.Game, game gameResponse, code int) error {
	a, err := s.opts.Analyze(r.Context(), g)
	if err != nil {
		return err
	}
	resp, err := analysisAnswer(g, a)
	if err != nil {
		return err
	}
	resp.Game = game
	web.WriteJSON(w, code, resp)
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
	resp.Exact, resp.Band = sureness(a.Results, a.LastWinnable)
	if !resp.Exact && a.StoppedBy == "time" && a.TimeLimit > 0 {
		resp.LimitSeconds = a.TimeLimit.Seconds()
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
