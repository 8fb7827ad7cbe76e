package web

import (
	"context"
	"sync"
	"time"
)

// readyFresh is how long a readiness probe's answer is reused: however
// often /readyz is asked (it is outside the rate limit, since load
// balancers probe often), the database sees at most one write probe in
// that time.
const readyFresh = time.Second

// readiness runs the database's readiness probe at most once per
// readyFresh, one at a time: callers arriving during a probe wait for its
// answer instead of starting another.
type readiness struct {
	ping Pinger
	now  func() time.Time
	// failed is told each failed probe's error, before its answer is
	// handed out (the log: /readyz does not say it).
	failed func(error)

	mu      sync.Mutex
	at      time.Time     // when the cached answer was taken
	err     error         // the cached answer
	valid   bool          // whether there is one
	running chan struct{} // closed when the probe under way ends; nil if none
}

// check returns the probe's answer, fresh within readyFresh, or ctx's
// error if ctx ends first.
func (r *readiness) check(ctx context.Context) error {
	r.mu.Lock()
	if r.valid && r.now().Sub(r.at) < readyFresh {
		err := r.err
		r.mu.Unlock()
		return err
	}
	done := r.running
	if done == nil {
		done = make(chan struct{})
		r.running = done
		// Ends when Ping returns, which readyTimeout bounds; not tied to
		// this caller's request, so its end leaves the others an answer.
		go r.probe(done)
	}
	r.mu.Unlock()
	select {
	case <-done:
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *readiness) probe(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	err := r.ping.Ping(ctx)
	cancel()
	if err != nil && r.failed != nil {
		r.failed(err)
	}
	r.mu.Lock()
	r.at, r.err, r.valid, r.running = r.now(), err, true, nil
	r.mu.Unlock()
	close(done)
}
