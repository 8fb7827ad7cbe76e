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

// maxRepeats bounds the different lines remembered at once. Past it a
// new line is counted with the others past it, in one line written when
// its minute ends, and the lines remembered keep their counts (before,
// all were written out and forgotten, and 70 tables failing each their
// own way wrote every line again, the heartbeat's too).
const maxRepeats = 1024

// quietRepeats writes the WARN lines of the tables and the registry of
// servers (their Logf). A line the same, word for word, as one written
// less than a minute ago is counted, not written: while PostgreSQL is
// out of reach the heartbeat and the check of the tables held fail
// every second, and wrote a line a second each, 172,800 a day. When the
// line's minute ends, the count is written (the line again, with
// repeated=N) if any were left out, and counting goes on for another
// minute; a minute with none left out forgets the line. So a count is
// written in the minute its lines happened, not with the next failure
// days later. Flush, at the server's stop, writes the counts still
// pending. Lines that differ (each naming its table) are all written.
//
// The web handlers' lines are not written here: a request or a table's
// action that failed for want of the database goes to web.EventLog, 20
// a minute and a summary (docs/hosting.md).
type quietRepeats struct {
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	lines   map[string]*repeated
	over    int         // lines left out for want of room, this minute
	overAt  time.Time   // when the first of them came
	timer   *time.Timer // writes the counts whose minute ended
	stopped bool        // Flush ran: write every line, arm no timer
}

type repeated struct {
	at time.Time // when its minute began (it was written)
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
	switch {
	case q.stopped:
	case seen && now.Sub(r.at) < repeatWindow:
		r.n++
		q.mu.Unlock()
		return
	case seen:
		// Its minute ended while the timer was late: this line is the
		// count's, and starts the next minute.
		q.lines[msg] = &repeated{at: now}
		n := r.n
		q.mu.Unlock()
		q.write(msg, n)
		return
	case len(q.lines) >= maxRepeats:
		if q.over == 0 {
			q.overAt = now
		}
		q.over++
		q.mu.Unlock()
		return
	default:
		q.lines[msg] = &repeated{at: now}
		q.armLocked(now)
	}
	q.mu.Unlock()
	q.write(msg, 0)
}

// write writes msg, with repeated=n if n > 0. Never called holding mu.
func (q *quietRepeats) write(msg string, n int) {
	if n > 0 {
		q.log.Warn(msg, "repeated", n)
		return
	}
	q.log.Warn(msg)
}

// armLocked starts the timer, if it is not running, for the end of the
// earliest minute remembered. Its goroutine is one call of expire,
// which arms it again only while lines are remembered; Flush stops it.
func (q *quietRepeats) armLocked(now time.Time) {
	if q.timer != nil || q.stopped {
		return
	}
	first, found := time.Time{}, false
	for _, r := range q.lines {
		if !found || r.at.Before(first) {
			first, found = r.at, true
		}
	}
	if q.over > 0 && (!found || q.overAt.Before(first)) {
		first, found = q.overAt, true
	}
	if !found {
		return
	}
	q.timer = time.AfterFunc(first.Add(repeatWindow).Sub(now), q.expire)
}

// expire writes the counts of the lines whose minute ended.
func (q *quietRepeats) expire() {
	q.mu.Lock()
	q.timer = nil
	if q.stopped {
		q.mu.Unlock()
		return
	}
	now := q.now()
	counts := q.endedLocked(now, false)
	q.armLocked(now)
	q.mu.Unlock()
	q.writeCounts(counts)
}

// pending is a count to write: a line left out n times.
type pending struct {
	msg string
	n   int
}

// endedLocked takes the counts of the lines whose minute ended at now
// (all of them if all): a line with a count starts another minute, one
// without is forgotten.
func (q *quietRepeats) endedLocked(now time.Time, all bool) []pending {
	var out []pending
	for msg, r := range q.lines {
		if !all && now.Sub(r.at) < repeatWindow {
			continue
		}
		if r.n == 0 || all {
			delete(q.lines, msg)
		} else {
			r.at = now
		}
		if r.n > 0 {
			out = append(out, pending{msg, r.n})
			r.n = 0
		}
	}
	if q.over > 0 && (all || now.Sub(q.overAt) >= repeatWindow) {
		out = append(out, pending{fmt.Sprintf("log lines left out: more than %d different lines in a minute", maxRepeats), q.over})
		q.over = 0
	}
	return out
}

func (q *quietRepeats) writeCounts(counts []pending) {
	for _, c := range counts {
		q.write(c.msg, c.n)
	}
}

// Flush writes each line with a count still pending, once, and stops
// the timer; lines logged after it are all written.
func (q *quietRepeats) Flush() {
	q.mu.Lock()
	q.stopped = true
	if q.timer != nil {
		q.timer.Stop()
		q.timer = nil
	}
	counts := q.endedLocked(q.now(), true)
	q.mu.Unlock()
	q.writeCounts(counts)
}
