package table

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

// Sharing tables between servers (Options.Claims): the scan takes orphaned
// tables and drops those another server took; a store write refused with
// ErrMoved drops its table at once.

// scan takes orphans and drops lost tables every ScanEvery until the hub
// stops (its context ends), its only exit. The real clock: the leases it
// works with are the store's.
func (h *Hub) scan() {
	t := time.NewTicker(h.o.ScanEvery)
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
		}
		if h.dropAdrift() {
			continue // the store is out of reach: nothing to ask it
		}
		// Nothing is taken while what is held is unknown: a table still
		// running here must stop before a new claim of it starts a copy.
		if held, ok := h.dropLost(); ok {
			h.giveBackStrays(held)
			h.resumeAdrift()
			h.takeOrphans()
		}
	}
}

// Adrift is what a Claims may also say: that this server's lease ran out
// unrenewed (it could not reach the store for longer than a lease), so
// another server may run its tables already.
type Adrift interface {
	Adrift() bool
}

// dropAdrift stops every table this hub runs while its lease is run out
// (Adrift), and reports whether it is. Their connections end with
// ErrMoved ("table moved: reconnect"): the pages connect again, through
// the load balancer, and reach each table where it runs now, or are
// told to try again in a moment until a server runs it. Kept here, a
// table taken over elsewhere left its players refused at every action
// until this server reached the store again. Once the store answers,
// those no other server took start again here (resumeAdrift).
func (h *Hub) dropAdrift() bool {
	a, ok := h.o.Claims.(Adrift)
	if !ok || !a.Adrift() {
		return false
	}
	h.mu.Lock()
	var drop []*Table
	for _, t := range h.tables {
		if !t.Moved() {
			drop = append(drop, t)
		}
	}
	h.mu.Unlock()
	if len(drop) > 0 {
		stopped := h.loseAll(drop)
		if len(stopped) > 0 {
			h.o.Logf("lease ran out (the database out of reach): %d of %d tables stopped here; their players reconnect, "+
				"and reach each where it runs", len(stopped), len(drop))
		}
		h.noteAdrift(stopped)
	}
	if h.o.onAdrift != nil {
		h.mu.Lock()
		adrift := h.adrift.list()
		h.mu.Unlock()
		h.o.onAdrift(adrift)
	}
	return true
}

// noteAdrift notes the stopped tables to start again. Tables run and
// adrift together stay within MaxTables (creates, takeovers and resumes
// count both, and start a table under the lock they count it with:
// startIfRoom, resume), yet the set has room for as many again (newHub),
// a margin should anything ever run past the limit. Given back instead, such a
// table would stay this server's: the store is out of reach here, so
// the give-back fails, and once it answers again the renewed lease keeps
// the table held and run nowhere. Past even that room (not met), an id
// is logged, and given back once the store answers (giveBackStrays).
func (h *Hub) noteAdrift(stopped []string) {
	var over []string
	h.mu.Lock()
	for _, id := range stopped {
		if !h.adrift.fits(id) {
			over = append(over, id)
			continue
		}
		h.adrift.add(id)
	}
	h.mu.Unlock()
	if len(over) > 0 {
		h.o.Logf("lease ran out: %d tables stopped past the %d to start again, given back once the database answers: %s",
			len(over), 2*h.o.MaxTables, strings.Join(over, " "))
	}
}

// loseAll stops the tables together, waiting at most stopWait for them
// all, and returns the ids of those stopped. A table busy with a store
// write that hangs does not take its turn in time: it is still running
// here, not Moved, and the next scan tries it again; noted only once
// stopped, the tables to start again (adrift) are each noted once.
// Decision: together, one wait for all: one at a
// time, each stuck table held the others up for a whole wait.
func (h *Hub) loseAll(ts []*Table) []string {
	// By id: the same order each time, whatever the map's.
	slices.SortFunc(ts, func(a, b *Table) int { return strings.Compare(a.id, b.id) })
	ctx, cancel := context.WithTimeout(h.ctx, h.o.stopWait)
	defer cancel()
	ok := make([]bool, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Add(1)
		go func() { // exits when lose does: within ctx, or once the table took the command
			defer wg.Done()
			ok[i] = t.lose(ctx) == nil
		}()
	}
	wg.Wait()
	var stopped []string
	for i, t := range ts {
		if ok[i] {
			stopped = append(stopped, t.id)
		}
	}
	return stopped
}

