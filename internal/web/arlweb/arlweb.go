// Package arlweb is the web adapter of live Arlington tables: the lobby and
// table pages, a JSON API and a WebSocket per connection, on top of a hub
// of tables (internal/table). docs/api.md ("Arlington tables") describes
// the API and the WebSocket protocol.
package arlweb

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sort"
	"time"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// Hub is what the handlers need of the live tables; *table.Hub has it.
type Hub interface {
	CreateFrom(ctx context.Context, creator, addr string, cfg table.Config) (*table.Table, error)
	List() []table.Summary
	Table(id string) (*table.Table, error)
	Record(ctx context.Context, id string) (string, error)
	RematchFrom(ctx context.Context, oldID, player, addr string) (*table.Table, int, error)
	Games(ctx context.Context, player string) ([]table.Game, error)
	Names(ctx context.Context, id string) ([]string, error)
	Leaderboard(ctx context.Context) ([]table.Ranked, error)
	EndedGame(ctx context.Context, id, player string) (table.Ended, error)
}

// Options configure the handlers.
type Options struct {
	Log *slog.Logger
	// Pages holds the pages' files (default: web.Static under "static").
	Pages fs.FS
	// Limits of one WebSocket connection (zero: the defaults below).
	Limits Limits
	// Levels are the bot levels the lobby offers (the wiring passes
	// arlington/bot's Names; the hub checks a table's levels itself).
	Levels []string
	// Hint makes the bot whose choice a hint shows, the HintBot level,
	// afresh for each hint with the seed given (the wiring passes
	// arlington/bot's). nil: no hints (501).
	Hint func(seed uint64) (table.Bot, error)
	// HintTime bounds a hint's wait for a search slot and its search
	// together (zero: 2 s, what a player waits for a hint).
	HintTime time.Duration
	// Cluster, if set, is the servers this one shares the tables with
	// (forward.go): the lobby lists their tables too, and Forward sends
	// each table's requests to its server.
	Cluster Cluster
	// PeerNames are the names a server whose internal address is
	// https:// must show a certificate for (chained to the system's
	// trusted roots): the request's host if it is one of them or a
	// wildcard among them (*.example.org) covers it, else the first
	// that is no wildcard. The wiring passes the --acme domains, the
	// --host names and the --tls-cert certificate's, or the answered
	// hosts.
	PeerNames []string
	// Events is the server's bounded event log: Forward logs there a
	// table's look-up that failed because the database is out of reach
	// (nil: every failure at ERROR on Log).
	Events *web.EventLog
}

// Handlers are the Arlington routes; they implement web.Routes.
type Handlers struct {
	hub      Hub
	log      *slog.Logger
	pages    map[string]*web.Page // the lobby and table pages, by file name; nil: missing
	limits   Limits
	conns    addrConns // WebSocket connections open, by client address
	levels   []string
	newHint  func(seed uint64) (table.Bot, error)
	hintTime time.Duration
	cluster  Cluster
	peers    *peerTransports
	events   *web.EventLog
}

// New makes the handlers for hub.
func New(hub Hub, o Options) *Handlers {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Pages == nil {
		sub, err := fs.Sub(web.Static, "static")
		if err != nil {
			panic(err) // the embed pattern guarantees the directory
		}
		o.Pages = sub
	}
	h := &Handlers{hub: hub, log: o.Log, pages: map[string]*web.Page{}, limits: o.Limits.withDefaults(),
		levels: append([]string{}, o.Levels...), newHint: o.Hint, hintTime: cmp.Or(o.HintTime, hintTime), cluster: o.Cluster,
		peers: newPeerTransports(o.PeerNames, nil), events: o.Events}
	for _, name := range []string{lobbyPage, tablePage, rulesPage, gamesPage} {
		if b, err := fs.ReadFile(o.Pages, name); err == nil {
			h.pages[name], _ = web.NewPage(name, b) // gzip into memory cannot fail
		}
	}
	return h
}

// The pages' files. They hold no per-request data (the table page reads
// its table's id from its address), so each has one ETag, its content's.
const (
	lobbyPage = "arlington/index.html"
	tablePage = "arlington/table.html"
	rulesPage = "arlington/rules.html"
	gamesPage = "arlington/games.html"
)

