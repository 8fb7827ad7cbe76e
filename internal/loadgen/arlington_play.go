package loadgen

// The people at play: each reads its WebSocket, times the views and acts
// on its turn.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// serverMsg is what a person reads of a server message: no more than it
// needs to time a view and to act.
type serverMsg struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	View   *struct {
		ToMove     int               `json:"toMove"`
		EventCount int               `json:"eventCount"`
		EventsFrom int               `json:"eventsFrom"`
		Events     []json.RawMessage `json:"events"`
	} `json:"view"`
	Legal []string `json:"legal"`
	Error string   `json:"error"`
}

// read is p's reader: it times the views and, when it is p's turn,
// starts p's action (thinking in a goroutine of its own: the reader goes
// on reading, so the connection answers the server's pings). It returns
// when ctx ends, the game is over or the connection fails (with
// Reconnect: fails to open again for a minute).
func (r *arlRun) read(ctx context.Context, p *person) {
	defer r.closeConn(p)
	for {
		_, b, err := p.conn().Read(ctx)
		now := time.Now()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !r.cfg.Reconnect {
				r.fail(fmt.Errorf("table %s seat %d: connection ended: %w", p.t.id, p.seat, err))
				return
			}
			if !r.reconnect(ctx, p, now) {
				return
			}
			continue
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
		p.seeEvents(r, m.View.EventsFrom, m.View.EventCount, m.View.Events, now)
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
		count, epoch := m.View.EventCount, p.epoch.Load()
		r.wg.Go(func() { r.act(ctx, p, count, a, pause, epoch) })
	}
}

// seeEvents checks a view's events against those p has seen: a view
// from the start (after a reconnect) must hold at least as many, the
// last one seen unchanged; otherwise an acknowledged event was lost or
// the history changed. It notes when a table p lost its connection to
// (once or more) moves on again.
func (p *person) seeEvents(r *arlRun, from, count int, evs []json.RawMessage, now time.Time) {
	if from <= p.have-1 && p.have > 0 {
		i := p.have - 1 - from
		if count < p.have || i >= len(evs) || !bytes.Equal(evs[i], p.lastEv) {
			r.lost.Add(1)
			r.fail(fmt.Errorf("table %s seat %d: %d events seen, a view from event %d holds %d of them, or another last one",
				p.t.id, p.seat, p.have, from, count))
		}
	}
	// Every outage since p last had a view, or since the table last
	// moved on for p, ends here (a connection may end again, at a
	// take-over, before either).
	for i := len(p.outages) - 1; i >= 0 && p.outages[i].Served.IsZero(); i-- {
		p.outages[i].Served = now
	}
	for i := len(p.outages) - 1; i >= 0 && p.outages[i].MovedOn.IsZero() && count > p.outages[i].EventsBeforeLoss; i-- {
		p.outages[i].MovedOn = now
	}
	if count > p.have && len(evs) > 0 && from+len(evs) == count {
		p.have, p.lastEv = count, bytes.Clone(evs[len(evs)-1])
	}
}

// reconnect opens p's connection again after it ended at ended, trying
// the next server in turn with a growing pause (from 50 ms to 1 s), for
// a minute at most. p decides again on its turn (an action on its way
// when the connection ended may never have arrived).
func (r *arlRun) reconnect(ctx context.Context, p *person, ended time.Time) bool {
	r.closeConn(p)
	p.outages = append(p.outages, Outage{Table: p.t.id, Seat: p.seat, Ended: ended, EventsBeforeLoss: p.have})
	p.acted = -1
	p.epoch.Add(1) // an action still thinking is dropped: p decides again
	wait := 50 * time.Millisecond
	var err error
	for deadline := ended.Add(time.Minute); time.Now().Before(deadline); {
		err = r.connect(ctx, p)
		if err == nil {
			r.recon.Add(1)
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(2*wait, time.Second)
	}
	// The last refusal says why (an address's bound is an
	// AddressLimitError).
	msg := fmt.Sprintf("table %s seat %d: no server took the connection again for a minute", p.t.id, p.seat)
	if err != nil {
		r.fail(fmt.Errorf("%s: %w", msg, err))
		return false
	}
	r.fail(errors.New(msg))
	return false
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
func (r *arlRun) act(ctx context.Context, p *person, count int, a string, pause time.Duration, epoch int64) {
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
	if p.epoch.Load() != epoch {
		return // the connection was opened again meanwhile: p decides afresh
	}
	t := p.t
	t.mu.Lock()
	t.seq++
	t.sent[t.seq%sentKept] = sentAction{seq: t.seq, at: time.Now(), before: count, actor: p.seat}
	t.mu.Unlock()
	if err := send(ctx, p.conn(), map[string]any{"type": "action", "action": a}); err != nil {
		if ctx.Err() == nil && !r.cfg.Reconnect { // with Reconnect, the reader opens it again
			r.fail(fmt.Errorf("table %s seat %d: sending %q: %w", t.id, p.seat, a, err))
		}
		return
	}
	r.acts.Add(1)
}
