package spidergame

import (
	"container/list"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"cardtable/spider"
)

// entry is one game in memory. mu guards every field but elem and size.
type entry struct {
	mu      sync.Mutex
	id      string
	player  string
	lineage string
	g       *spider.Game
	created time.Time
	// version is the stored version g is at; logn the commands logged
	// since the last snapshot, which held base steps.
	version    int64
	logn, base int
	// dead means the entry left the cache (evicted, or its state could not
	// be stored): whoever holds it must look the game up again.
	dead bool
	// played is the active play time up to last, the time of the latest
	// command (or of the start): see playtime.go.
	played time.Duration
	last   time.Time
	// gaveUp: the player gave the game up for its analysis (or had a
	// stuck game analysed); it takes no more commands. Stored with the
	// game (docs/analysis.md "The web route").
	gaveUp bool

	elem *list.Element // guarded by Service.mu
	size int           // guarded by Service.mu
}

// entryOverhead is what an entry costs beyond its game: the entry, its map
// slot and list element, measured roughly.
const entryOverhead = 512

// entrySize is what keeping g costs the process: its live bytes (entry and
// game, which TestCacheEstimate finds within a few percent of the heap they
// hold) times the garbage collector's headroom, since the heap grows to
// (1 + GOGC/100) times its live bytes before a collection (twice, by
// default). Counting live bytes alone let a full cache take twice its
// budget and more.
func entrySize(g *spider.Game) int {
	return (entryOverhead + g.Footprint()) * (100 + gcPercent) / 100
}

// gcPercent is GOGC as the runtime reads it at start (100 unless set; off
// counts as 0: no headroom, the heap is never collected anyway).
var gcPercent = func() int {
	if p, err := strconv.Atoi(os.Getenv("GOGC")); err == nil && p >= 0 {
		return p
	}
	if os.Getenv("GOGC") == "off" {
		return 0
	}
	return 100
}()

// snapshotMin is the fewest commands logged between two snapshots of a
// game. Beyond it a snapshot is taken once the log is as long as the last
// snapshot's steps, so a snapshot's cost (the whole save) is spread over
// at least as many commands: each costs O(1) on average, and reading a
// game back replays at most max(snapshotMin, its steps) commands.
const snapshotMin = 1000

// newID returns a fresh unguessable game id, maxIDLen characters.
func newID() string { return rand.Text() }

// maxIDLen is the length of every game id newID makes (rand.Text's 26
// base32 characters). A longer id names no game: it is refused before
// any lookup, and its error does not quote it, so a client sending
// kilobytes of id gets a short answer.
const maxIDLen = 26

func summary(g *spider.Game) Summary {
	o := g.Options()
	return Summary{Variant: o.Variant.String(), Suits: o.Suits, Deal: g.Deal(),
		Moves: g.MovesPlayed(), Score: g.Score().Counted}
}

// add stores player's new game and keeps it in memory. lineage "" starts a
// new lineage (the game's own id); played is the play time it starts with
// (an opened save's). With gaveUp, the game starts given up for its
// analysis unless it is won: closed to commands, its lineage's loss
// recorded as final in the same write.
func (gs *Service) add(ctx context.Context, player string, g *spider.Game, lineage string, played time.Duration, gaveUp bool) (*entry, error) {
	now := gs.now()
	e := &entry{id: newID(), player: player, g: g, lineage: lineage, created: now,
		version: 1, base: g.Steps(), played: played, last: now, gaveUp: gaveUp && !g.Won()}
	if e.lineage == "" {
		e.lineage = e.id
	}
	rec := Game{ID: e.id, Player: player, Lineage: e.lineage, Save: g.Save(),
		Summary: summary(g), Created: now, Updated: now, Played: played, GaveUp: e.gaveUp}
	var results []Result
	if e.gaveUp {
		loss := result(e, false, now, played)
		loss.GaveUp = true
		results = append(results, loss)
	}
	if err := gs.db.CreateGame(ctx, rec, results...); err != nil {
		return nil, err
	}
	gs.mu.Lock()
	gs.put(e)
	gs.mu.Unlock()
	return e, nil
}

// put inserts e as the most recently used game and evicts others beyond
// the bounds. gs.mu must be held.
func (gs *Service) put(e *entry) {
	gs.cache[e.id] = e
	e.elem = gs.lru.PushFront(e)
	e.size = entrySize(e.g)
	gs.bytes += e.size
	gs.shrink(e)
}

// resize notes e's size after a change (e locked by the caller) and evicts
// others if the cache is now over its bounds.
func (gs *Service) resize(e *entry) {
	size := entrySize(e.g)
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.cache[e.id] != e {
		return
	}
	gs.bytes += size - e.size
	e.size = size
	gs.shrink(e)
}

// shrink evicts the least recently used games, but keep, until the cache is
// within its bounds. Entries in use are skipped: their holders still need
// them live. gs.mu must be held.
func (gs *Service) shrink(keep *entry) {
	for el := gs.lru.Back(); el != nil && (gs.bytes > gs.maxBytes || gs.lru.Len() > gs.maxCount); {
		prev := el.Prev()
		if o := el.Value.(*entry); o != keep && o.mu.TryLock() {
			o.dead = true
			gs.remove(o)
			o.mu.Unlock()
		}
		el = prev
	}
}