// resumeAdrift starts again the tables dropAdrift stopped that this
// server still holds (no other server took them while it could not
// reach the store: PostgreSQL itself was down), from their stored
// moves; the others are forgotten. Decision: resumed here, not given
// back: after an outage of PostgreSQL every server gives back all its
// tables at once, and the first to scan would take them all.
func (h *Hub) resumeAdrift() {
	h.mu.Lock()
	adrift := h.adrift.list()
	h.mu.Unlock()
	if len(adrift) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
	defer cancel()
	held, err := h.o.Claims.Held(ctx)
	if err != nil {
		return // asked again at the next scan
	}
	for _, id := range adrift {
		if !held[id] {
			h.forgetAdrift(id) // another server runs it
			continue
		}
		if _, err := h.Table(id); err == nil {
			continue // its stopped copy is still leaving
		}
		s, err := h.loadLive(ctx, id)
		if err != nil {
			if h.ctx.Err() == nil {
				h.o.Logf("table %s: loading it again after the database was out of reach: %v", id, err)
			}
			continue // tried again at the next scan
		}
		if s.Status != StatusOpen {
			h.forgetAdrift(id)
			continue // it ended meanwhile: nothing to run
		}
		t, err := h.restore(s)
		if err != nil {
			h.forgetAdrift(id)
			h.cannotStart(s, err)
			continue
		}
		if h.o.onResume != nil {
			h.o.onResume(id)
		}
		h.resume(t)
	}
}

// resume runs t, stopped while the lease was run out, in the place it
// kept: one step under mu. Freed first and taken after, the place went
// to a create that came between, and MaxTables+1 tables were open.
func (h *Hub) resume(t *Table) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.adrift.remove(t.id)
	h.startLocked(t)
}

// forgetAdrift takes id out of the tables to start again.
func (h *Hub) forgetAdrift(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.adrift.remove(id)
}

// dropLost stops the tables this hub runs but no longer holds (another
// server took them while this one could not renew its lease), together
// (loseAll); one that did not stop in time is tried again at the next
// scan. Tables started after the question was asked are not judged by
// its answer. It returns what this server holds, and whether it could
// ask.
func (h *Hub) dropLost() (map[string]bool, bool) {
	h.mu.Lock()
	gen := h.gen
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
	defer cancel()
	held, err := h.o.Claims.Held(ctx)
	if err != nil {
		if h.ctx.Err() == nil {
			h.o.Logf("checking the tables held: %v", err)
		}
		return nil, false
	}
	h.mu.Lock()
	var lost []*Table
	for id, t := range h.tables {
		if t.born <= gen && !held[id] {
			lost = append(lost, t)
		}
	}
	h.mu.Unlock()
	// Together, as dropAdrift's: one at a time, a lost table hung in a
	// store write held up every one after it for the whole wait (with
	// one hung among 20 lost, the 19 quiet ones took 20 s to 80 s to
	// stop, their players left on this server's dead copy).
	// Logged once stopped: one that did not stop in time (a store write
	// hung) is still running here and tried again at the next scan; each
	// scan logged it as dropped, though it was not.
	stopped := h.loseAll(lost)
	for _, id := range stopped {
		h.o.Logf("table %s: another server holds it now; dropped here", id)
	}
	if len(stopped) < len(lost) {
		h.o.Logf("another server holds tables run here: %d of %d stopped; the rest did not stop in time (a store write hung) and are tried again at the next scan",
			len(stopped), len(lost))
	}
	return held, true
}

// giveBackStrays gives back the tables this server holds (held, as
// asked before) but neither runs nor will start again (adrift): one
// whose give-back failed (giveBack, released) stays this server's, its
// lease renewed by the heartbeat, and run nowhere. Given back before
// takeOrphans, such a table is taken again at once by this scan if it
// has room (and can run it), else by another server's.
func (h *Hub) giveBackStrays(held map[string]bool) {
	var strays []Stored
	h.mu.Lock()
	for id := range held {
		if _, run := h.tables[id]; !run && !h.adrift.ids[id] {
			strays = append(strays, Stored{ID: id})
		}
	}
	h.mu.Unlock()
	if len(strays) == 0 {
		return
	}
	slices.SortFunc(strays, func(a, b Stored) int { return strings.Compare(a.ID, b.ID) })
	h.giveBack(strays)
}

