package spiderweb

import (
	"sync"
	"time"
)

// turnWait is how long an address refused while another's analysis ran
// keeps its claim to the next turn: the page tells it to try again in
// analysisRetry seconds, and a person may take a while to.
const turnWait = 2 * analysisRetry * time.Second

// analysisTurns is the server's one analysis slot, taken in turns by
// client address (docs/api.md, "POST /api/games/{id}/analysis"). An
// analysis takes up to 20 s, and one client sending one every 20 s held
// the slot for good: everyone else was refused every time. So an address
// whose analysis was the last to run may not start the next one while
// another address, refused meanwhile, still has its claim (turnWait):
// the slot goes to the other address when it comes back.
type analysisTurns struct {
	mu       sync.Mutex
	running  bool
	last     string    // the address of the latest analysis to start
	waiting  bool      // another address was refused since it started
	waitedAt time.Time // when, the latest time
}

// take takes the slot for the address key at now; when it cannot,
// running says whether an analysis runs (else another address has the
// next turn).
func (a *analysisTurns) take(key string, now time.Time) (taken, running bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		if key != a.last {
			a.waiting, a.waitedAt = true, now
		}
		return false, true
	}
	if key == a.last && a.waiting && now.Sub(a.waitedAt) < turnWait {
		return false, false
	}
	a.running, a.last, a.waiting = true, key, false
	return true, false
}

// release frees the slot.
func (a *analysisTurns) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running = false
}
