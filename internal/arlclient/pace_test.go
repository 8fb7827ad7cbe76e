package arlclient

import (
	"context"
	"testing"
	"time"
)

// TestPacer: once told, the pacer lets the burst (less its margin) go at
// once, the hello counted, then one message per interval; before it is
// told it never waits.
func TestPacer(t *testing.T) {
	ctx := context.Background()
	var p pacer
	p.reset()
	p.took() // the hello
	for range 10 {
		if err := p.wait(ctx); err != nil { // not told: no wait
			t.Fatal(err)
		}
	}
	p.reset()
	p.took()
	every := 40 * time.Millisecond
	p.tell(&Limits{Burst: 5, EveryMs: int(every / time.Millisecond)})
	start := time.Now()
	for range 2 { // 5 less the margin of 2, less the hello
		if err := p.wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d >= every {
		t.Fatalf("the burst waited %v", d)
	}
	for range 3 {
		if err := p.wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 3*every {
		t.Fatalf("three messages past the burst went in %v, faster than one per %v", d, every)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	p.mu.Lock()
	used := p.used
	p.mu.Unlock()
	if err := p.wait(cctx); err != context.Canceled {
		t.Fatalf("wait on an ended context: %v", err)
	}
	if p.used > used {
		t.Fatalf("a wait on an ended context spent a token: %v, was %v", p.used, used)
	}
}

// noWait fails t unless n waits all return, as they do at once when the
// pacer has no allowance to keep to; a wait held back (a minute in these
// tests) or spinning meets the deadline instead.
func noWait(t *testing.T, p *pacer, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := range n {
		if err := p.wait(ctx); err != nil {
			t.Fatalf("wait %d of %d: %v", i+1, n, err)
		}
	}
}

// TestPacerImplausibleLimits: an allowance no server means (an interval
// over a minute, one overflowing a Duration, a burst under 1) is taken
// as none told: the pacer neither spins nor holds each message back.
func TestPacerImplausibleLimits(t *testing.T) {
	for _, l := range []Limits{
		{Burst: 3, EveryMs: 9300000000000},
		{Burst: 3, EveryMs: 60001},
		{Burst: 0, EveryMs: 200},
		{Burst: 3, EveryMs: 0},
	} {
		var p pacer
		p.reset()
		p.took()
		p.tell(&l)
		noWait(t, &p, 10)
	}
}

// TestPacerResetForgets: a new connection (maybe to another server)
// starts with no allowance until its server tells one; the old one's,
// a long interval here, no longer holds messages back.
func TestPacerResetForgets(t *testing.T) {
	var p pacer
	p.reset()
	p.took()
	p.tell(&Limits{Burst: 3, EveryMs: 60000})
	// The burst less the margin is the hello alone: a message now would
	// wait a minute.
	p.reset()
	p.took()
	noWait(t, &p, 10)
}

// TestPacerCountBounded: hellos sent without waiting (a re-hello after a
// gap) count, but never past the server's burst, as the server's own
// count never goes, so the next message waits at most the margin and one
// more interval.
func TestPacerCountBounded(t *testing.T) {
	var p pacer
	p.reset()
	p.tell(&Limits{Burst: 3, EveryMs: 60000})
	for range 6 {
		p.took()
	}
	if p.used > 3 {
		t.Fatalf("counted %v spent of a burst of 3", p.used)
	}
}
