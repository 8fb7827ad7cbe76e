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
// Until the server of the current connection has told its allowance (the
// first view after the hello) the pacer only counts what is sent, and no
// token comes back.
type pacer struct {
	mu    sync.Mutex
	full  float64       // the server's Burst: its count never goes past it
	burst float64       // the tokens this client allows itself
	every time.Duration // one token back per every; 0: not told yet
	used  float64       // tokens spent and not yet back
	at    time.Time     // when used was last brought up to date
}

// paceMargin is the tokens the pacer keeps in hand (at most Burst - 1).
const paceMargin = 2

// maxPaceEvery is the longest interval the pacer believes: a server
// telling a longer one (or an interval that does not fit a Duration) is
// taken as telling nothing, rather than holding each command for minutes
// or overflowing into a negative wait.
const maxPaceEvery = 60 * time.Second

// reset starts a new connection: the server's bucket is full again, and
// the allowance the previous server told is forgotten until this one
// tells its own (it may be another server, with other limits).
func (p *pacer) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used, p.at = 0, time.Now()
	p.full, p.burst, p.every = 0, 0, 0
}

// tell sets the allowance the server gave; one out of range (a burst
// under 1, an interval under 1 ms or over maxPaceEvery) is ignored.
func (p *pacer) tell(l *Limits) {
	if l == nil || l.Burst < 1 || l.EveryMs < 1 || int64(l.EveryMs) > maxPaceEvery.Milliseconds() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(time.Now())
	p.full = float64(l.Burst)
	p.burst = float64(l.Burst - min(paceMargin, l.Burst-1))
	p.every = time.Duration(l.EveryMs) * time.Millisecond
	p.used = min(p.used, p.full)
}

// refill brings used up to date. The server refuses a message, spending
// nothing, when its bucket is empty, so its count never passes its burst:
// neither does used once told, which bounds a wait to paceMargin+1
// intervals whatever was sent without waiting (a hello, messages before
// the allowance was told).
func (p *pacer) refill(now time.Time) {
	if p.every > 0 {
		p.used = min(p.full, max(0, p.used-float64(now.Sub(p.at))/float64(p.every)))
	}
	p.at = now
}

// took counts a message sent without waiting (the follower's own hello).
func (p *pacer) took() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(time.Now())
	p.used++
	if p.every > 0 {
		p.used = min(p.used, p.full)
	}
}

// wait returns once a message may be sent, counting it, or with ctx's
// error, spending nothing, once ctx has ended.
func (p *pacer) wait(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
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
