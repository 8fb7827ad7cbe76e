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
		p.wait(ctx)
	}
	if d := time.Since(start); d >= every {
		t.Fatalf("the burst waited %v", d)
	}
	for range 3 {
		p.wait(ctx)
	}
	if d := time.Since(start); d < 3*every {
		t.Fatalf("three messages past the burst went in %v, faster than one per %v", d, every)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.wait(cctx); err != context.Canceled {
		t.Fatalf("wait on an ended context: %v", err)
	}
}
