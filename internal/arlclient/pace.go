package arlclient

import (
	"context"
	"sync"
	"time"
)

// pacer keeps a follower's messages within the server's allowance for one
// connection, so that a program acting for a player (a bot, a script)
// never meets the server's "too many messages" refusals. It counts as the
// server does, a bucket of Burst tokens that comes back one every EveryMs,
// less a margin: the server counts when a message arrives, and one sent
// late on a slow network would otherwise leave the next ones too close.
// Until the server has told its allowance (the first view) the pacer only
// counts what is sent, and no token comes back.
type pacer struct {
	mu    sync.Mutex
	burst float64       // the tokens this client allows itself
	every time.Duration // one token back per every; 0: not told yet
	used  float64       // tokens spent and not yet back
	at    time.Time     // when used was last brought up to date
}

// paceMargin is the tokens the pacer keeps in hand (at most Burst - 1).
const paceMargin = 2

// reset starts a new connection: the server's bucket is full again.
func (p *pacer) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used, p.at = 0, time.Now()
}

// tell sets the allowance the server gave.
func (p *pacer) tell(l *Limits) {
	if l == nil || l.Burst < 1 || l.EveryMs < 1 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(time.Now())
	p.burst = float64(l.Burst - min(paceMargin, l.Burst-1))
	p.every = time.Duration(l.EveryMs) * time.Millisecond
}

func (p *pacer) refill(now time.Time) {
	if p.every > 0 {
		p.used = max(0, p.used-float64(now.Sub(p.at))/float64(p.every))
	}
	p.at = now
}

// took counts a message sent without waiting (the follower's own hello).
func (p *pacer) took() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(time.Now())
	p.used++
}

// wait returns once a message may be sent, counting it, or with ctx's
// error.
func (p *pacer) wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		p.refill(time.Now())
		if p.every == 0 || p.used+1 <= p.burst {
			p.used++
			p.mu.Unlock()
			return nil
		}
		d := time.Duration((p.used + 1 - p.burst) * float64(p.every))
		p.mu.Unlock()
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
