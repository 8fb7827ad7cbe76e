package cli

import (
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// repeatWindow is how long a line the tables and the registry log (Logf)
// is not written again word for word.
const repeatWindow = time.Minute

// maxRepeats bounds the lines remembered; past it the counts are written
// out and forgotten.
const maxRepeats = 64

// quietRepeats writes the WARN lines of the tables and the registry of
// servers (their Logf). A line the same, word for word, as one written
// less than a minute ago is counted, not written: while PostgreSQL is out
// of reach the heartbeat and the check of the tables held fail every
// second, and wrote a line a second each, 172,800 a day. The next time
// the line is written (a minute on, if it still happens) it carries
// repeated=N, the lines left out since; Flush, at the server's stop,
// writes the counts still pending. Lines that differ (each naming its
// table) are all written.
type quietRepeats struct {
	log *slog.Logger
	now func() time.Time

	mu    sync.Mutex
	lines map[string]*repeated
}

type repeated struct {
	at time.Time // when it was last written
	n  int       // left out since
}

func newQuietRepeats(log *slog.Logger, now func() time.Time) *quietRepeats {
	if now == nil {
		now = time.Now
	}
	return &quietRepeats{log: log, now: now, lines: map[string]*repeated{}}
}

// Logf is the tables' and the registry's Logf.
func (q *quietRepeats) Logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	q.mu.Lock()
	now := q.now()
	r, seen := q.lines[msg]
	if seen && now.Sub(r.at) < repeatWindow {
		r.n++
		q.mu.Unlock()
		return
	}
	left := 0
	if seen {
		left = r.n
	} else if len(q.lines) >= maxRepeats {
		q.flushLocked()
	}
	q.lines[msg] = &repeated{at: now}
	q.mu.Unlock()
	if left > 0 {
		q.log.Warn(msg, "repeated", left)
		return
	}
	q.log.Warn(msg)
}

// Flush writes each line with a count still pending, once, and forgets
// them all.
func (q *quietRepeats) Flush() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.flushLocked()
}

func (q *quietRepeats) flushLocked() {
	for msg, r := range q.lines {
		if r.n > 0 {
			q.log.Warn(msg, "repeated", r.n)
		}
	}
	clear(q.lines)
}
