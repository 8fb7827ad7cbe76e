// Package spidergame is the service of Spider games in play, beside
// internal/table for Arlington: a cache over the store of every game's
// state, versioned writes (persist before acknowledge), play time, the
// give-up for an analysis, and pruning. It knows no HTTP and no SQL: the
// web adapter (internal/web/spiderweb) calls Service, and the store
// (internal/store) implements GameStore and KeepStore over the row types
// this package declares (record.go).
package spidergame

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"cardtable/spider"
)

// GameStore keeps the games in play and the results they end with;
// *store.DB has it. Every method is the player's: another player's game is
// not found (ErrNotFound).
type GameStore interface {
	// CreateGame stores g, and the results given, in one transaction.
	CreateGame(ctx context.Context, g Game, results ...Result) error
	Game(ctx context.Context, player, id string) (Game, error)
	GameVersion(ctx context.Context, id string) (int64, error)
	// UpdateGame stores c, and the results given, in one transaction;
	// ErrStale if the game is no longer at c.Version.
	UpdateGame(ctx context.Context, c Change, results ...Result) error
	RecordResult(ctx context.Context, player string, r Result) error
	// GiveUp marks the game, at version, given up for its analysis and
	// records r as its lineage's final loss, in one transaction, giving
	// up the lineage's other games too (unless it was won); ErrStale if
	// the game is no longer at version.
	GiveUp(ctx context.Context, player, id string, version int64, at time.Time, r Result) error
	// PruneGames deletes the games unchanged since idle, and those with no
	// move played unchanged since unplayed.
	PruneGames(ctx context.Context, idle, unplayed time.Time) (int64, error)
	// Seen records that player was seen now, if the store knows player:
	// recorded before, or owning a row PruneUnseen would delete. It
	// reports whether it knows player; a later time only ever replaces an
	// earlier one, and an unknown player costs no write. A store servers
	// share (PostgreSQL) takes the time from the database's clock instead
	// of now, so that servers' clocks need not agree.
	Seen(ctx context.Context, player string, now time.Time) (known bool, err error)
	// PruneUnseen deletes everything stored for the players last seen
	// more than age before now (the database's now on a shared store, as
	// Seen): games, named saves, results, settings, a person's rating, and
	// the record of when they were seen. It returns how many players it
	// forgot.
	PruneUnseen(ctx context.Context, now time.Time, age time.Duration) (int64, error)
}

// KeepStore keeps what a player has besides games in play: named saves,
// statistics and settings; *store.DB has it.
type KeepStore interface {
	Saves(ctx context.Context, player string) ([]Save, error)
	Save(ctx context.Context, player, name string) (Save, error)
	// LineageGivenUp is whether player's lineage was given up for its
	// analysis (Save.GaveUp).
	LineageGivenUp(ctx context.Context, player, lineage string) (bool, error)
	PutSave(ctx context.Context, s Save) error
	DeleteSave(ctx context.Context, player, name string) error
	Stats(ctx context.Context, player string) ([]Group, error)
	Settings(ctx context.Context, player string) (string, error)
	PutSettings(ctx context.Context, player, json string) error
	// PutSettingsRev stores the settings unless those kept have a newer
	// revision, and returns the settings kept afterwards (NoRevision:
	// stored whatever is kept), with the revision kept.
	PutSettingsRev(ctx context.Context, player, json string, rev int64) (string, int64, error)
	// SettingsRev returns the settings kept and the revision kept
	// beside them, their one revision (the Spider page's handlers store
	// the JSON without a "rev" and answer with this one).
	SettingsRev(ctx context.Context, player string) (string, int64, error)
	// AdoptLegacy gives player the rows stored before players existed,
	// reporting whether there were any.
	AdoptLegacy(ctx context.Context, player string) (bool, error)
}

// Store is all a Spider server needs of the database.
type Store interface {
	GameStore
	KeepStore
}

