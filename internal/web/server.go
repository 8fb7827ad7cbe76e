// Package web is cardtable's HTTP server: the JSON API of docs/api.md over
// the Spider engine and the store, and the page in static/.
//
// The server owns every game. The page sends commands; the engine checks
// them; the new state is stored before the answer goes out. What the page
// sees of a game is spider.Game.View(false): face-down cards and the stock
// order stay on the server unless the open variant is on.
package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"cardtable/card"
	"cardtable/internal/store"
	"cardtable/spider"
)

// Request body limits.
const (
	maxJSONBody     = 64 << 10 // every JSON request
	maxSettingsBody = 16 << 10 // PUT /api/settings
	// POST /api/games/load: a save file. It holds every save the server
	// writes: spider.MaxSteps move lines of at most 13 bytes ("move 10 9
	// 13\n", 1.3 MB) and a header of at most a few KiB.
	maxSaveBody = 2 << 20
	maxSaveName = 100 // runes in a save's name
)

// Options configure a Server. The zero value is usable.
type Options struct {
	Log *slog.Logger
	// Now is the clock (tests fix it); time.Now if nil.
	Now func() time.Time
	// CacheBytes bounds the estimated memory of the games kept in memory
	// (default 256 MiB), MaxGames their count (default 100,000); the least
	// recently used beyond either are read back from the database when used.
	CacheBytes int
	MaxGames   int
	// Hint finds a move to suggest, from what the player sees; an error
	// wrapping ErrNoMove means there is none. nil: no hints (501).
	Hint func(ctx context.Context, g *spider.Game) (spider.Move, error)
	// CheckHost makes the server answer only requests addressed (the Host
	// header, port aside) to a loopback name (localhost, 127.0.0.1, [::1])
	// or to one of Hosts; others get 421. It keeps DNS-rebinding pages
	// out (hosts.go). cardtable serve always sets it.
	CheckHost bool
	Hosts     []string
	// RateLimit, if not nil, bounds how fast each player and each client
	// address may create games and write saves (ratelimit.go). nil: no
	// limit, for tests and the load benchmark, which create games at
	// machine speed; cardtable serve uses DefaultRateLimit.
	RateLimit *RateLimit
	// WinnableDeal finds a deal number the solver has shown can be won with
	// these options, for "winnable deals only"; ok false when it found
	// none. nil: no solver (the deal is random and the answer says so).
	WinnableDeal func(ctx context.Context, o spider.Options) (deal uint64, ok bool, err error)
	// Games are other games' handlers, mounted beside Spider's.
	Games []Routes
}

// Server serves the API and the page. It is an http.Handler.
type Server struct {
	db    *store.DB
	games *games
	log   *slog.Logger
	now   func() time.Time
	opts  Options
	limit *limiter // nil without Options.RateLimit
	h     http.Handler
	// legacy is set while rows from before players may be waiting for
	// their owner (see identify).
	legacy atomic.Bool
}

// New returns a server over db.
func New(db *store.DB, o Options) *Server {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxGames <= 0 {
		o.MaxGames = 100000
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 256 << 20
	}
	s := &Server{db: db, log: o.Log, now: o.Now, opts: o}
	s.games = newGames(db, o.Now, o.MaxGames, o.CacheBytes)
	s.legacy.Store(true)
	s.h = s.routes()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.h.ServeHTTP(w, r) }

// handlerFunc is a handler that returns its error for writeError.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

