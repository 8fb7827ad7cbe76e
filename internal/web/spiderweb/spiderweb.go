// Package spiderweb is the web adapter of Spider: the JSON API of
// docs/api.md over the service of games in play (internal/spidergame) and
// a store of saves, statistics and settings, mounted on the shared web
// layer as a web.Routes. The page itself (static/spider/, served at /) is served by
// the web layer with the other static files.
//
// The server owns every game. The page sends commands; the engine checks
// them; the new state is stored before the answer goes out. What the page
// sees of a game is spider.Game.View(false): face-down cards and the stock
// order stay on the server unless the open variant is on.
package spiderweb

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/web"
	"cardtable/spider"
)

// Store is all the handlers need of the database (the games in play go
// through the service, spidergame.Service, which New makes over it).
type Store = spidergame.Store

// Options configure the handlers. The zero value is usable.
type Options struct {
	Log *slog.Logger
	// Now is the clock (tests fix it); time.Now if nil.
	Now func() time.Time
	// CacheBytes and MaxGames bound the games kept in memory
	// (spidergame.Options).
	CacheBytes int
	MaxGames   int
	// Shared: other servers write the same database (spidergame.Options).
	Shared bool
	// Hint finds a move to suggest, from what the player sees; an error
	// wrapping ErrNoMove means there is none. nil: no hints (501).
	Hint func(ctx context.Context, g *spider.Game) (spider.Move, error)
	// WinnableDeal finds a deal number the solver has shown can be won with
	// these options, for "winnable deals only"; ok false when it found
	// none. nil: no solver (the deal is random and the answer says so).
	WinnableDeal func(ctx context.Context, o spider.Options) (deal uint64, ok bool, err error)
	// Analyze analyses a game that is over (solver.Analyze within the
	// server's limits; it must honour ctx). nil: no analysis (501).
	Analyze func(ctx context.Context, g *spider.Game) (*Analysis, error)
	// DailyBytes bounds the bytes of uploaded save files and named saves
	// each client address stores a day (docs/api.md); nil: no bound.
	DailyBytes *web.DailyBytes
}

// Handlers are the Spider routes; they implement web.Routes and
// web.Limited.
type Handlers struct {
	db    Store
	games *spidergame.Service
	log   *slog.Logger
	now   func() time.Time
	opts  Options
	// analyses is the one analysis slot, taken in turns by address.
	analyses *analysisTurns
	// hinting lets each client address search one hint at a time.
	hinting *oneEach
	// damaged: the damaged saves already logged, by what was done.
	damaged *logOnce
}

// New makes the handlers over db, with a service of the games in play
// (spidergame.New) of their own.
func New(db Store, o Options) *Handlers {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	games := spidergame.New(db, spidergame.Options{Log: o.Log, Now: o.Now, CacheBytes: o.CacheBytes, MaxGames: o.MaxGames,
		Shared: o.Shared, Forget: web.PlayerMaxAge})
	return &Handlers{db: db, log: o.Log, now: o.Now, opts: o, analyses: &analysisTurns{}, hinting: newOneEach(), games: games,
		damaged: newLogOnce(maxLoggedDamaged)}
}

// Games is the service of the games in play the handlers serve (for the
// wiring: its pruner).
func (s *Handlers) Games() *spidergame.Service { return s.games }

// Register adds the routes to mux (web.Routes).
func (s *Handlers) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/games", s.handle(s.createGame))
	mux.HandleFunc("POST /api/games/load", s.handle(s.loadGame))
	mux.HandleFunc("GET /api/games/{id}", s.handle(s.getGame))
	mux.HandleFunc("POST /api/games/{id}/commands", s.handle(s.command))
	mux.HandleFunc("GET /api/games/{id}/hint", s.handle(s.hint))
	mux.HandleFunc("GET /api/games/{id}/locate", s.handle(s.locate))
	mux.HandleFunc("GET /api/games/{id}/column/{pile}", s.handle(s.column))
	mux.HandleFunc("GET /api/games/{id}/save", s.handle(s.saveFile))
	mux.HandleFunc("POST /api/games/{id}/analysis", s.handle(s.analysis))
	mux.HandleFunc("GET /api/saves", s.handle(s.listSaves))
	mux.HandleFunc("PUT /api/saves/{name}", s.handle(s.putSave))
	mux.HandleFunc("POST /api/saves/{name}/open", s.handle(s.openSave))
	mux.HandleFunc("POST /api/saves/{name}/analysis", s.handle(s.analyseSave))
	mux.HandleFunc("DELETE /api/saves/{name}", s.handle(s.deleteSave))
	mux.HandleFunc("GET /api/stats", s.handle(s.stats))
	mux.HandleFunc("GET /api/settings", s.handle(s.getSettings))
	mux.HandleFunc("PUT /api/settings", s.handle(s.putSettings))
}

// Limited are the routes the rate limit applies to (web.Limited): those
// that create a game or write a save, and the analyses (seconds of a core). Settings are among them because a
// request without a cookie is a new player, so a flood of settings writes
// would otherwise store a new row each.
func (s *Handlers) Limited() []string {
	return []string{
		"POST /api/games",
		"POST /api/games/load",
		"POST /api/games/{id}/analysis",
		"POST /api/saves/{name}/open",
		"POST /api/saves/{name}/analysis",
		"PUT /api/saves/{name}",
		"PUT /api/settings",
	}
}

// AdoptLegacy gives player what was stored before players existed, if
// anything is left (for web.Options.Adopt: only the first new player after
// an upgrade finds any).
func (s *Handlers) AdoptLegacy(ctx context.Context, player string) (bool, error) {
	ok, err := s.db.AdoptLegacy(ctx, player)
	return ok, web.Classify(err, classes)
}

// Seen records that player is still in use (for web.Options.Seen).
// Its error is classed as the requests' are, so that web logs a disk
// full under a reason of its own.
func (s *Handlers) Seen(ctx context.Context, player string) error {
	return web.Classify(s.games.Seen(ctx, player), classes)
}

// handle is web.Handle with the engine's and the store's errors classified.
func (s *Handlers) handle(f web.HandlerFunc) http.HandlerFunc {
	return web.Handle(s.log, func(w http.ResponseWriter, r *http.Request) error {
		err := web.Classify(f(w, r), classes)
		var o *openedError
		if errors.As(err, &o) {
			writeOpened(w, r, s.log, err, o.game)
			return nil
		}
		return err
	})
}
