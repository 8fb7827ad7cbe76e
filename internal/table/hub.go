package table

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"cardtable/arlington"
)

// Bot chooses an action for the seat of the view it is given, which is to
// move: one of v.Legal(), or an error (ctx ended, promptly, or no legal
// action). A table asks one bot one question at a time. The bots of
// arlington/bot have it; the wiring layer hands them in (BotFactory), so
// that this package depends on no bot.
type Bot interface {
	Name() string
	Act(ctx context.Context, v arlington.View) (arlington.Action, error)
}

// BotFactory makes a bot of a level with its own seed (the wiring layer
// passes arlington/bot's New); an unknown level is an error.
type BotFactory func(level string, seed uint64) (Bot, error)

// Observer is told what the tables do, for metrics; the wiring layer
// implements it. Its methods are called from the tables' goroutines and
// the bots' and must be quick.
type Observer interface {
	// Acted: an action was applied, stored and its update queued for
	// every connection, d after it began.
	Acted(d time.Duration)
	// BotThought: a bot of level took d to choose an action.
	BotThought(level string, d time.Duration)
	// UnreadableTable: a stored table was found that cannot be replayed
	// here; told once per table (Hub.unreadable).
	UnreadableTable()
}

type nopObserver struct{}

func (nopObserver) Acted(time.Duration)              {}
func (nopObserver) BotThought(string, time.Duration) {}
func (nopObserver) UnreadableTable()                 {}

// Options configure a Hub. Store and Bots are required.
type Options struct {
	Store Store
	Bots  BotFactory
	// Clock is the source of time for turn timers, idle closing and chat
	// limits (default: the real clock).
	Clock Clock
	// Seed draws deal and bot seeds (default: crypto/rand). Each call is
	// a fresh draw: a table's bots never share its deal's seed.
	Seed func() uint64
	// MaxTables bounds the live tables (default 200); MaxPerPlayer the
	// live tables one identity has created and not finished (default 3).
	MaxTables, MaxPerPlayer int
	// MaxPerAddress bounds the live tables (finished ones too, until they
	// close) created from one client address (default 20; negative: no
	// bound), so fresh identities from one address cannot fill the lobby.
	MaxPerAddress int
	// Reserve is how many of the last places under MaxTables go only to a
	// creator with no unfinished table open, neither their identity nor
	// their address (default MaxTables/10; negative: none).
	Reserve int
	// BotWorkers bounds the bot decisions running at once, all tables
	// together (default GOMAXPROCS-1, at least 1): a table whose bot is to
	// act waits its turn for a worker, in the order the tables asked, so
	// however many tables are watched the server keeps a core for
	// everything else.
	BotWorkers int
	// IdleAfter is how long a table with nobody connected stays open
	// (default 15 minutes).
	IdleAfter time.Duration
	// BotTime is how long a bot may think about one action (default 5 s):
	// past it the bot's answer is dropped and a random legal action is
	// played in its place, so a table never waits longer on a bot.
	BotTime time.Duration
	// KeepRecords is how long the store keeps a finished table (over, or
	// closed idle) after it finished, so that its record can be
	// downloaded (default 90 days; negative: kept for ever). The hub
	// prunes older ones at its start and every PruneEvery (default an
	// hour) if the Store can (Pruner).
	KeepRecords, PruneEvery time.Duration
	// Logf reports what no caller can be told (a store error on a bot's
	// action, a table that cannot be restored). Default: discard.
	Logf func(format string, args ...any)
	// Observer is told of actions and bot decisions, for metrics
	// (default: nobody).
	Observer Observer
	// Claims share the tables with other servers over one store (nil:
	// this hub runs every open table); ScanEvery is how often the hub
	// takes orphaned tables and drops those it lost (default 1 s).
	Claims    Claims
	ScanEvery time.Duration

	onPrune func(int64) // tests: a pruning round ended, with how many it deleted
	// stopWait is how long a scan waits for a table's old copy here to
	// stop before starting the claim it took, or for the tables it stops
	// once its lease ran out or another server took them (default
	// storeTimeout; tests change it).
	stopWait time.Duration
	// onAdrift: tests: the scan found the lease run out (dropAdrift),
	// with the tables to start again once the store answers.
	onAdrift func(adrift []string)
	// onResume: tests: the scan loaded table id, stopped while the lease
	// was run out, and is about to run it again (resumeAdrift).
	onResume func(id string)
	// onTake: tests: the scan claimed orphaned table id and loaded it,
	// and is about to run it (takeOrphans).
	onTake func(id string)
}