func (s *Server) handle(f handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := f(w, r); err != nil {
			writeError(w, r, s.log, err)
		}
	}
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/games", s.handle(s.createGame))
	mux.HandleFunc("POST /api/games/load", s.handle(s.loadGame))
	mux.HandleFunc("GET /api/games/{id}", s.handle(s.getGame))
	mux.HandleFunc("POST /api/games/{id}/commands", s.handle(s.command))
	mux.HandleFunc("GET /api/games/{id}/hint", s.handle(s.hint))
	mux.HandleFunc("GET /api/games/{id}/locate", s.handle(s.locate))
	mux.HandleFunc("GET /api/games/{id}/column/{pile}", s.handle(s.column))
	mux.HandleFunc("GET /api/games/{id}/save", s.handle(s.saveFile))
	mux.HandleFunc("GET /api/saves", s.handle(s.listSaves))
	mux.HandleFunc("PUT /api/saves/{name}", s.handle(s.putSave))
	mux.HandleFunc("POST /api/saves/{name}/open", s.handle(s.openSave))
	mux.HandleFunc("DELETE /api/saves/{name}", s.handle(s.deleteSave))
	mux.HandleFunc("GET /api/stats", s.handle(s.stats))
	mux.HandleFunc("GET /api/settings", s.handle(s.getSettings))
	mux.HandleFunc("PUT /api/settings", s.handle(s.putSettings))
	for _, g := range s.opts.Games {
		g.Register(mux)
	}

	static, err := fs.Sub(Static, "static")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	files, err := loadStatic(static)
	if err != nil {
		panic(err) // embedded files read from memory
	}
	// "/" catches everything else: unknown API paths get a JSON 404, other
	// paths the page's files (GET and HEAD only).
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" {
			if allow := allowed(mux, r); allow != "" {
				w.Header().Set("Allow", allow)
				writeError(w, r, s.log, &requestError{errMethod,
					fmt.Sprintf("%s %s: method not allowed (allowed: %s)", r.Method, r.URL.Path, allow)})
				return
			}
			writeError(w, r, s.log, fmt.Errorf("%w: no API endpoint %s %s", store.ErrNotFound, r.Method, r.URL.Path))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, r, s.log, &requestError{errMethod, r.Method + " " + r.URL.Path + ": method not allowed"})
			return
		}
		if err := files.serve(w, r); err != nil {
			writeError(w, r, s.log, err)
		}
	})

	var h http.Handler = s.identify(mux, mux)
	if s.opts.RateLimit != nil {
		// Outside identify: a flood is refused before it is given identities.
		s.limit = newLimiter(*s.opts.RateLimit)
		h = s.rateLimit(mux, s.limit, h)
	}
	// Refuses cross-site writes (a page elsewhere posting to localhost).
	h = http.NewCrossOriginProtection().Handler(h)
	if s.opts.CheckHost {
		h = s.hostCheck(s.opts.Hosts, h)
	}
	return securityHeaders(h)
}

// allowed lists the methods an API path has, for a 405: the catch-all "/"
// pattern answers every method, so the mux never makes a 405 itself.
func allowed(mux *http.ServeMux, r *http.Request) string {
	var out []string
	for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
		q := r.Clone(r.Context())
		q.Method = m
		if _, pattern := mux.Handler(q); pattern != "/" && pattern != "" {
			out = append(out, m)
		}
	}
	return strings.Join(out, ", ")
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		next.ServeHTTP(w, r)
	})
}

// gameResponse is the answer about one game.
type gameResponse struct {
	ID      string      `json:"id"`
	View    spider.View `json:"view"`
	Move    string      `json:"move,omitempty"`
	Message string      `json:"message,omitempty"`
}