// remove takes o out of the cache. gs.mu must be held.
func (gs *Service) remove(o *entry) {
	delete(gs.cache, o.id)
	gs.lru.Remove(o.elem)
	gs.bytes -= o.size
}

// lock returns player's game id, locked; the caller must unlock e.mu.
// Another player's game is not found. On a Shared database the game is
// the one last stored, whichever server stored it (current).
func (gs *Service) lock(ctx context.Context, player, id string) (*entry, error) {
	if len(id) > maxIDLen {
		return nil, fmt.Errorf("game id of %d bytes, longer than any game's: %w", len(id), ErrNotFound)
	}
	for {
		gs.mu.Lock()
		e, ok := gs.cache[id]
		if ok {
			gs.lru.MoveToFront(e.elem)
		}
		gs.mu.Unlock()
		checked := false // e was read just now, its version checked
		if !ok {
			var err error
			if e, checked, err = gs.load(ctx, player, id); err != nil {
				return nil, err
			}
		}
		if e.player != player {
			return nil, fmt.Errorf("game %q: %w", id, ErrNotFound)
		}
		e.mu.Lock()
		if !e.dead {
			fresh := checked
			var err error
			if !fresh {
				fresh, err = gs.current(ctx, e)
			}
			if err != nil {
				e.mu.Unlock()
				return nil, err
			}
			if fresh {
				return e, nil
			}
		}
		e.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// current reports whether e (locked) is the game as stored, on a Shared
// database where another server may have stored a move or a give-up on
// it, or pruned it, since it was cached: one read of its version (the
// commands on a game come one at a time, under e.mu, so the version
// cannot move on through this server meanwhile). An entry found behind
// leaves the cache, for a fresh read. Alone on its database the service
// trusts its cache.
func (gs *Service) current(ctx context.Context, e *entry) (bool, error) {
	if !gs.shared {
		return true, nil
	}
	v, err := gs.db.GameVersion(ctx, e.id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			gs.drop(e) // pruned by another server
		}
		return false, err
	}
	if v != e.version {
		gs.drop(e)
		return false, nil
	}
	return true, nil
}

// load reads player's game id from the database into the cache, unless
// another request got there first (then checked is false: that entry is
// as old as it is).
func (gs *Service) load(ctx context.Context, player, id string) (e *entry, checked bool, err error) {
	for {
		rec, err := gs.db.Game(ctx, player, id)
		if err != nil {
			return nil, false, err
		}
		e, err := replay(rec)
		if err != nil {
			return nil, false, err
		}
		if gs.afterRead != nil {
			gs.afterRead(id)
		}
		gs.mu.Lock()
		if o, ok := gs.cache[id]; ok {
			gs.mu.Unlock()
			return o, false, nil
		}
		// While the game is out of the cache this server cannot change
		// it (every change goes through a cached entry), but a change may
		// have been stored since the read above, by an entry evicted
		// since, or by another server: a stale read must not be cached,
		// or its next move would build on it.
		v, err := gs.db.GameVersion(ctx, id)
		if err == nil && v == rec.Version {
			gs.put(e)
			gs.mu.Unlock()
			return e, true, nil
		}
		gs.mu.Unlock()
		if err != nil {
			return nil, false, err
		}
	}
}

// replay makes the entry of a stored game: its snapshot, then its log.
func replay(rec Game) (*entry, error) {
	// The server wrote this game itself: failing to read it is a server
	// fault, not the client's (the engine's error not wrapped, so it is
	// not taken for a bad request).
	g, err := spider.Load(rec.Save)
	if err != nil {
		return nil, fmt.Errorf("%w: game %s: stored save: %v", ErrUnreadable, rec.ID, err)
	}
	e := &entry{id: rec.ID, player: rec.Player, lineage: rec.Lineage, g: g, created: rec.Created,
		version: rec.Version, logn: len(rec.Log), base: g.Steps(), played: rec.Played, last: rec.Updated,
		gaveUp: rec.GaveUp}
	for i, cmd := range rec.Log {
		c, err := spider.ParseCommand(cmd)
		if err == nil {
			_, _, err = g.Apply(c)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: game %s: stored command %d %q: %v", ErrUnreadable, rec.ID, i+1, cmd, err)
		}
	}
	return e, nil
}

// writeTimeout bounds a write the player does not wait on (a move's, a
// give-up's): it goes on if the tab closes, but not for ever, since it
// holds the game's lock.
const writeTimeout = 30 * time.Second

// forgetLineage drops from the cache every other game of e's player and
// lineage, once the store has given them up with e (store.RecordResult):
// read back, each refuses commands as any given-up game does. A command
// already under way on one finds its write stale and reads the game back.
// No entry lock may be held by the caller, since it takes theirs.
func (gs *Service) forgetLineage(e *entry) {
	var others []*entry
	gs.mu.Lock()
	for _, o := range gs.cache {
		if o != e && o.player == e.player && o.lineage == e.lineage {
			others = append(others, o)
		}
	}
	gs.mu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		gs.drop(o)
		o.mu.Unlock()
	}
}