// Defaults of Options.
const (
	DefaultMaxTables    = 200
	DefaultMaxPerPlayer = 3
	DefaultMaxPerAddr   = 20
	DefaultIdleAfter    = 15 * time.Minute
	DefaultBotTime      = 5 * time.Second
	DefaultKeepRecords  = 90 * 24 * time.Hour
	DefaultPruneEvery   = time.Hour
	DefaultScanEvery    = time.Second
	// storeTimeout bounds one store write, so a stuck disk cannot hold a
	// table's goroutine for ever.
	storeTimeout = 10 * time.Second
	// releaseTimeout bounds giving the tables back at Close: a server
	// stopping exits within seconds even if the store does not answer
	// (the others then take the tables when its lease runs out).
	releaseTimeout = 2 * time.Second
)

// Hub owns the live tables. It is safe for concurrent use.
type Hub struct {
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	tables map[string]*Table
	gen    uint64 // tables started so far (Table.born), under mu

	// wmu guards watching: each identity's spectator connections, all
	// tables together (at most MaxWatching). A lock of its own, taken by
	// the tables' goroutines, never held while waiting on anything.
	wmu      sync.Mutex
	watching map[string]int

	workers *workers // the bot decisions' shared pool

	// unstartable is the claimed tables this hub could not restore and
	// gave back, never taken again here (at most maxUnstartable; only the
	// scan uses it).
	unstartable idSet
	// adrift is the tables stopped while this server's lease was run out
	// (dropAdrift), to start again once the store answers if still held.
	// Only the scan writes it, under mu; read elsewhere under mu. Each
	// counts against MaxTables as a running table does (occupied), so the
	// tables run and adrift together stay within MaxTables, and adrift,
	// noted from the tables run, with them; its bound, twice MaxTables,
	// is a margin past that (noteAdrift).
	adrift idSet

	// umu guards unreadables: the stored tables already reported as
	// unreadable (at most maxUnreadable), so that each is reported once.
	umu         sync.Mutex
	unreadables idSet

	onStale func() // tests: a stale bot answer was dropped
	// onRematchFound: tests: RematchFrom found the old table live, before
	// it asks the table anything.
	onRematchFound func()
}

// NewHub starts a hub and restores every open table from the store; each
// table runs until ctx is done, Close is called or it is closed idle. A
// table the store holds but that cannot be replayed is reported through
// Logf and left in the store, not started.
func NewHub(ctx context.Context, o Options) (*Hub, error) {
	if o.Store == nil || o.Bots == nil {
		return nil, errors.New("table: NewHub needs a Store and a BotFactory")
	}
	o = o.withDefaults()
	h := &Hub{o: o, tables: map[string]*Table{}, watching: map[string]int{}, workers: newWorkers(o.BotWorkers),
		unstartable: newIDSet(maxUnstartable), unreadables: newIDSet(maxUnreadable),
		adrift: newIDSet(2 * o.MaxTables)}
	h.ctx, h.cancel = context.WithCancel(ctx)
	if o.Claims != nil {
		// The tables are shared: this hub takes its part of them (the
		// orphans) now and at every scan (claims.go).
		h.takeOrphans()
		h.wg.Add(1)
		go func() { // exits when h.ctx ends
			defer h.wg.Done()
			h.scan()
		}()
	} else if err := h.restoreAll(ctx); err != nil {
		h.cancel()
		return nil, err
	}
	if p, ok := o.Store.(Pruner); ok && o.KeepRecords > 0 {
		h.wg.Add(1)
		go func() { // exits when h.ctx ends
			defer h.wg.Done()
			h.prune(p)
		}()
	}
	return h, nil
}

