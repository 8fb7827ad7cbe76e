package spiderweb

// Help for the player: a hint, where a card is, a pile's cards.

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"cardtable/card"
	"cardtable/internal/web"
	"cardtable/spider"
)

type hintResponse struct {
	Move string `json:"move"`
	Text string `json:"text"`
	// Moves are every useful legal move, best first (ranked): the page
	// shows the next one at each further press of Hint.
	Moves []hintMove `json:"moves"`
}

type hintMove struct {
	Move string `json:"move"`
	Text string `json:"text"`
}

// ranked lists the legal moves of p worth suggesting, best first
// (docs/page.md "Hint"): best (the solver's move), then removals, moves
// onto the next card of the same suit, moves onto another suit's card,
// the whole run into the first space, and the deal; ties by pile.
// It reads only face-up cards and counts, as the player sees them.
func ranked(p *spider.Position, best spider.Move, hasBest bool) []spider.Move {
	var buf [256]spider.Move
	var tiers [5][]spider.Move
	space := -1
	for k := range spider.Piles {
		if p.Len(k) == 0 {
			space = k
			break
		}
	}
	for _, m := range p.Legal(buf[:0]) {
		if p.Null(m) || (hasBest && m == best) {
			continue
		}
		switch {
		case m.Kind == spider.Remove:
			tiers[0] = append(tiers[0], m)
		case m.Kind == spider.Deal:
			tiers[4] = append(tiers[4], m)
		case p.Len(int(m.To)) == 0:
			if int(m.To) == space && int(m.Count) == p.Run(int(m.From)) {
				tiers[3] = append(tiers[3], m)
			}
		case p.Card(int(m.From), p.Len(int(m.From))-int(m.Count)).Suit() == p.Bottom(int(m.To)).Suit():
			tiers[1] = append(tiers[1], m)
		default:
			tiers[2] = append(tiers[2], m)
		}
	}
	var out []spider.Move
	if hasBest {
		out = append(out, best)
	}
	for _, t := range tiers {
		out = append(out, t...)
	}
	return out
}

// hintAnswer is the answer for a hint: the ranked moves, described.
func hintAnswer(p *spider.Position, best spider.Move, hasBest bool) hintResponse {
	resp := hintResponse{Moves: []hintMove{}}
	for _, m := range ranked(p, best, hasBest) {
		resp.Moves = append(resp.Moves, hintMove{Move: m.String(), Text: describe(p, m)})
	}
	if len(resp.Moves) == 0 {
		resp.Text = "No moves left."
		return resp
	}
	resp.Move, resp.Text = resp.Moves[0].Move, resp.Moves[0].Text
	return resp
}

// noHelpfulMove is the hint's answer when the solver finds nothing worth
// doing in a game that still has moves.
const noHelpfulMove = "No helpful move found: moves are left, but the hint sees none that turns a card, deals or wins. Undo may help."

func (s *Handlers) hint(w http.ResponseWriter, r *http.Request) error {
	// The solver works on a copy, so the game stays free for moves while
	// it thinks.
	var g *spider.Game
	err := s.games.Read(r.Context(), web.Player(r), r.PathValue("id"), func(game *spider.Game) {
		if s.opts.Hint != nil {
			g = game.Clone()
		}
	})
	if err != nil {
		return err
	}
	if s.opts.Hint == nil {
		return web.Errorf(web.ErrNotImplemented, "hints need the solver, which this server does not have")
	}
	switch {
	case g.Won():
		web.WriteJSON(w, http.StatusOK, hintResponse{Text: "The game is won.", Moves: []hintMove{}})
		return nil
	case g.Stuck():
		web.WriteJSON(w, http.StatusOK, hintResponse{Text: "No moves left.", Moves: []hintMove{}})
		return nil
	}
	m, err := s.search(w, r, g)
	if errors.Is(err, ErrNoMove) {
		// The solver sees nothing worth doing: no list either, as before.
		// Moves are left, though (the game is not stuck): "No moves left"
		// was untrue, and the end screen did not come to bear it out.
		web.WriteJSON(w, http.StatusOK, hintResponse{Text: noHelpfulMove, Moves: []hintMove{}})
		return nil
	}
	if err != nil {
		return err
	}
	// The hint must be a move the player can make: a wrong one is a
	// server fault, not advice.
	if err := g.Pos().CheckMove(m); err != nil {
		return fmt.Errorf("hint %v: %v", m, err) // not %w: not the player's illegal move
	}
	web.WriteJSON(w, http.StatusOK, hintAnswer(g.Pos(), m, true))
	return nil
}