func view(e *entry) gameResponse {
	return gameResponse{ID: e.id, View: e.g.View(false)}
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
	if o.Variant, err = spider.ParseVariant(strings.ToLower(req.Variant)); err != nil {
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
	if o.Cheat, err = spider.ParseCheatLevel(strings.ToLower(req.Cheat)); err != nil {
		return o, badRequest("cheat %q: want none, newcards or full", req.Cheat)
	}
	o.Open, o.Relaxed, o.AutoRemove = req.Open, req.Relaxed, req.AutoRemove
	return o, nil
}

func (s *Server) createGame(w http.ResponseWriter, r *http.Request) error {
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
	return s.start(w, r, g, "", msg)
}

// randomGame deals a random deal number; with winnable, one the solver has
// shown can be won, if it has one.
func (s *Server) randomGame(ctx context.Context, o spider.Options, winnable bool) (*spider.Game, string, error) {
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

func (s *Server) getGame(w http.ResponseWriter, r *http.Request) error {
	e, err := s.games.lock(r.Context(), playerFrom(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	resp := view(e)
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
	return nil
}

type commandRequest struct {
	Cmd string `json:"cmd"`
}

func (s *Server) command(w http.ResponseWriter, r *http.Request) error {
	var req commandRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		return err
	}
	c, err := spider.ParseCommand(req.Cmd)
	if err != nil {
		return err
	}
	e, m, moved, err := s.games.play(r.Context(), playerFrom(r), r.PathValue("id"), c)
	if err != nil {
		return err
	}
	defer e.mu.Unlock()
	resp := view(e)
	if moved {
		resp.Move = m.String()
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}

type hintResponse struct {
	Move string `json:"move"`
	Text string `json:"text"`
}

func (s *Server) hint(w http.ResponseWriter, r *http.Request) error {
	e, err := s.games.lock(r.Context(), playerFrom(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	if s.opts.Hint == nil {
		e.mu.Unlock()
		return &requestError{errNoSolver, "hints need the solver, which this server does not have"}
	}
	// The solver works on a copy, so the game stays free for moves while
	// it thinks.
	g := e.g.Clone()
	e.mu.Unlock()
	switch {
	case g.Won():
		writeJSON(w, http.StatusOK, hintResponse{Text: "The game is won."})
		return nil
	case g.Stuck():
		writeJSON(w, http.StatusOK, hintResponse{Text: "No moves left."})
		return nil
	}
	m, err := s.opts.Hint(r.Context(), g)
	if errors.Is(err, ErrNoMove) {
		writeJSON(w, http.StatusOK, hintResponse{Text: "No moves left."})
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
	writeJSON(w, http.StatusOK, hintResponse{Move: m.String(), Text: describe(g.Pos(), m)})
	return nil
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

func (s *Server) locate(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query().Get("card")
	c, err := card.Parse(q)
	if err != nil || c.IsJoker() {
		return badRequest("card %q: want a card such as KS or 10H", q)
	}
	e, err := s.games.lock(r.Context(), playerFrom(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	resp := locateResponse{Card: c.String(), Locations: []location{}}
	for _, l := range e.g.Locate(c) {
		resp.Locations = append(resp.Locations, location{Pile: l.Pile + 1, Index: l.Index})
	}
	for _, su := range e.g.Pos().Removed(nil) {
		if su == c.Suit() {
			resp.Completed++
		}
	}
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
	return nil
}

type columnResponse struct {
	Pile  int      `json:"pile"`
	Cards []string `json:"cards"`
}

func (s *Server) column(w http.ResponseWriter, r *http.Request) error {
	k, err := pileArg(r.PathValue("pile"))
	if err != nil {
		return err
	}
	e, err := s.games.lock(r.Context(), playerFrom(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	resp := columnResponse{Pile: k + 1, Cards: []string{}}
	for _, c := range e.g.Column(k) {
		resp.Cards = append(resp.Cards, c.String())
	}
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
	return nil
}

func (s *Server) saveFile(w http.ResponseWriter, r *http.Request) error {
	e, err := s.games.lock(r.Context(), playerFrom(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	text, deal := e.g.Save(), e.g.Deal()
	e.mu.Unlock()
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
func (s *Server) loadGame(w http.ResponseWriter, r *http.Request) error {
	b, err := readBody(w, r, maxSaveBody)
	if err != nil {
		return err
	}
	if !utf8.Valid(b) {
		return badRequest("the save file is not UTF-8 text")
	}
	g, err := spider.Load(string(b))
	if err != nil {
		return badRequest("%v", err)
	}
	g.MarkLoaded()
	return s.start(w, r, g, "", "")
}

// start stores a new game and answers 201 with it. The game named by the
// "previous" query parameter, if any, is the one the player leaves: it
// counts as lost if it had moves and was not won (docs/api.md).
func (s *Server) start(w http.ResponseWriter, r *http.Request, g *spider.Game, lineage, msg string) error {
	e, err := s.games.add(r.Context(), playerFrom(r), g, lineage)
	if err != nil {
		return err
	}
	// Only once the new game exists is the old one left. Failing to count
	// it is not worth refusing the new game for: logged.
	if err := s.games.abandon(r.Context(), playerFrom(r), r.URL.Query().Get("previous")); err != nil {
		s.log.WarnContext(r.Context(), "recording an abandoned game", "game", r.URL.Query().Get("previous"), "err", err)
	}
	e.mu.Lock()
	resp := view(e)
	e.mu.Unlock()
	resp.Message = msg
	writeJSON(w, http.StatusCreated, resp)
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
