package web

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// EventsPerMinute is how many lines of one kind (a refused connection, a
// closed WebSocket, a rate-limit refusal, with its reason) the server logs
// in a minute; past it, one summary line says how many were left out. A
// flood of bad clients cannot fill the disk with logs.
const EventsPerMinute = 20

// maxReasons bounds the reasons counted at once (the code names a few;
// more share one count).
const maxReasons = 64

// EventLog writes one structured line per connection event, at most
// perMinute lines per reason in each minute. It is safe for concurrent use.
type EventLog struct {
	log       *slog.Logger
	now       func() time.Time
	perMinute int

	mu     sync.Mutex
	window time.Time // start of the current minute
	counts map[string]int
	timer  *time.Timer // flushes the summaries when the minute ends
}

// NewEventLog logs to log, perMinute lines per reason a minute (0:
// EventsPerMinute), by the clock now (time.Now if nil).
func NewEventLog(log *slog.Logger, perMinute int, now func() time.Time) *EventLog {
	if perMinute <= 0 {
		perMinute = EventsPerMinute
	}
	if now == nil {
		now = time.Now
	}
	return &EventLog{log: log, now: now, perMinute: perMinute, counts: map[string]int{}}
}

// Event logs msg for a client at addr with reason, unless this minute has
// had its share of reason already.
func (e *EventLog) Event(ctx context.Context, level slog.Level, msg, reason, addr string, attrs ...any) {
	e.mu.Lock()
	now := e.now()
	if now.Sub(e.window) >= time.Minute || now.Before(e.window) {
		e.flushLocked()
		e.window = now.Truncate(time.Minute)
	}
	key := reason
	if _, ok := e.counts[key]; !ok && len(e.counts) >= maxReasons {
		key = "other"
	}
	e.counts[key]++
	n := e.counts[key]
	if n == e.perMinute+1 && e.timer == nil {
		// Exits on its own: one call when the minute is over.
		e.timer = time.AfterFunc(e.window.Add(time.Minute).Sub(now), e.Flush)
	}
	e.mu.Unlock()
	if n <= e.perMinute {
		e.log.Log(ctx, level, msg, append([]any{"reason", reason, "client", addr}, attrs...)...)
	}
}

// Flush writes the summary lines of the minute so far ("suppressed K
// similar" per reason over its share) and starts counting afresh.
func (e *EventLog) Flush() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flushLocked()
}

func (e *EventLog) flushLocked() {
	for reason, n := range e.counts {
		if n > e.perMinute {
			e.log.Warn("suppressed similar log lines", "reason", reason, "suppressed", n-e.perMinute,
				"summary", "suppressed "+strconv.Itoa(n-e.perMinute)+" similar")
		}
	}
	clear(e.counts)
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
}
