package spiderweb

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// hintWait bounds how long a hint waits for its address's turn
// (oneEach), as the solver's own wait for a core is bounded.
const hintWait = 10 * time.Second

// hintRetry is the Retry-After, in seconds, of a hint refused after
// waiting hintWait for its turn: a search takes up to 10 s.
const hintRetry = 10

// oneEach lets one hint search run at a time for each client address
// (docs/api.md, "GET /api/games/{id}/hint"): the others from that address
// wait their turn. The server runs at most one search a core, each up to
// 10 s; without this one client asking many hints at once held every core
// and every other player's hint waited out its time (503). Its memory is
// bounded by the requests waiting: an address's entry goes with its last.
type oneEach struct {
	wait  time.Duration // hintWait; shorter in tests
	mu    sync.Mutex
	turns map[string]*turn
}

type turn struct {
	slot  chan struct{} // holds a token while the address's search runs
	users int           // requests running or waiting for it
}

func newOneEach() *oneEach { return &oneEach{wait: hintWait, turns: map[string]*turn{}} }

// acquire waits for key's turn, for o.wait at most; release gives it
// back. It fails when ctx ends or the wait is out first.
func (o *oneEach) acquire(ctx context.Context, key string) (release func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, o.wait)
	defer cancel()
	o.mu.Lock()
	t := o.turns[key]
	if t == nil {
		t = &turn{slot: make(chan struct{}, 1)}
		o.turns[key] = t
	}
	t.users++
	o.mu.Unlock()
	select {
	case t.slot <- struct{}{}:
		return func() {
			<-t.slot
			o.leave(key, t)
		}, nil
	case <-ctx.Done():
		o.leave(key, t)
		return nil, fmt.Errorf("waiting for the address's other hint: %w", ctx.Err())
	}
}

func (o *oneEach) leave(key string, t *turn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t.users--; t.users == 0 {
		delete(o.turns, key)
	}
}
