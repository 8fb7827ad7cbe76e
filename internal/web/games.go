package web

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"cardtable/internal/store"
	"cardtable/spider"
)

// games is the set of games in play: the database is the truth, and recently
// used games are kept in memory, each behind its own lock so that commands on
// one game (from several tabs) run one at a time while other games go on in
// parallel.
type games struct {
	db  *store.DB
	now func() time.Time
	max int // games kept in memory; the least recently used go beyond it

	mu    sync.Mutex
	cache map[string]*entry
	clock uint64 // counts uses, for LRU eviction
}

// entry is one game in memory. mu guards every field but used.
type entry struct {
	mu      sync.Mutex
	id      string
	lineage string
	g       *spider.Game
	created time.Time
	// dead means the entry left the cache (evicted, or its state could not
	// be stored): whoever holds it must look the game up again.
	dead bool
	used uint64 // guarded by games.mu
}

func newGames(db *store.DB, now func() time.Time, max int) *games {
	return &games{db: db, now: now, max: max, cache: map[string]*entry{}}
}

// newID returns a fresh unguessable game id.
func newID() string { return rand.Text() }

// record turns a game into its database row.
func (e *entry) record(now time.Time) store.GameRecord {
	return store.GameRecord{ID: e.id, Lineage: e.lineage, Save: e.g.Save(),
		Summary: summary(e.g), Created: e.created, Updated: now}
}

func summary(g *spider.Game) store.Summary {
	o := g.Options()
	return store.Summary{Variant: o.Variant.String(), Suits: o.Suits, Deal: g.Deal(),
		Moves: g.MovesPlayed(), Score: g.Score().Counted}
}

// add stores a new game and keeps it in memory. lineage "" starts a new
// lineage (the game's own id).
func (gs *games) add(ctx context.Context, g *spider.Game, lineage string) (*entry, error) {
	now := gs.now()
	e := &entry{id: newID(), g: g, lineage: lineage, created: now}
	if e.lineage == "" {
		e.lineage = e.id
	}
	if err := gs.db.CreateGame(ctx, e.record(now)); err != nil {
		return nil, err
	}
	gs.mu.Lock()
	gs.put(e)
	gs.mu.Unlock()
	return e, nil
}

// put inserts e and evicts the least recently used games beyond max.
// gs.mu must be held.
func (gs *games) put(e *entry) {
	gs.clock++
	e.used = gs.clock
	gs.cache[e.id] = e
	if len(gs.cache) <= gs.max {
		return
	}
	// Evict the older half in one pass, so eviction costs O(1) a game.
	// Entries in use are skipped: their holders still need them live.
	cut := gs.clock - uint64(gs.max/2)
	for id, o := range gs.cache {
		if o.used < cut && o.mu.TryLock() {
			o.dead = true
			delete(gs.cache, id)
			o.mu.Unlock()
		}
	}
}

// lock returns game id, locked; the caller must unlock e.mu.
func (gs *games) lock(ctx context.Context, id string) (*entry, error) {
	for {
		gs.mu.Lock()
		e, ok := gs.cache[id]
		if ok {
			gs.clock++
			e.used = gs.clock
		}
		gs.mu.Unlock()
		if !ok {
			var err error
			if e, err = gs.load(ctx, id); err != nil {
				return nil, err
			}
		}
		e.mu.Lock()
		if !e.dead {
			return e, nil
		}
		e.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// load reads game id from the database into the cache, unless another
// request got there first.
func (gs *games) load(ctx context.Context, id string) (*entry, error) {
	rec, err := gs.db.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := spider.Load(rec.Save)
	if err != nil {
		// The server wrote this text itself: failing to read it is a
		// server fault, not the client's.
		return nil, fmt.Errorf("game %s: stored save unreadable: %v", id, err)
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if o, ok := gs.cache[id]; ok {
		return o, nil
	}
	e := &entry{id: id, lineage: rec.Lineage, g: g, created: rec.Created}
	gs.put(e)
	return e, nil
}

// drop forgets e (locked by the caller) so the next request reloads the game
// from the database: used when its new state could not be stored.
func (gs *games) drop(e *entry) {
	e.dead = true
	gs.mu.Lock()
	if gs.cache[e.id] == e {
		delete(gs.cache, e.id)
	}
	gs.mu.Unlock()
}

// outcome is the statistics entry a game's state calls for, if any: a win
// once won, a loss once stuck (no moves left).
func outcome(e *entry, now time.Time) []store.Result {
	switch {
	case e.g.Won():
		return []store.Result{result(e, true, now)}
	case e.g.Stuck():
		return []store.Result{result(e, false, now)}
	}
	return nil
}

func result(e *entry, won bool, now time.Time) store.Result {
	o := e.g.Options()
	return store.Result{Lineage: e.lineage, Variant: o.Variant.String(), Suits: o.Suits,
		Won: won, Score: e.g.Score().Counted, At: now}
}

// commit stores e's new state (e locked) before the reply. On failure the
// game leaves the cache, so memory never runs ahead of the database: the
// next request sees the last stored state.
func (gs *games) commit(ctx context.Context, e *entry) error {
	now := gs.now()
	// An accepted move is stored even if the player closes the tab meanwhile.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := gs.db.UpdateGame(ctx, e.record(now), outcome(e, now)...); err != nil {
		gs.drop(e)
		return err
	}
	return nil
}

// abandon records game id as lost if the player leaves it for another game
// after playing at least one move without winning. An unknown id is ignored:
// starting the new game matters more.
func (gs *games) abandon(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	e, err := gs.lock(ctx, id)
	if err != nil {
		return nil
	}
	defer e.mu.Unlock()
	if e.g.MovesPlayed() == 0 || e.g.Won() {
		return nil
	}
	return gs.db.RecordResult(context.WithoutCancel(ctx), result(e, false, gs.now()))
}