// takeOrphans claims what orphaned tables this hub has room for and
// starts them from their stored moves. A table still running here under
// an older claim is stopped first.
func (h *Hub) takeOrphans() {
	h.mu.Lock()
	// Those waiting to start again (adrift) keep their places: taken
	// past them, a second lease run out noted more than MaxTables.
	room := max(h.o.MaxTables-h.occupied(), 0)
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
	defer cancel()
	stored, err := h.o.Claims.Take(ctx, room, h.unstartable.list())
	if err != nil {
		if h.ctx.Err() == nil {
			h.o.Logf("taking orphaned tables: %v", err)
		}
		return
	}
	started := 0
	for i, s := range stored {
		if old, err := h.Table(s.ID); err == nil && !h.stopOld(ctx, old) {
			h.giveBack(stored[i:])
			break
		}
		t, err := h.restore(s)
		if err != nil {
			h.cannotStart(s, err)
			continue
		}
		if h.o.onTake != nil {
			h.o.onTake(s.ID)
		}
		if !h.startIfRoom(t) {
			// Creates since the room was counted took it: the rest go
			// to a server with room, at its next scan.
			h.giveBack(stored[i:])
			break
		}
		started++
	}
	if started > 0 {
		noun := "tables"
		if started == 1 {
			noun = "table"
		}
		h.o.Logf("took %d orphaned %s", started, noun)
	}
}

// startIfRoom starts t, taken at the scan, if a place under MaxTables is
// still free, and reports whether it did: the room was counted before
// the store was asked, and creates meanwhile may have filled it;
// started anyway, the tables open passed MaxTables.
func (h *Hub) startIfRoom(t *Table) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.occupied() >= h.o.MaxTables {
		return false
	}
	h.startLocked(t)
	return true
}

// stopOld stops a table's old copy here, before its new claim starts,
// and reports whether it stopped in time (Options.stopWait).
func (h *Hub) stopOld(ctx context.Context, old *Table) bool {
	ctx, cancel := context.WithTimeout(ctx, h.o.stopWait)
	defer cancel()
	old.lose(ctx)
	select {
	case <-old.Done():
		return true
	case <-ctx.Done():
		return false
	}
}

// maxUnstartable bounds the tables a hub remembers not to take again.
// Past it one is forgotten, and may be taken (and given back) once more.
const maxUnstartable = 1000

// cannotStart gives back a claimed table this hub cannot replay (a
// damaged row, or settings this server's version does not know, such as
// a newer bot level) and never takes it again: held, it would answer 503
// until this server stopped; given back and taken again, it would fail
// at every scan. Another server may be able to run it (docs/scaling.md).
func (h *Hub) cannotStart(s Stored, err error) {
	h.unreadable(s.ID, "cannot be restored here, given back and not taken again by this server", err)
	h.unstartable.add(s.ID)
	h.giveBack([]Stored{s})
}

// giveBack releases claimed tables this hub will not start (an old copy
// of one did not stop in time, or it cannot be replayed here), so that
// the next scan, here or on another server, takes them rather than
// leaving them held and not run.
func (h *Hub) giveBack(stored []Stored) {
	ids := make([]string, len(stored))
	for i, s := range stored {
		ids[i] = s.ID
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), releaseTimeout)
	defer cancel()
	if err := h.o.Claims.Release(ctx, ids); err != nil {
		h.o.Logf("giving back %d tables not started: %v", len(ids), err)
	}
}

// lose stops the table: another server holds it. Its connections end
// with ErrMoved.
// It fails if the table did not take the command within ctx, or had
// stopped already (ErrClosed).
func (t *Table) lose(ctx context.Context) error {
	return t.do(ctx, func(l *loop) error {
		l.lose()
		return nil
	})
}

// lose marks the table moved: run returns after the current command.
func (l *loop) lose() {
	l.t.moved.Store(true)
}

// checkMoved notes a store error saying the table moved, and returns err.
func (l *loop) checkMoved(err error) error {
	if errors.Is(err, ErrMoved) {
		l.lose()
	}
	return err
}

// released gives a table that stopped here for good (closed idle, or
// over and left) back, so no server is named its owner; one that moved
// or stops with the hub is not (Close releases those together).
func (h *Hub) released(t *Table) {
	if h.o.Claims == nil || t.Moved() || h.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, storeTimeout)
	defer cancel()
	if err := h.o.Claims.Release(ctx, []string{t.id}); err != nil {
		h.o.Logf("table %s: releasing: %v", t.id, err)
	}
}