// withDefaults is o with every unset field given its default.
func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Seed == nil {
		o.Seed = cryptoSeed
	}
	if o.MaxTables <= 0 {
		o.MaxTables = DefaultMaxTables
	}
	if o.MaxPerPlayer <= 0 {
		o.MaxPerPlayer = DefaultMaxPerPlayer
	}
	if o.MaxPerAddress == 0 {
		o.MaxPerAddress = DefaultMaxPerAddr
	}
	if o.Reserve == 0 {
		o.Reserve = o.MaxTables / 10
	}
	if o.BotWorkers <= 0 {
		o.BotWorkers = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if o.IdleAfter <= 0 {
		o.IdleAfter = DefaultIdleAfter
	}
	if o.BotTime <= 0 {
		o.BotTime = DefaultBotTime
	}
	if o.KeepRecords == 0 {
		o.KeepRecords = DefaultKeepRecords
	}
	if o.PruneEvery <= 0 {
		o.PruneEvery = DefaultPruneEvery
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	if o.ScanEvery <= 0 {
		o.ScanEvery = DefaultScanEvery
	}
	if o.stopWait <= 0 {
		o.stopWait = storeTimeout
	}
	return o
}

func cryptoSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return binary.LittleEndian.Uint64(b[:])
}

func (h *Hub) validLevel(level string) bool {
	_, err := h.o.Bots(level, 0)
	return err == nil
}

// Close stops every table and waits for their goroutines. The tables stay
// open in the store: a new hub resumes them. With Claims they are then
// released, so that another server takes them at once: those running
// here and those stopped while the store was out of reach and not yet
// started again (adrift), which this server may still hold. A store
// still out of reach refuses the release (logged); the others then
// take the tables once this server's lease has run out, as they would
// had it died.
func (h *Hub) Close() {
	h.mu.Lock()
	ids := make([]string, 0, len(h.tables))
	for id := range h.tables {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	h.cancel()
	h.wg.Wait()
	if h.o.Claims == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), releaseTimeout)
	defer cancel()
	// The scan has exited: adrift is no longer written, and nothing is
	// claimed any more. What the store says this server holds is given
	// back too: a table started after the list above was made, or one
	// whose give-back failed. An id another server took since is not
	// this server's to release; the store's Release gives up only those
	// it still holds.
	more := h.adrift.list()
	if held, err := h.o.Claims.Held(ctx); err == nil {
		more = append(more, slices.Sorted(maps.Keys(held))...)
	}
	for _, id := range more {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		if err := h.o.Claims.Release(ctx, ids); err != nil {
			h.o.Logf("releasing %d tables: %v", len(ids), err)
		}
	}
}