// search runs the hint search for g in r's address's turn (oneEach).
// The turn is given back however the search ends, a panic included:
// held, it made every later hint of the address wait out hintWait.
func (s *Handlers) search(w http.ResponseWriter, r *http.Request, g *spider.Game) (spider.Move, error) {
	release, err := s.hinting.acquire(r.Context(), web.AddrKey(r))
	if err != nil {
		if r.Context().Err() != nil {
			return spider.Move{}, err // the client went, or the server stops
		}
		return spider.Move{}, refuseForLoad(w, hintRetry, "another hint from your address is still being worked out", err)
	}
	defer release()
	return s.opts.Hint(r.Context(), g)
}

type locateResponse struct {
	Card      string     `json:"card"`
	Locations []location `json:"locations"`
	Completed int        `json:"completed"`
}

type location struct {
	Pile  int `json:"pile"`  // 1-based
	Index int `json:"index"` // from the card underneath all others, 0-based, face-down cards counted
}

func (s *Handlers) locate(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query().Get("card")
	c, err := card.Parse(q)
	if err != nil || c.IsJoker() {
		return badRequest("card %q: want a card such as KS or 10H", q)
	}
	resp := locateResponse{Card: c.String(), Locations: []location{}}
	err = s.games.Read(r.Context(), web.Player(r), r.PathValue("id"), func(g *spider.Game) {
		for _, l := range g.Locate(c) {
			resp.Locations = append(resp.Locations, location{Pile: l.Pile + 1, Index: l.Index})
		}
		for _, su := range g.Pos().Removed(nil) {
			if su == c.Suit() {
				resp.Completed++
			}
		}
	})
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, resp)
	return nil
}

type columnResponse struct {
	Pile  int      `json:"pile"`
	Cards []string `json:"cards"`
}

func (s *Handlers) column(w http.ResponseWriter, r *http.Request) error {
	k, err := pileArg(r.PathValue("pile"))
	if err != nil {
		return err
	}
	resp := columnResponse{Pile: k + 1, Cards: []string{}}
	err = s.games.Read(r.Context(), web.Player(r), r.PathValue("id"), func(g *spider.Game) {
		for _, c := range g.Column(k) {
			resp.Cards = append(resp.Cards, c.String())
		}
	})
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, resp)
	return nil
}

var suitSymbols = [4]string{"♣", "♦", "♥", "♠"}

// short names a card for hint text: rank and suit symbol, "7♥".
func short(c card.Card) string {
	s := c.String()
	r := s[:len(s)-1]
	if r == "T" {
		r = "10"
	}
	return r + suitSymbols[c.Suit()&3]
}

// describe says a move in words, naming only face-up cards.
func describe(p *spider.Position, m spider.Move) string {
	switch m.Kind {
	case spider.Deal:
		return "Deal a row from the stock."
	case spider.Remove:
		return fmt.Sprintf("Remove the completed suit from pile %d.", m.From+1)
	}
	from, to, n := int(m.From), int(m.To), int(m.Count)
	top := p.Card(from, p.Len(from)-n)
	what := "the " + short(top)
	if n > 1 {
		what = fmt.Sprintf("the %d cards from the %s down", n, short(top))
	}
	if p.Len(to) == 0 {
		return fmt.Sprintf("Move %s from pile %d into the space on pile %d.", what, from+1, to+1)
	}
	return fmt.Sprintf("Move %s from pile %d onto the %s on pile %d.", what, from+1, short(p.Bottom(to)), to+1)
}

// pileArg reads a pile number from a path (1 to spider.Piles), 0-based.
func pileArg(s string) (int, error) {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > spider.Piles {
		return 0, badRequest("pile %q: piles are 1 to %d", s, spider.Piles)
	}
	return k - 1, nil
}
