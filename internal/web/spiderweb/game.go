package spiderweb

// Games in play: starting one (a deal, a save file), its view, commands,
// and its save file.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"cardtable/card"
	"cardtable/internal/spidergame"
	"cardtable/internal/web"
	"cardtable/spider"
)

// gameResponse is the answer about one game (spidergame.Snapshot). Version
// counts the commands the server has accepted on the game (1 when it
// starts): a command may name the version its tab shows
// (commandRequest.Version). Clock is its play time.
type gameResponse struct {
	ID      string           `json:"id"`
	Version int64            `json:"version"`
	View    spider.View      `json:"view"`
	Clock   spidergame.Clock `json:"clock"`
	// GaveUp: the player gave this game up for its analysis, or had it
	// analysed once stuck: it takes no more commands.
	GaveUp  bool   `json:"gaveUp,omitempty"`
	Move    string `json:"move,omitempty"`
	Message string `json:"message,omitempty"`
}

// response is the answer about the game g.
func response(g spidergame.Snapshot) gameResponse {
	return gameResponse{ID: g.ID, Version: g.Version, View: g.View, Clock: g.Clock, GaveUp: g.GaveUp}
}

// behindResponse is the 409 answer to a command behind its game
// (spidergame.BehindError): the error, and the game as the answer about it
// has it.
type behindResponse struct {
	Error string `json:"error"`
	gameResponse
}

// dealNumber is the "deal" field: a string as documented, a JSON number
// accepted too.
type dealNumber string

func (d *dealNumber) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*d = dealNumber(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("deal must be a string of digits")
	}
	*d = dealNumber(n.String())
	return nil
}

type newGameRequest struct {
	Deal       dealNumber `json:"deal"`
	Variant    string     `json:"variant"`
	Suits      int        `json:"suits"`
	Open       bool       `json:"open"`
	Relaxed    bool       `json:"relaxed"`
	AutoRemove bool       `json:"autoRemove"`
	Cheat      string     `json:"cheat"`
	Winnable   bool       `json:"winnable"`
}

func (req newGameRequest) options() (spider.Options, error) {
	var o spider.Options
	var err error
	if req.Variant == "" {
		req.Variant = "arachnid"
	}
	if o.Variant, err = spider.ParseVariant(req.Variant); err != nil {
		return o, badRequest("variant %q: want arachnid or spider", req.Variant)
	}
	switch req.Suits {
	case 0:
		o.Suits = 4
	case 1, 2, 4:
		o.Suits = req.Suits
	default:
		return o, badRequest("suits %d: want 1, 2 or 4", req.Suits)
	}
	if o.Cheat, err = spider.ParseCheatLevel(req.Cheat); err != nil {
		return o, badRequest("cheat %q: want none, newcards or full", req.Cheat)
	}
	o.Open, o.Relaxed, o.AutoRemove = req.Open, req.Relaxed, req.AutoRemove
	return o, nil
}

func (s *Handlers) createGame(w http.ResponseWriter, r *http.Request) error {
	var req newGameRequest
	if err := decodeJSON(w, r, &req, true); err != nil {
		return err
	}
	o, err := req.options()
	if err != nil {
		return err
	}
	var g *spider.Game
	var msg string
	if req.Deal != "" {
		n, err := card.ParseDeal(strings.TrimSpace(string(req.Deal)))
		if err != nil {
			return badRequest("deal %q: want a number from 1 to %d", string(req.Deal), card.MaxDeal)
		}
		if g, err = spider.NewGame(n, o); err != nil {
			return badRequest("%v", err)
		}
		if req.Winnable {
			msg = "a deal number was given: it is dealt whether or not it can be won"
		}
	} else {
		if g, msg, err = s.randomGame(r.Context(), o, req.Winnable); err != nil {
			return err
		}
	}
	return s.start(w, r, g, "", msg, 0, false)
}