// Register adds the routes to mux (web.Routes).
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /arlington/{$}", h.page(lobbyPage))
	mux.HandleFunc("GET /arlington/t/{id}", h.page(tablePage))
	mux.HandleFunc("GET /arlington/rules", h.page(rulesPage))
	mux.HandleFunc("GET /arlington/games", h.page(gamesPage))
	mux.HandleFunc("GET /api/arlington/games", h.handle(h.games))
	mux.HandleFunc("GET /api/arlington/ratings", h.handle(h.ratings))
	mux.HandleFunc("GET /api/arlington/tables", h.handle(h.list))
	mux.HandleFunc("POST /api/arlington/tables", h.handle(h.create))
	mux.HandleFunc("GET /api/arlington/tables/{id}", h.handle(h.get))
	mux.HandleFunc("POST /api/arlington/tables/{id}/join", h.handle(h.join))
	mux.HandleFunc("POST /api/arlington/tables/{id}/leave", h.handle(h.leave))
	mux.HandleFunc("POST /api/arlington/tables/{id}/rematch", h.handle(h.rematch))
	mux.HandleFunc("GET /api/arlington/tables/{id}/record", h.handle(h.record))
	mux.HandleFunc("GET /api/arlington/tables/{id}/ended", h.handle(h.ended))
	mux.HandleFunc("POST /api/arlington/preview", h.handle(h.preview))
	mux.HandleFunc("POST /api/arlington/tables/{id}/preview", h.handle(h.tablePreview))
	mux.HandleFunc("GET /api/arlington/tables/{id}/hint", h.handle(h.hint))
	mux.HandleFunc("GET /api/arlington/tables/{id}/replay", h.handle(h.replay))
	mux.HandleFunc("GET /api/arlington/tables/{id}/ws", h.ws)
	mux.HandleFunc("GET /api/arlington/code/{code}", h.handle(h.byCode))
}

// handle is web.Handle with the table package's errors classified.
func (h *Handlers) handle(f web.HandlerFunc) http.HandlerFunc {
	return web.Handle(h.log, func(w http.ResponseWriter, r *http.Request) error {
		err := f(w, r)
		if errors.Is(err, table.ErrMoved) {
			// Refused unapplied: the table's new server answers in a
			// moment (forward.go).
			markMoving(w)
		}
		return web.Classify(err, classes)
	})
}

// page serves one of the pages' HTML files (the lobby, or the table page
// for every table id: the page reads the id from its address), as the
// shared layer serves the page's files: "no-cache", an ETag, 304 for an
// unchanged page.
func (h *Handlers) page(name string) http.HandlerFunc {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		p := h.pages[name]
		if p == nil {
			return fmt.Errorf("%w: no page %s", web.ErrNotFound, name)
		}
		p.Serve(w, r)
		return nil
	})
}

// lobby is the list answer.
type lobby struct {
	Tables       []lobbyTable `json:"tables"`
	Levels       []string     `json:"levels"`
	DefaultLevel string       `json:"defaultLevel"`
	Target       int          `json:"defaultTarget"`
	TurnSeconds  int          `json:"defaultTurnSeconds"`
}

// lobbyTable is a table in the list: its summary, and whether the
// requester holds one of its seats (the front page's "your tables").
type lobbyTable struct {
	table.Summary
	Yours bool `json:"yours,omitempty"`
}

func (h *Handlers) list(w http.ResponseWriter, r *http.Request) error {
	tables := h.all(r, web.Player(r))
	web.WriteJSON(w, http.StatusOK, lobby{Tables: tables, Levels: h.levels,
		DefaultLevel: table.DefaultStandIn, Target: arlington.DefaultTarget,
		TurnSeconds: table.DefaultTurnSeconds})
	return nil
}

// all is every live table, this server's and (with a Cluster) the other
// servers', newest first, each marked if player holds a seat there. The
// others' are as their last heartbeat listed them; if they cannot be
// read, the lobby shows this server's alone.
func (h *Handlers) all(r *http.Request, player string) []lobbyTable {
	ctx := r.Context()
	sums := h.hub.List()
	tables := make([]lobbyTable, 0, len(sums))
	here := map[string]bool{}
	for _, s := range sums {
		here[s.ID] = true
		tables = append(tables, lobbyTable{Summary: s, Yours: h.seated(ctx, s.ID, player)})
	}
	if h.cluster == nil {
		return tables
	}
	others, yours, err := h.cluster.Others(ctx, player)
	if err != nil {
		// The database out of reach: bounded with the requests failed
		// alike (every lobby's poll meets it).
		web.LogFault(ctx, h.log, "arlington: the other servers' tables", web.ClientAddr(r), err)
		return tables
	}
	for _, s := range others {
		if !here[s.ID] { // a table just moved here may still be in its old server's list
			here[s.ID] = true
			tables = append(tables, lobbyTable{Summary: s, Yours: yours[s.ID]})
		}
	}
	sort.SliceStable(tables, func(i, j int) bool {
		a, b := tables[i].Summary, tables[j].Summary
		if !a.Created.Equal(b.Created) {
			return a.Created.After(b.Created)
		}
		return a.ID < b.ID
	})
	return tables
}

