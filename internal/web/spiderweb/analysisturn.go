package spiderweb

import (
	"sync"
	"time"
)

// turnWait is how long an address refused an analysis keeps its place in
// line after its latest refusal: the page tells it to try again in
// analysisRetry seconds, and a person may take a while to.
const turnWait = 2 * analysisRetry * time.Second

// maxInLine bounds the addresses waiting in line for the analysis: one
// more refused while the line is full is refused without a place, and
// may take one once the line shortens.
const maxInLine = 64

// analysisTurns is the server's one analysis slot, taken in turns by
// client address (docs/api.md, "POST /api/games/{id}/analysis"). An
// analysis takes up to 20 s, and one client sending one as each of its
// own ended held the slot for good. Remembering only that someone had
// been refused did not help against two addresses of one client (a
// machine's IPv4 address and its IPv6 /64) taking turns, nor stop an
// address never refused from taking a refused one's turn. So each
// refused address takes a place in line, in the order first refused;
// while anyone is in line, the slot goes only to the first in line, and
// a place lapses turnWait after that address's latest refusal.
type analysisTurns struct {
	mu      sync.Mutex
	running bool
	line    []place // in the order first refused; at most maxInLine
}

// place is an address waiting in line and its latest refusal.
type place struct {
	key     string
	refused time.Time
}

// take takes the slot for the address key at now; when it cannot,
// running says whether an analysis runs (else another address is first
// in line).
func (a *analysisTurns) take(key string, now time.Time) (taken, running bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.line = lapse(a.line, now)
	if !a.running && (len(a.line) == 0 || a.line[0].key == key) {
		if len(a.line) > 0 {
			a.line = a.line[1:]
		}
		a.running = true
		return true, false
	}
	a.wait(key, now)
	return false, a.running
}

// wait gives key a place in line, or refreshes the one it has.
func (a *analysisTurns) wait(key string, now time.Time) {
	for i := range a.line {
		if a.line[i].key == key {
			a.line[i].refused = now
			return
		}
	}
	if len(a.line) < maxInLine {
		a.line = append(a.line, place{key, now})
	}
}

// lapse drops the places whose latest refusal is turnWait old.
func lapse(line []place, now time.Time) []place {
	kept := line[:0]
	for _, p := range line {
		if now.Sub(p.refused) < turnWait {
			kept = append(kept, p)
		}
	}
	return kept
}

// release frees the slot.
func (a *analysisTurns) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running = false
}
