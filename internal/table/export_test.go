package table

import "time"

// SetStaleHook has f called (in the table's goroutine) each time a stale
// bot answer is dropped, so tests can wait for the drop.
func SetStaleHook(h *Hub, f func()) { h.onStale = f }

// SetPruneHook has f called after each pruning round of a hub made with o,
// with how many tables the round deleted, once the next round's timer is
// armed.
func SetPruneHook(o *Options, f func(int64)) { o.onPrune = f }

// BotsWaiting is how many bot decisions wait for a worker.
func BotsWaiting(h *Hub) int { return h.workers.waiting() }

// SetStopWait sets how long a hub made with o waits for a table's old
// copy to stop before it gives the table's new claim back.
func SetStopWait(o *Options, d time.Duration) { o.stopWait = d }

// IDSetBounds is the bounds of a hub's sets of tables reported as
// unreadable, not to be taken again, and to start again (adrift).
func IDSetBounds(h *Hub) (unreadable, unstartable, adrift int) {
	return h.unreadables.max, h.unstartable.max, h.adrift.max
}

// SetRematchFoundHook has f called when RematchFrom has found its old
// table live, before it asks the table anything (the table may close
// meanwhile).
func SetRematchFoundHook(h *Hub, f func()) { h.onRematchFound = f }

// MaxChatBuckets is how many chat allowances (people's and addresses'
// together) a table remembers at most.
const MaxChatBuckets = maxBuckets

// SetAdriftHook has f called (in the scan's goroutine) each time a hub
// made with o finds its lease run out, with the tables it will start
// again once the store answers.
func SetAdriftHook(o *Options, f func(adrift []string)) { o.onAdrift = f }

// AdriftOf is the tables a hub stopped while its lease was run out and will
// start again once the store answers, if still held.
func AdriftOf(h *Hub) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.adrift.list()
}

// NoteAdrift notes ids as stopped while h's lease was run out, as its
// scan does.
func NoteAdrift(h *Hub, ids []string) { h.noteAdrift(ids) }

// MaxAnon is how many nameless spectators' chat numbers a table
// remembers at once.
const MaxAnon = maxAnon

// SetResumeHook has f called (in the scan's goroutine, no lock held) each
// time a hub made with o has loaded a table stopped while its lease was
// run out, before the table runs again.
func SetResumeHook(o *Options, f func(id string)) { o.onResume = f }

// SetTakeHook has f called (in the scan's goroutine, no lock held) each
// time a hub made with o has claimed and loaded an orphaned table,
// before the table runs.
func SetTakeHook(o *Options, f func(id string)) { o.onTake = f }