// drop forgets e (locked by the caller) so the next request reloads the game
// from the database: used when its new state could not be stored.
func (gs *Service) drop(e *entry) {
	e.dead = true
	gs.mu.Lock()
	if gs.cache[e.id] == e {
		gs.remove(e)
	}
	gs.mu.Unlock()
}

// outcome is the statistics entry a game's state calls for, if any: a win
// once won, a loss once stuck (no moves left). played is its play time.
func outcome(e *entry, now time.Time, played time.Duration) []Result {
	if over, won := e.g.Outcome(); over {
		return []Result{result(e, won, now, played)}
	}
	return nil
}

func result(e *entry, won bool, now time.Time, played time.Duration) Result {
	o := e.g.Options()
	return Result{Lineage: e.lineage, Variant: o.Variant.String(), Suits: o.Suits,
		Won: won, Score: e.g.Score().Counted, At: now, Played: played}
}

// commit stores the command cmd just applied to e (locked) before the
// reply: a row appended to the game's log, or now and then a snapshot. The
// write is conditional on the version e was at; on any failure, a stale
// version included (ErrStale), the game leaves the cache, so memory
// never runs ahead of the database: the next request sees the last stored
// state.
func (gs *Service) commit(ctx context.Context, e *entry, cmd string) error {
	now := gs.now()
	// An accepted move is stored even if the player closes the tab meanwhile.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
	defer cancel()
	played := e.played + activeGap(e.last, now)
	c := Change{ID: e.id, Player: e.player, Version: e.version, Cmd: cmd,
		Summary: summary(e.g), Updated: now, Played: played}
	snap := e.logn+1 >= max(gs.snapMin, e.base)
	if snap {
		c.Snapshot = e.g.Save()
	}
	if err := gs.db.UpdateGame(ctx, c, outcome(e, now, played)...); err != nil {
		gs.drop(e)
		return err
	}
	e.version++
	e.played, e.last = played, now
	if snap {
		e.logn, e.base = 0, e.g.Steps()
	} else {
		e.logn++
	}
	gs.resize(e)
	return nil
}

// maxRetries bounds how often a command is tried again on a fresh read of
// its game after its write was refused as stale.
const maxRetries = 3

// play applies c to player's game id and stores it, retrying on a fresh
// read if the write was based on a stale state. It returns the entry
// locked (the caller unlocks it), the move played and whether it was one.
// base, if not 0, is the version of the game the command was meant for (the
// one the player's tab shows): at any other version the command is refused
// with a *BehindError holding the game as it stands.
func (gs *Service) play(ctx context.Context, player, id string, c spider.Command, base int64) (*entry, spider.Move, bool, error) {
	for try := 0; ; try++ {
		e, err := gs.lock(ctx, player, id)
		if err != nil {
			return nil, spider.Move{}, false, err
		}
		if base != 0 && base != e.version {
			err := &BehindError{snapshot(e, gs.now())}
			e.mu.Unlock()
			return nil, spider.Move{}, false, err
		}
		if e.gaveUp {
			e.mu.Unlock()
			return nil, spider.Move{}, false, ErrGivenUp
		}
		if c.Op == spider.OpRestart && e.g.Steps() == 0 {
			// A restart with no move to take back or forget changes
			// nothing: nothing is stored, so it does not make the game
			// played (abandon).
			return e, spider.Move{}, false, nil
		}
		m, moved, err := e.g.Apply(c)
		if err != nil {
			e.mu.Unlock()
			return nil, m, false, err // the engine changed nothing
		}
		err = gs.commit(ctx, e, logText(c, m, moved))
		if err == nil {
			return e, m, moved, nil
		}
		e.mu.Unlock()
		if !errors.Is(err, ErrStale) || try == maxRetries {
			return nil, m, false, err
		}
	}
}

// logText is the command as logged: a move in full, so that replaying it
// does not depend on how "auto" or a move without a count were resolved.
func logText(c spider.Command, m spider.Move, moved bool) string {
	if moved {
		return m.String()
	}
	return c.String() // undo, redo (with their count) or restart
}

// abandon records player's game id as lost if the player leaves it for
// another game, not won, after a move, undo, redo or restart was made on
// it since it was started or loaded: a command stored since, as its
// version tells (a restart that changes nothing is not stored). A move
// taken back still counts, or a restart or undoing every move before
// leaving would escape the loss; the moves and action count a loaded
// file brings do not, as the file's history is not this game's. An
// unknown id is ignored: starting the new game matters more.
func (gs *Service) abandon(ctx context.Context, player, id string) error {
	if id == "" {
		return nil
	}
	e, err := gs.lock(ctx, player, id)
	if err != nil {
		return nil
	}
	defer e.mu.Unlock()
	if e.version == 1 || e.g.Won() {
		return nil
	}
	return gs.db.RecordResult(context.WithoutCancel(ctx), player, result(e, false, gs.now(), e.played))
}
