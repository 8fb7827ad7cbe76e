package web

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// EventsPerMinute is how many lines of one kind (a refused connection, a
// closed WebSocket, a rate-limit refusal, a request failed: one message
// with one reason) the server logs in a minute; past it, one summary
// line says how many were left out. A flood of bad clients cannot fill
// the disk with logs.
const EventsPerMinute = 20

// maxKinds bounds the kinds counted at once (the code names a few;
// more share one count).
const maxKinds = 64

// kind is what lines are counted by: their message and reason. Counted
// by reason alone, the look-ups of reconnecting people, failing with
// the database, used a minute's share in a second, and no failed
// request's line (with its path) was left to read.
type kind struct{ msg, reason string }

// tally is a kind's lines this minute and the highest level among them:
// its summary is written at that level, so that a count of INFO lines
// (clients gone) is no WARN line a minute.
type tally struct {
	n     int
	level slog.Level
}

// EventLog writes one structured line per connection event, at most
// perMinute lines of each kind (message and reason) in each minute. It
// is safe for concurrent use.
type EventLog struct {
	log       *slog.Logger
	now       func() time.Time
	perMinute int

	mu     sync.Mutex
	window time.Time // start of the current minute
	counts map[kind]*tally
	timer  *time.Timer // flushes the summaries when the minute ends
}

// NewEventLog logs to log, perMinute lines of each kind a minute (0:
// EventsPerMinute), by the clock now (time.Now if nil).
func NewEventLog(log *slog.Logger, perMinute int, now func() time.Time) *EventLog {
	if perMinute <= 0 {
		perMinute = EventsPerMinute
	}
	if now == nil {
		now = time.Now
	}
	return &EventLog{log: log, now: now, perMinute: perMinute, counts: map[kind]*tally{}}
}

// Event logs msg for a client at addr with reason, unless this minute has
// had its share of msg with reason already.
func (e *EventLog) Event(ctx context.Context, level slog.Level, msg, reason, addr string, attrs ...any) {
	e.mu.Lock()
	now := e.now()
	if now.Sub(e.window) >= time.Minute || now.Before(e.window) {
		e.flushLocked()
		e.window = now.Truncate(time.Minute)
	}
	key := kind{msg, reason}
	if _, ok := e.counts[key]; !ok && len(e.counts) >= maxKinds {
		key = kind{"other", "other"}
	}
	t := e.counts[key]
	if t == nil {
		t = &tally{level: level}
		e.counts[key] = t
	}
	t.n++
	t.level = max(t.level, level)
	n := t.n
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
// similar" per kind over its share, with its message as "of", at the
// level of the lines it counts) and starts
// counting afresh.
func (e *EventLog) Flush() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flushLocked()
}

func (e *EventLog) flushLocked() {
	for k, t := range e.counts {
		if n := t.n; n > e.perMinute {
			e.log.Log(context.Background(), t.level, "suppressed similar log lines", "of", k.msg, "reason", k.reason, "suppressed", n-e.perMinute,
				"summary", "suppressed "+strconv.Itoa(n-e.perMinute)+" similar")
		}
	}
	clear(e.counts)
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
}
