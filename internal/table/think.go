package table

import (
	"context"
	"errors"
	"time"

	"cardtable/arlington"
)

// Bot decisions: a bot thinks in a goroutine of its own, on a worker of
// the hub's shared pool (workers.go), and hands its answer to the table's
// goroutine, which applies it only if the game has not moved on. A bot
// that cannot be made, errs, chooses an illegal action or overruns its
// time is replaced by a random legal action, so that no bot can stall a
// table.

// think is one bot decision: for seat, asked at event count at.
type think struct {
	seat, at int
	tk       *ticket // its place in the bot workers' queue, or its worker
	cancel   context.CancelFunc
	deadline timerSlot
}

// botResult is a bot's answer to job, handed to the table's goroutine with
// the bot, for reuse.
type botResult struct {
	job *think
	b   Bot
	a   arlington.Action
	err error
}

// startThink asks seat's bot (or the stand-in) for an action, in a
// goroutine of its own, so that the table goes on serving while it thinks.
func (l *loop) startThink(seat int) {
	level := l.seats[seat].bot
	if level == "" {
		level = l.cfg.StandIn
	}
	b := l.pool[seat]
	l.pool[seat] = nil
	if b == nil {
		var err error
		if b, err = l.h.o.Bots(level, l.h.o.Seed()); err != nil {
			l.h.o.Logf("table %s: bot %q: %v", l.t.id, level, err)
			l.fallback(seat)
			return
		}
	}
	v := l.st.View(seat)
	ctx, cancel := context.WithCancel(l.ctx)
	tk := l.h.workers.ask() // here, in the table's goroutine: the queue's order is the asking order
	job := &think{seat: seat, at: l.st.EventCount(), tk: tk, cancel: cancel}
	l.think = job
	// The goroutine waits for a worker, tells the table it starts (the
	// deadline runs from then, not from the wait), asks the bot and hands
	// the answer in. It exits when its answer is taken, or earlier when
	// the decision is abandoned or the table is gone (ctx); Act returns at
	// BotTime if the bot honours its context. It gives its worker back
	// as soon as Act returns.
	go func() {
		defer cancel()
		select {
		case <-tk.ready:
		case <-ctx.Done():
			l.h.workers.done(tk)
			return
		}
		select {
		case l.begun <- job:
		case <-ctx.Done():
			l.h.workers.done(tk)
			return
		}
		actx, acancel := context.WithTimeout(ctx, l.h.o.BotTime)
		began := time.Now()
		a, err := b.Act(actx, v)
		l.h.o.Observer.BotThought(level, time.Since(began))
		acancel()
		l.h.workers.done(tk)
		select {
		case l.results <- botResult{job: job, b: b, a: a, err: err}:
		case <-l.ctx.Done():
		}
	}()
}

// begin: job's bot has a worker and starts thinking. The table does not
// trust a bot to honour its context: past BotTime and a grace period from
// now it plays on without it (botLate).
func (l *loop) begin(job *think) {
	if job == l.think {
		job.deadline.arm(l.h.o.Clock, l.h.o.BotTime+l.h.o.BotTime/2, [2]int{})
	}
}

// abandon drops the decision in flight: its answer will be stale. Its
// worker goes back to the pool now, even if its bot ignores the cancel.
func (l *loop) abandon() {
	l.think.cancel()
	l.h.workers.done(l.think.tk)
	l.think.deadline.stop()
	l.think = nil
}

// botDone takes a bot's answer: dropped if stale (the game moved on since
// it was asked), else applied, or a random legal action if the bot failed.
func (l *loop) botDone(r botResult) {
	seat := r.job.seat
	if l.pool[seat] == nil {
		l.pool[seat] = r.b // its goroutine is done with it: free to reuse
	}
	if r.job != l.think || r.job.at != l.st.EventCount() || seat != l.st.ToMove() || !l.botPlays(seat) {
		if r.job == l.think {
			l.abandon()
		}
		if l.h.onStale != nil {
			l.h.onStale()
		}
		return
	}
	l.abandon()
	if r.err != nil {
		l.h.o.Logf("table %s: seat %d's bot: %v", l.t.id, seat, r.err)
		l.fallback(seat)
		return
	}
	if err := l.botApply(seat, r.a); err != nil {
		l.h.o.Logf("table %s: seat %d's bot chose %v: %v", l.t.id, seat, r.a, err)
		l.fallback(seat)
	}
}

// botLate: the bot ignored its deadline. Its bot is left to its goroutine
// (a new one is made next time) and a random legal action is played.
func (l *loop) botLate() {
	seat := l.think.seat
	l.abandon()
	l.h.o.Logf("table %s: seat %d's bot did not answer in time", l.t.id, seat)
	l.fallback(seat)
}

// fallback plays a random legal action for seat, so that a failing bot
// never stalls the table.
func (l *loop) fallback(seat int) {
	legal := l.st.Legal(seat)
	if len(legal) == 0 {
		return
	}
	a := legal[arlington.NewRand(l.h.o.Seed()).Intn(len(legal))]
	if err := l.botApply(seat, a); err != nil {
		l.h.o.Logf("table %s: seat %d: %v", l.t.id, seat, err)
	}
}

// botApply applies a bot's action; if the store fails, the table tries
// again (asking the bot afresh) after a backoff (retry.go), and the error
// is nil: the bot did nothing wrong. Only a refused action is returned.
func (l *loop) botApply(seat int, a arlington.Action) error {
	err := l.apply(seat, a)
	if errors.Is(err, ErrMoved) {
		return nil // the table stops here; its new server goes on
	}
	if errors.Is(err, ErrStore) {
		l.storeFailed(seat, err)
		return nil
	}
	return err
}