// randomGame deals a random deal number; with winnable, one the solver has
// shown can be won, if it has one.
func (s *Handlers) randomGame(ctx context.Context, o spider.Options, winnable bool) (*spider.Game, string, error) {
	// The same range as the command line's random deals (card.RandomDeal).
	n := card.RandomDeal(rand.Uint64())
	var msg string
	switch {
	case !winnable:
	case s.opts.WinnableDeal == nil:
		msg = "winnable deals need the solver, which this server does not have: this deal is random"
	default:
		w, ok, err := s.opts.WinnableDeal(ctx, o)
		if err != nil {
			return nil, "", err
		}
		if ok {
			n = w
		} else {
			msg = "the solver found no winnable deal in time: this deal is random"
		}
	}
	g, err := spider.NewGame(n, o)
	return g, msg, err
}

func (s *Handlers) getGame(w http.ResponseWriter, r *http.Request) error {
	g, err := s.games.Get(r.Context(), web.Player(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, response(g))
	return nil
}

type commandRequest struct {
	Cmd string `json:"cmd"`
	// Version, if given, is the version of the game the command was based
	// on: the page sends the one its view came with, so that a tab showing
	// an old state cannot undo or move on another tab's newer one. Clients
	// that leave it out (the load generator, scripts) are not checked.
	Version int64 `json:"version,omitempty"`
}

func (s *Handlers) command(w http.ResponseWriter, r *http.Request) error {
	var req commandRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		return err
	}
	c, err := spider.ParseCommand(req.Cmd)
	if err != nil {
		return err
	}
	if req.Version < 0 {
		return badRequest("version %d: versions start at 1", req.Version)
	}
	g, move, err := s.games.Play(r.Context(), web.Player(r), r.PathValue("id"), c, req.Version)
	var behind *spidergame.BehindError
	if errors.As(err, &behind) {
		web.WriteJSON(w, http.StatusConflict, behindResponse{Error: behind.Error(), gameResponse: response(behind.Game)})
		return nil
	}
	if err != nil {
		return err
	}
	resp := response(g)
	resp.Move = move
	web.WriteJSON(w, http.StatusOK, resp)
	return nil
}

func (s *Handlers) saveFile(w http.ResponseWriter, r *http.Request) error {
	var text string
	var deal uint64
	err := s.games.Read(r.Context(), web.Player(r), r.PathValue("id"), func(g *spider.Game) {
		text, deal = g.Save(), g.Deal()
	})
	if err != nil {
		return err
	}
	name := "spider-custom.txt"
	if deal != 0 {
		name = fmt.Sprintf("spider-%d.txt", deal)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, text)
	return nil
}

// loadGame starts a game from an uploaded save file.
func (s *Handlers) loadGame(w http.ResponseWriter, r *http.Request) error {
	b, err := web.ReadBody(w, r, maxSaveBody)
	if err != nil {
		return err
	}
	if !utf8.Valid(b) {
		return badRequest("the save file is not UTF-8 text")
	}
	g, err := spider.Load(string(b))
	if err != nil {
		// Classified with the others (classes): every error of Load wraps
		// spider.ErrFormat, 400, listed before the ErrIllegal (422) that
		// an illegal move in the file wraps as well.
		return err
	}
	g.MarkLoaded()
	if err := s.opts.DailyBytes.Charge(r, int64(len(b)), s.now()); err != nil {
		return err
	}
	return s.start(w, r, g, "", "", 0, false)
}

// start stores a new game and answers 201 with it. The game named by the
// "previous" query parameter, if any, is the one the player leaves: it
// counts as lost if it was played since it was started or loaded and was
// not won (docs/api.md). gaveUp
// starts it given up (spidergame.Service.Start).
func (s *Handlers) start(w http.ResponseWriter, r *http.Request, g *spider.Game, lineage, msg string, played time.Duration, gaveUp bool) error {
	game, err := s.add(r, g, lineage, played, gaveUp)
	if err != nil {
		return err
	}
	resp := response(game)
	resp.Message = msg
	web.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

// add stores the requester's new game, leaving the game named by the
// "previous" query parameter (spidergame.Service.Start).
func (s *Handlers) add(r *http.Request, g *spider.Game, lineage string, played time.Duration, gaveUp bool) (spidergame.Snapshot, error) {
	return s.games.Start(r.Context(), web.Player(r), g, lineage, played, gaveUp, r.URL.Query().Get("previous"))
}
