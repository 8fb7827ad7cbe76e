package loadgen

// The people at play: each reads its WebSocket, times the views and acts
// on its turn.

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// serverMsg is what a person reads of a server message: no more than it
// needs to time a view and to act.
type serverMsg struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	View   *struct {
		ToMove     int `json:"toMove"`
		EventCount int `json:"eventCount"`
	} `json:"view"`
	Legal []string `json:"legal"`
	Error string   `json:"error"`
}

// read is p's reader: it times the views and, when it is p's turn,
// starts p's action (thinking in a goroutine of its own: the reader goes
// on reading, so the connection answers the server's pings). It returns
// when ctx ends, the game is over or the connection fails.
func (r *arlRun) read(ctx context.Context, p *person) {
	defer p.c.CloseNow()
	for {
		_, b, err := p.c.Read(ctx)
		now := time.Now()
		if err != nil {
			if ctx.Err() == nil {
				r.fail(fmt.Errorf("table %s seat %d: connection ended: %w", p.t.id, p.seat, err))
			}
			return
		}
		var m serverMsg
		if err := json.Unmarshal(b, &m); err != nil {
			r.fail(fmt.Errorf("table %s seat %d: bad message: %w", p.t.id, p.seat, err))
			return
		}
		switch {
		case m.Type == "error":
			r.fail(fmt.Errorf("table %s seat %d: %s", p.t.id, p.seat, m.Error))
			continue
		case m.Type != "view" || m.View == nil:
			continue // not started yet (a seat still connecting)
		}
		for range p.time(r, m.View.EventCount, now) {
			r.ack()
		}
		if m.Status != "open" || m.View.ToMove < 0 {
			if p.seat == 0 {
				r.over.Add(1)
			}
			return
		}
		if m.View.ToMove != p.seat || len(m.Legal) == 0 || m.View.EventCount <= p.acted {
			continue
		}
		// The choice and the pause are drawn here, so p's generator has
		// one user. The table waits for p: p has at most one action on
		// its way, and the next view for p comes after it.
		p.acted = m.View.EventCount
		a := m.Legal[p.rng.IntN(len(m.Legal))]
		var pause time.Duration
		if r.cfg.Think > 0 {
			pause = time.Duration(p.rng.ExpFloat64() * float64(r.cfg.Think))
		}
		count := m.View.EventCount
		r.wg.Go(func() { r.act(ctx, p, count, a, pause) })
	}
}

// time records the latency of every action sent at p's table that this
// view (with count events) is the first of p's to include; it returns how
// many of them p sent (the view acknowledges them).
func (p *person) time(r *arlRun, count int, now time.Time) (acked int) {
	t := p.t
	t.mu.Lock()
	defer t.mu.Unlock()
	for n := p.seen + 1; n <= t.seq; n++ {
		a := t.sent[n%sentKept]
		if a.seq != n {
			r.missed.Add(1) // overwritten: p lagged too far behind
			p.seen = n
			continue
		}
		if count <= a.before {
			break // not in this view yet, nor any later action
		}
		p.seen = n
		if a.actor == p.seat {
			p.actor = append(p.actor, now.Sub(a.at))
			acked++
		} else {
			p.others = append(p.others, now.Sub(a.at))
		}
	}
	return acked
}

// act waits for the play to begin, thinks for pause, then sends action a
// (chosen from the view with count events). It returns when it has sent
// it or ctx ends.
func (r *arlRun) act(ctx context.Context, p *person, count int, a string, pause time.Duration) {
	select {
	case <-r.start:
	case <-ctx.Done():
		return
	}
	if pause > 0 {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	t := p.t
	t.mu.Lock()
	t.seq++
	t.sent[t.seq%sentKept] = sentAction{seq: t.seq, at: time.Now(), before: count, actor: p.seat}
	t.mu.Unlock()
	if err := send(ctx, p.c, map[string]any{"type": "action", "action": a}); err != nil {
		if ctx.Err() == nil {
			r.fail(fmt.Errorf("table %s seat %d: sending %q: %w", t.id, p.seat, a, err))
		}
		return
	}
	r.acts.Add(1)
}
