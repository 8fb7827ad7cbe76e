package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
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
// servers (their Logf), and the WARN and ERROR lines of the web handlers
// (Handler). A line the same, word for word, as one written less than a
// minute ago is counted, not written: while PostgreSQL is out of reach
// the heartbeat and the check of the tables held fail every second, and
// wrote a line a second each, 172,800 a day, and every request that
// needed the database wrote a line of its own. The next time the line is
// written (a minute on, if it still happens) it carries repeated=N, the
// lines left out since; Flush, at the server's stop, writes the counts
// still pending. Lines that differ (each naming its table) are all
// written.
type quietRepeats struct {
	log *slog.Logger
	now func() time.Time

	mu    sync.Mutex
	lines map[string]*repeated
}

type repeated struct {
	at    time.Time         // when it was last written
	n     int               // left out since
	write func(n int) error // writes the line, with repeated=n if n > 0
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
	q.line("logf\x00"+msg, func(n int) error {
		if n > 0 {
			q.log.Warn(msg, "repeated", n)
			return nil
		}
		q.log.Warn(msg)
		return nil
	})
}

// line writes the line key names (write(0)), unless it was written less
// than a minute ago: then it is counted.
func (q *quietRepeats) line(key string, write func(n int) error) error {
	q.mu.Lock()
	now := q.now()
	r, seen := q.lines[key]
	if seen && now.Sub(r.at) < repeatWindow {
		r.n++
		r.write = write
		q.mu.Unlock()
		return nil
	}
	left := 0
	if seen {
		left = r.n
	} else if len(q.lines) >= maxRepeats {
		q.flushLocked()
	}
	q.lines[key] = &repeated{at: now, write: write}
	q.mu.Unlock()
	return write(left)
}

// Flush writes each line with a count still pending, once, and forgets
// them all.
func (q *quietRepeats) Flush() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.flushLocked()
}

func (q *quietRepeats) flushLocked() {
	for _, r := range q.lines {
		if r.n > 0 {
			_ = r.write(r.n) // at the stop, no one to tell
		}
	}
	clear(q.lines)
}

// Handler is h with its WARN and ERROR lines written as Logf's are: one
// the same as one written less than a minute ago (its level, message and
// attributes; not its time) is counted, not written. Lines below WARN
// are all written.
func (q *quietRepeats) Handler(h slog.Handler) slog.Handler {
	return &quietHandler{next: h, q: q}
}

type quietHandler struct {
	next slog.Handler
	q    *quietRepeats
	with string // the attributes and groups added, as written
}

func (h *quietHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *quietHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return h.next.Handle(ctx, r)
	}
	var key strings.Builder
	fmt.Fprintf(&key, "handler\x00%s\x00%s\x00%s", h.with, r.Level, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&key, "\x00%s", a)
		return true
	})
	// The line is written later, at the latest by Flush, maybe after the
	// request ended: its context is kept without its end.
	ctx = context.WithoutCancel(ctx)
	return h.q.line(key.String(), func(n int) error {
		w := r.Clone()
		w.Time = h.q.now()
		if n > 0 {
			w.AddAttrs(slog.Int("repeated", n))
		}
		return h.next.Handle(ctx, w)
	})
}

func (h *quietHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &quietHandler{next: h.next.WithAttrs(as), q: h.q, with: fmt.Sprint(h.with, as)}
}

func (h *quietHandler) WithGroup(name string) slog.Handler {
	return &quietHandler{next: h.next.WithGroup(name), q: h.q, with: h.with + "\x00group " + name}
}
