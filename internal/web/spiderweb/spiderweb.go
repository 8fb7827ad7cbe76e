// Package spiderweb is the web adapter of Spider: the JSON API of
// docs/api.md over the Spider engine and a store of games, saves,
// statistics and settings, mounted on the shared web layer as a
// web.Routes. The page itself (static/spider/, served at /) is served by
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

	"cardtable/internal/record"
	"cardtable/internal/web"
	"cardtable/spider"
)

// GameStore keeps the games in play and the results they end with;
// *store.DB has it. Every method is the player's: another player's game is
// not found (record.ErrNotFound).
type GameStore interface {
	// CreateGame stores g, and the results given, in one transaction.
	CreateGame(ctx context.Context, g record.Game, results ...record.Result) error
	Game(ctx context.Context, player, id string) (record.Game, error)
	GameVersion(ctx context.Context, id string) (int64, error)
	// UpdateGame stores c, and the results given, in one transaction;
	// record.ErrStale if the game is no longer at c.Version.
	UpdateGame(ctx context.Context, c record.Change, results ...record.Result) error
	RecordResult(ctx context.Context, player string, r record.Result) error
	// GiveUp marks the game, at version, given up for its analysis and
	// records r as its lineage's final loss, in one transaction, giving
	// up the lineage's other games too (unless it was won);
	// record.ErrStale if the game is no longer at version.
	GiveUp(ctx context.Context, player, id string, version int64, at time.Time, r record.Result) error
	// PruneGames deletes the games unchanged since idle, and those with no
	// move played unchanged since unplayed.
	PruneGames(ctx context.Context, idle, unplayed time.Time) (int64, error)
}

// KeepStore keeps what a player has besides games in play: named saves,
// statistics and settings; *store.DB has it.
type KeepStore interface {
	Saves(ctx context.Context, player string) ([]record.Save, error)
	Save(ctx context.Context, player, name string) (record.Save, error)
	// LineageGivenUp is whether player's lineage was given up for its
	// analysis (record.Save.GaveUp).
	LineageGivenUp(ctx context.Context, player, lineage string) (bool, error)
	PutSave(ctx context.Context, s record.Save) error
	DeleteSave(ctx context.Context, player, name string) error
	Stats(ctx context.Context, player string) ([]record.Group, error)
	Settings(ctx context.Context, player string) (string, error)
	PutSettings(ctx context.Context, player, json string) error
	// AdoptLegacy gives player the rows stored before players existed,
	// reporting whether there were any.
	AdoptLegacy(ctx context.Context, player string) (bool, error)
}

// Store is all the handlers need of the database.
type Store interface {
	GameStore
	KeepStore
}

// Options configure the handlers. The zero value is usable.
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
	games *games
	log   *slog.Logger
	now   func() time.Time
	opts  Options
	// analyses holds a token while an analysis runs: one at a time.
	analyses chan struct{}
}

// New makes the handlers over db.
func New(db Store, o Options) *Handlers {
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
	return &Handlers{db: db, log: o.Log, now: o.Now, opts: o, analyses: make(chan struct{}, 1),
		games: newGames(db, o.Now, o.MaxGames, o.CacheBytes)}
}

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
	return ok, classify(err)
}

// handle is web.Handle with the engine's and the store's errors classified.
func (s *Handlers) handle(f web.HandlerFunc) http.HandlerFunc {
	return web.Handle(s.log, func(w http.ResponseWriter, r *http.Request) error {
		err := classify(f(w, r))
		var o *openedError
		if errors.As(err, &o) {
			writeOpened(w, r, s.log, err, o.game)
			return nil
		}
		return err
	})
}