// CreateFrom opens a new table with cfg, created by player creator (an
// identity) whose request came from client address addr ("" unknown),
// and stores it before returning it. Nobody is seated yet: the creator
// joins like anyone else. The tables one address opens are bounded
// (MaxPerAddress), and the last Reserve places go only to a creator
// whose identity and address have no unfinished table open.
func (h *Hub) CreateFrom(ctx context.Context, creator, addr string, cfg Config) (*Table, error) {
	if err := checkID(creator); err != nil {
		return nil, err
	}
	cfg, err := cfg.normalize(h.validLevel)
	if err != nil {
		return nil, err
	}
	if err := cfg.checkRated(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.mayCreate(creator, addr); err != nil {
		return nil, err
	}
	return h.createLocked(ctx, creator, addr, cfg, rand.Text(), make([]StoredSeat, cfg.Players))
}

// createLocked stores and starts a table of the normalized cfg, with id
// and seats, under h.mu, once the limits are checked.
func (h *Hub) createLocked(ctx context.Context, creator, addr string, cfg Config, id string, seats []StoredSeat) (*Table, error) {
	seed := h.o.Seed()
	st, err := arlington.New(arlington.Config{Players: cfg.Players, Target: cfg.Target}, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
	}
	js, _ := json.Marshal(cfg)
	now := h.o.Clock.Now().UTC()
	rec := Stored{ID: id, Creator: creator, Config: string(js), Seed: seed,
		Seats: seats, Status: StatusOpen, Created: now, Updated: now}
	if err := h.o.Store.CreateTable(ctx, rec); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	t := newTable(h, rec, cfg, st)
	t.addr = addr
	h.startLocked(t)
	return t, nil
}

// occupied is how many of the MaxTables places are taken: the tables
// run here and those stopped while the lease was run out, waiting to
// start again here (adrift); a table in both (its stopped copy still
// leaving) counts twice, for a moment. h.mu must be held.
func (h *Hub) occupied() int { return len(h.tables) + len(h.adrift.ids) }

// mayCreate says whether creator, from addr, may open one more table.
// h.mu must be held.
func (h *Hub) mayCreate(creator, addr string) error {
	if h.occupied() >= h.o.MaxTables {
		return h.fullErr()
	}
	mine, fromAddr, openAddr := 0, 0, 0
	for _, t := range h.tables {
		open := t.Summary().Status != StatusOver
		if t.creator == creator && open {
			mine++
		}
		if addr != "" && t.addr == addr {
			fromAddr++
			if open {
				openAddr++
			}
		}
	}
	switch {
	case mine >= h.o.MaxPerPlayer:
		return fmt.Errorf("%w: you have %d tables open", ErrTooMany, mine)
	case h.o.MaxPerAddress > 0 && fromAddr >= h.o.MaxPerAddress:
		return fmt.Errorf("%w: %d tables open from your address", ErrTooMany, fromAddr)
	case h.o.Reserve > 0 && h.occupied() >= h.o.MaxTables-h.o.Reserve && mine+openAddr > 0:
		return fmt.Errorf("%w: the last %d of %d places are kept for players with no table open", ErrTooMany, h.o.Reserve, h.o.MaxTables)
	}
	return nil
}

// fullErr is the refusal at MaxTables, counting both kinds of place:
// the tables run here, and those waiting to start again (adrift), so
// that the numbers it gives add up to the limit. h.mu must be held.
func (h *Hub) fullErr() error {
	if n := len(h.adrift.ids); n > 0 {
		return fmt.Errorf("%w: %d tables open and %d waiting to start again (the limit is %d)",
			ErrTooMany, len(h.tables), n, h.o.MaxTables)
	}
	return fmt.Errorf("%w: %d tables open", ErrTooMany, len(h.tables))
}

func (h *Hub) start(t *Table) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.startLocked(t)
}

func (h *Hub) startLocked(t *Table) {
	h.gen++
	t.born = h.gen
	h.tables[t.id] = t
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t.run(h.ctx)
	}()
}

func (h *Hub) remove(t *Table) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tables[t.id] == t {
		delete(h.tables, t.id)
	}
}

// watch counts one more spectator connection of player, unless they
// already hold MaxWatching.
func (h *Hub) watch(player string) bool {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	if h.watching[player] >= MaxWatching {
		return false
	}
	h.watching[player]++
	return true
}

// unwatch counts one spectator connection of player less.
func (h *Hub) unwatch(player string) {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	if h.watching[player]--; h.watching[player] <= 0 {
		delete(h.watching, player)
	}
}

// Table is the live table id, or ErrNotFound.
func (h *Hub) Table(id string) (*Table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.tables[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return t, nil
}

// List is a summary of every live table, newest first: those waiting for
// people, in play and over (not yet closed).
func (h *Hub) List() []Summary {
	h.mu.Lock()
	out := make([]Summary, 0, len(h.tables))
	for _, t := range h.tables {
		out = append(out, t.Summary())
	}
	h.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.After(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}
