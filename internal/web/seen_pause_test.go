package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// TestSeenBoundedAndPaused: recording a returning player's visit is
// bounded (seenWithin), and after a failure visits go unrecorded for
// SeenPause, so a database that does not answer holds up no request
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
	now = now.Add(SeenPause)
	mu.Unlock()
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d visits recorded once the pause ended; want 2", n)
	}
}

// TestSeenReasons: a visit not recorded is logged under a reason of a
// few known ones, those of the requests' database 503s or the visit's
// own, with the error's words in err; before, the error's text was the
// reason, so no two lines of one kind of failure were counted together.
func TestSeenReasons(t *testing.T) {
	defer func(w time.Duration) { seenWithin = w }(seenWithin)
	seenWithin = 50 * time.Millisecond
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	var (
		mu   sync.Mutex
		now  = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		fail error
	)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	h := newHarness(t, Options{Log: log, Now: clock, Games: []Routes{echoGame{}}, Seen: func(ctx context.Context, _ string) error {
		mu.Lock()
		err := fail
		mu.Unlock()
		if err == nil {
			<-ctx.Done() // a statement still running at the visit's bound
			return fmt.Errorf("seen: %w", ctx.Err())
		}
		return err
	}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // new: the cookie, no visit to record
	cases := []struct {
		err    error
		reason string
	}{
		{nil, "database slow or not answering: visit not answered within its bound"},
		{fmt.Errorf("seen: %w", unavailableErr{}), "database out of reach"},
		{fmt.Errorf("seen: %w", noConnErr{}), "database too slow: no connection free"},
		{fmt.Errorf("seen: %w", slowErr{}), "database too slow: statement_timeout or lock_timeout"},
		{fmt.Errorf("seen: %w", ErrInsufficientStorage), "disk full"},
		{errors.New("seen: disk on fire at block 12345"), "failed"},
	}
	for _, c := range cases {
		mu.Lock()
		fail, now = c.err, now.Add(SeenPause) // past the last failure's pause
		mu.Unlock()
		h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	}
	var got []string
	for _, l := range buf.Lines(t) {
		if l["msg"] != "recording a player as seen" {
			continue
		}
		got = append(got, fmt.Sprint(l["reason"]))
		if e, _ := l["err"].(string); !strings.HasPrefix(e, "seen: ") {
			t.Errorf("a line of reason %q has err %q, want the error's words", l["reason"], l["err"])
		}
	}
	var want []string
	for _, c := range cases {
		want = append(want, c.reason)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("reasons %q, want %q", got, want)
	}
}