// Options configure the service. The zero value is usable.
type Options struct {
	Log *slog.Logger
	// Now is the clock (tests fix it); time.Now if nil.
	Now func() time.Time
	// CacheBytes bounds the estimated memory of the games kept in memory
	// (default 256 MiB), MaxGames their count (default 100,000); the least
	// recently used beyond either are read back from the database when used.
	CacheBytes int
	MaxGames   int
	// Shared: other servers write the same database (PostgreSQL). Each
	// use of a cached game then first reads its stored version (one
	// indexed row) and reads the game again if another server moved it on
	// or pruned it, so no server serves, or builds a move on, a game older
	// than the last one stored. Without it (a SQLite file, which one
	// process holds) the cache is trusted as it is; versioned writes still
	// refuse a stale state either way.
	Shared bool
	// Forget is how long an identity may go unseen before everything it
	// stored is pruned (once ForgetMargin more has passed): the identity
	// cookie's life (web.PlayerMaxAge), after which nobody can hold it.
	// 0: identities are neither recorded (Seen) nor forgotten.
	Forget time.Duration
}

// Service is the set of games in play: the database is the truth, and
// recently used games are kept in memory (checked against the stored
// version on each use when the database is Shared), each behind its own lock so that
// commands on one game (from several tabs) run one at a time while other
// games go on in parallel. Memory is bounded by the games' estimated size
// (maxBytes), and by their count (maxCount); the least recently used go
// first. Every method hands back values (Snapshot, copies of games), never
// a game still in the cache.
type Service struct {
	db       GameStore
	log      *slog.Logger
	now      func() time.Time
	maxCount int
	maxBytes int
	shared   bool          // Options.Shared
	forget   time.Duration // Options.Forget
	seen     seenMemo
	// snapMin is the fewest commands between snapshots (snapshotMin;
	// tests lower it).
	snapMin int

	mu    sync.Mutex
	cache map[string]*entry
	lru   *list.List // of *entry, most recently used first
	bytes int        // sum of the entries' sizes

	// afterRead, if set, runs in load between reading a game and caching
	// it: tests use it to change the game in that window.
	afterRead func(id string)
}

// New makes the service over db.
func New(db GameStore, o Options) *Service {
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
	return &Service{db: db, log: o.Log, now: o.Now, maxCount: o.MaxGames, maxBytes: o.CacheBytes,
		shared: o.Shared, forget: o.Forget, snapMin: snapshotMin, cache: map[string]*entry{}, lru: list.New()}
}

// Snapshot is a game as it stands at one version: what a player is shown
// of it.
type Snapshot struct {
	ID string
	// Version counts the commands accepted on the game (1 when it
	// starts): a command may name the version it was meant for (Play).
	Version int64
	View    spider.View
	Clock   Clock
	// GaveUp: the player gave this game up for its analysis, or had it
	// analysed once stuck: it takes no more commands.
	GaveUp bool
}

// snapshot is e (locked) at now.
func snapshot(e *entry, now time.Time) Snapshot {
	return Snapshot{ID: e.id, Version: e.version, View: e.g.View(false), Clock: clockOf(e, now), GaveUp: e.gaveUp}
}

// Errors of the service; the web adapter maps them to its error classes.
var (
	// ErrGivenUp refuses a command on a game given up for its analysis.
	ErrGivenUp = errors.New("this game was given up for its analysis, which showed its hidden cards: it takes no more moves; start a new game (the New game dialog takes its deal number to play it again)")
	// ErrInPlay refuses the analysis of a game in play not given up.
	ErrInPlay = errors.New("this game is still in play: the analysis uses the hidden cards, so it is only for a game that is over (give it up first)")
	// ErrBehind is what a *BehindError wraps.
	ErrBehind = errors.New("this game changed in another tab or window")
)

// BehindError refuses a command meant for another version of its game
// than the stored one: another tab or window played it meanwhile. It
// carries the game as it stands, so the tab can catch up.
type BehindError struct {
	Game Snapshot
}

func (e *BehindError) Error() string {
	return "this game changed in another tab or window: here it is as it stands now"
}

