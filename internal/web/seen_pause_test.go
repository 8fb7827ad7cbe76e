package web

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSeenBoundedAndPaused: recording a returning player's visit is
// bounded (seenWithin), and after a failure visits go unrecorded for
// seenPause, so a database that does not answer holds up no request
// beyond the first, nor takes a connection for each.
func TestSeenBoundedAndPaused(t *testing.T) {
	defer func(w time.Duration) { seenWithin = w }(seenWithin)
	seenWithin = 50 * time.Millisecond
	var (
		mu        sync.Mutex
		now       = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		calls     atomic.Int32
		unbounded atomic.Bool
	)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	h := newHarness(t, Options{Now: clock, Games: []Routes{echoGame{}}, Seen: func(ctx context.Context, _ string) error {
		calls.Add(1)
		if d, ok := ctx.Deadline(); !ok || time.Until(d) > seenWithin {
			unbounded.Store(true)
			return nil
		}
		<-ctx.Done() // a database that does not answer
		return ctx.Err()
	}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // new: the cookie, no visit to record
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // recorded in vain: the pause starts
	if unbounded.Load() {
		t.Fatalf("recording a visit had no bound of %v", seenWithin)
	}
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d visits recorded during the pause's first request; want 1 (the failed one)", n)
	}
	mu.Lock()
	now = now.Add(seenPause)
	mu.Unlock()
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d visits recorded once the pause ended; want 2", n)
	}
}
