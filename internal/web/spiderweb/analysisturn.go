package spiderweb

import (
	"sync"
	"time"
)

// turnWait is how long an address refused an analysis keeps its place in
// line after its latest refusal: the page tells it to try again in
// analysisRetry seconds, and a person may take a while to.
const turnWait = 2 * analysisRetry * time.Second

// frontWait and frontGrace set how long the first in line keeps its
// place once the slot is free for it (freed, or it became first while
// the slot was free): until the later of frontWait after its latest
// refusal (when Retry-After told it to come back) and the moment the slot
// was free for it, plus frontGrace. The grace is for the one that comes
// back a little after Retry-After (a network's delay, a person pressing
// again): with none, one back 100 ms late lost its place and went to the
// back of the line. The general turnWait let about 64 addresses that did
// not come back each hold the free slot up to 20 s in turn while the
// others waited; this holds it about 15 s at most.
const (
	frontWait  = analysisRetry * time.Second
	frontGrace = 5 * time.Second
)

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
// a place lapses turnWait after that address's latest refusal, or, for
// the first in line while the slot is free, as frontWait says.
type analysisTurns struct {
	mu      sync.Mutex
	running bool
	line    []place // in the order first refused; at most maxInLine
	// free is when the slot was last free for the first in line: when it
	// was released, or when the place ahead lapsed while it was free.
	free time.Time
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
	a.lapse(now)
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

// lapse drops the places lapsed by now: the first in line, in turn, when
// its own lapse has come (each next one first from that moment), then
// any other whose latest refusal is turnWait old.
func (a *analysisTurns) lapse(now time.Time) {
	for len(a.line) > 0 {
		end := a.line[0].refused.Add(turnWait)
		if !a.running {
			end = a.line[0].refused.Add(frontWait)
			if a.free.After(end) {
				end = a.free
			}
			end = end.Add(frontGrace)
		}
		if now.Before(end) {
			break
		}
		a.line = a.line[1:]
		if !a.running && end.After(a.free) {
			a.free = end
		}
	}
	kept := a.line[:0]
	for _, p := range a.line {
		if now.Sub(p.refused) < turnWait {
			kept = append(kept, p)
		}
	}
	a.line = kept
}

// release frees the slot at now.
func (a *analysisTurns) release(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running = false
	a.free = now
}