func (e *BehindError) Unwrap() error { return ErrBehind }

// Start stores player's new game g (the service owns g from then on) and
// returns it. lineage "" starts a new lineage; played is the play time it
// starts with (an opened save's). With gaveUp, the game starts given up
// for its analysis unless it is won: closed to commands, its lineage's
// loss recorded as final (which closes the lineage's other games too).
// previous, if not "", is the game the player leaves for it: once the new
// game is stored, it counts as lost if it was played since it was
// started or loaded and was not won (abandon; failing to count it is
// logged, not worth refusing the new game for).
func (gs *Service) Start(ctx context.Context, player string, g *spider.Game, lineage string, played time.Duration, gaveUp bool, previous string) (Snapshot, error) {
	e, err := gs.add(ctx, player, g, lineage, played, gaveUp)
	if err != nil {
		return Snapshot{}, err
	}
	if err := gs.abandon(ctx, player, previous); err != nil {
		gs.log.WarnContext(ctx, "recording an abandoned game", "game", previous, "err", err)
	}
	e.mu.Lock()
	s := snapshot(e, gs.now())
	e.mu.Unlock()
	if s.GaveUp {
		// The store closed the lineage's other games with it.
		gs.forgetLineage(e)
	}
	return s, nil
}

// Get is player's game id as it stands.
func (gs *Service) Get(ctx context.Context, player, id string) (Snapshot, error) {
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return Snapshot{}, err
	}
	defer e.mu.Unlock()
	return snapshot(e, gs.now()), nil
}

// Read runs f on player's game id while no command can change it; f must
// neither change g nor keep it (g.Clone for a copy to work on).
func (gs *Service) Read(ctx context.Context, player, id string, f func(g *spider.Game)) error {
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return err
	}
	defer e.mu.Unlock()
	f(e.g)
	return nil
}

// Play applies c to player's game id, stores it, and returns the game as it
// then stands and the move played (in notation; "" for a command that is
// no move: undo, redo, restart). base, if not 0, is the version the command
// was meant for (the one the player's tab shows): at any other version the
// command is refused with a *BehindError holding the game as it stands.
// A write found stale is tried again on a fresh read of the game.
func (gs *Service) Play(ctx context.Context, player, id string, c spider.Command, base int64) (Snapshot, string, error) {
	e, m, moved, err := gs.play(ctx, player, id, c, base)
	if err != nil {
		return Snapshot{}, "", err
	}
	defer e.mu.Unlock()
	move := ""
	if moved {
		move = m.String()
	}
	return snapshot(e, gs.now()), move, nil
}

// Saved is player's game id as a named save keeps it: everything but the
// name, the time and the given-up mark, which the caller adds.
func (gs *Service) Saved(ctx context.Context, player, id string) (Save, error) {
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return Save{}, err
	}
	defer e.mu.Unlock()
	return Save{Player: player, Lineage: e.lineage, Save: e.g.Save(), Summary: summary(e.g), Played: e.played}, nil
}

// Lineage is the lineage of player's game id: the game it was first
// started as, which its named saves share (Save.Lineage).
func (gs *Service) Lineage(ctx context.Context, player, id string) (string, error) {
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return "", err
	}
	defer e.mu.Unlock()
	return e.lineage, nil
}

// Cached reports whether game id is in memory (the rest are read back from
// the store when used).
func (gs *Service) Cached(id string) bool {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	_, ok := gs.cache[id]
	return ok
}

// Replay is the game a stored row holds: its snapshot with its log
// replayed.
func Replay(rec Game) (*spider.Game, error) {
	e, err := replay(rec)
	if err != nil {
		return nil, err
	}
	return e.g, nil
}

// CacheStats is the games held in memory: their estimated bytes and their
// count (for metrics).
func (gs *Service) CacheStats() (bytes, games int) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	return gs.bytes, len(gs.cache)
}

// CacheBudget is the bound on the games' estimated bytes (for metrics).
func (gs *Service) CacheBudget() int { return gs.maxBytes }