// seated: player holds a seat at table id. The summary names no one, so
// the table's own goroutine is asked (one short call a table; the hub
// holds at most its max-tables).
func (h *Handlers) seated(ctx context.Context, id, player string) bool {
	if player == "" {
		return false
	}
	t, err := h.hub.Table(id)
	if err != nil {
		return false // closed since the list was made
	}
	_, err = t.View(ctx, player)
	return err == nil || errors.Is(err, table.ErrNotStarted)
}

// created is the create answer: the table, its shareable link and its
// code (invite.go).
type created struct {
	table.Summary
	Link string `json:"link"`
	Code string `json:"code"`
}

func (h *Handlers) summary(t *table.Table) created {
	return created{t.Summary(), link(t.ID()), tableCode(t.ID())}
}

func (h *Handlers) create(w http.ResponseWriter, r *http.Request) error {
	var cfg table.Config
	if err := web.ReadJSON(w, r, &cfg, 4<<10); err != nil {
		return err
	}
	t, err := h.hub.CreateFrom(r.Context(), web.Player(r), web.AddrKey(r), cfg)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusCreated, h.summary(t))
	return nil
}

func link(id string) string { return "/arlington/t/" + id }

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	t, err := h.hub.Table(r.PathValue("id"))
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, h.summary(t))
	return nil
}

// ratings is the leaderboard (table.Hub.Leaderboard): the people and
// bot levels with enough rated games, the best first.
func (h *Handlers) ratings(w http.ResponseWriter, r *http.Request) error {
	board, err := h.hub.Leaderboard(r.Context())
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, board)
	return nil
}

type joinRequest struct {
	Name string `json:"name"`
	Seat *int   `json:"seat,omitempty"` // absent: the first open seat
}

type joined struct {
	Seat int `json:"seat"`
}

func (h *Handlers) join(w http.ResponseWriter, r *http.Request) error {
	var req joinRequest
	if err := web.ReadJSON(w, r, &req, 1<<10); err != nil {
		return err
	}
	t, err := h.hub.Table(r.PathValue("id"))
	if err != nil {
		return err
	}
	seat := -1
	if req.Seat != nil {
		seat = *req.Seat
		if seat < 0 || seat >= arlington.MaxSeats {
			return fmt.Errorf("%w: no seat %d: seats count from 0, and a table has at most %d", web.ErrBadRequest, seat, arlington.MaxSeats)
		}
	}
	got, err := t.Join(r.Context(), table.Player{ID: web.Player(r), Name: req.Name}, seat)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, joined{got})
	return nil
}

func (h *Handlers) leave(w http.ResponseWriter, r *http.Request) error {
	t, err := h.hub.Table(r.PathValue("id"))
	if err != nil {
		return err
	}
	// In a game in play the seat is kept (a stand-in plays it): the
	// answer says so, so that a client does not take it for given up.
	left, err := t.LeaveSeat(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, left)
	return nil
}

// Limited names the routes the server's rate limit covers (web.Limited):
// those that create a table (a new one, a rematch), the hint (a search of
// up to a second) and those that replay a stored game from its deal,
// thousands of moves in a long game (the replay, a gone table's result,
// a rematch of a table no longer live).
func (h *Handlers) Limited() []string {
	return []string{
		"POST /api/arlington/tables",
		"GET /api/arlington/tables/{id}/hint",
		"GET /api/arlington/tables/{id}/replay",
		"GET /api/arlington/tables/{id}/ended",
		"POST /api/arlington/tables/{id}/rematch",
	}
}

// Frequent names the routes the page calls at every click (web.Frequent),
// limited apart from Limited's: the previews of a selection. Each is cheap
// (a set's analysis, a view's words), but a page asks one at each card
// picked, so it must neither spend the tokens of new tables and hints nor
// go unbounded for a client that loops.
func (h *Handlers) Frequent() []string {
	return []string{
		"POST /api/arlington/preview",
		"POST /api/arlington/tables/{id}/preview",
	}
}

// timeNow is the clock of connection limits (a variable for nothing else
// than readability of the limiter).
var timeNow = time.Now
