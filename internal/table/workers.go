package table

import (
	"slices"
	"sync"
)

// workers bounds the bot decisions running at once across a hub's tables.
// A table asks from its own goroutine (startThink), and the tickets are
// granted in the order asked, so the tables take turns: a table with six
// bots asks once per decision, like a table with one, and none waits
// behind a newcomer. The queue holds at most one live ticket a table (a
// table thinks about one decision at a time), so it is bounded by
// MaxTables.
type workers struct {
	mu    sync.Mutex
	free  int
	queue []*ticket
}

// ticket is one decision's place in the queue; ready is closed once it
// holds a worker.
type ticket struct {
	ready          chan struct{}
	granted, given bool // guarded by workers.mu; given: done was called
}

func newWorkers(n int) *workers { return &workers{free: n} }

// ask queues for a worker.
func (w *workers) ask() *ticket {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := &ticket{ready: make(chan struct{})}
	if w.free > 0 {
		w.free--
		t.grant()
	} else {
		w.queue = append(w.queue, t)
	}
	return t
}

func (t *ticket) grant() {
	t.granted = true
	close(t.ready)
}

// done gives t's worker to the next in the queue, or leaves the queue if
// t has none yet. Calls after the first do nothing: the decision's
// goroutine calls it when its bot returns, and the table when it
// abandons the decision, so that a bot ignoring its context holds a
// worker no longer than the table waits for it.
func (w *workers) done(t *ticket) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t.given {
		return
	}
	t.given = true
	if !t.granted {
		if i := slices.Index(w.queue, t); i >= 0 {
			w.queue = slices.Delete(w.queue, i, i+1)
		}
		return
	}
	if len(w.queue) == 0 {
		w.free++
		return
	}
	next := w.queue[0]
	w.queue = slices.Delete(w.queue, 0, 1)
	next.grant()
}

// waiting is how many decisions wait for a worker (tests).
func (w *workers) waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue)
}
