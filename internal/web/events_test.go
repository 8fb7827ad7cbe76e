package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// TestEventLogBound: a flood of one reason writes the minute's share, then
// one summary line with the number left out; another reason has its own
// share, and the next minute starts afresh.
func TestEventLogBound(t *testing.T) {
	buf := &webtest.Log{}
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 5, 0, time.UTC)}
	e := NewEventLog(slog.New(slog.NewJSONHandler(buf, nil)), 5, clk.Now)
	ctx := context.Background()
	for i := range 10000 {
		e.Event(ctx, slog.LevelWarn, "request refused", "rate limited", fmt.Sprint("192.0.2.", i%200))
	}
	for range 3 {
		e.Event(ctx, slog.LevelInfo, "websocket closed", "bye", "192.0.2.1")
	}
	lines := buf.Lines(t)
	if len(lines) != 8 {
		t.Fatalf("%d lines after 10,003 events, want 5 + 3", len(lines))
	}
	if l := lines[0]; l["reason"] != "rate limited" || l["client"] != "192.0.2.0" || l["msg"] != "request refused" {
		t.Fatalf("first line %v", l)
	}
	clk.T = clk.T.Add(time.Minute) // the next event closes the minute
	e.Event(ctx, slog.LevelWarn, "request refused", "rate limited", "192.0.2.1")
	lines = buf.Lines(t)
	if len(lines) != 10 {
		t.Fatalf("%d lines, want 8 + a summary + the new minute's first", len(lines))
	}
	sum := lines[8]
	if sum["summary"] != "suppressed 9995 similar" || sum["reason"] != "rate limited" || sum["suppressed"] != 9995.0 {
		t.Fatalf("summary line %v", sum)
	}
	if lines[9]["msg"] != "request refused" {
		t.Fatalf("the new minute's first event was not logged: %v", lines[9])
	}
	// Flush writes the summary without waiting for another event.
	for range 7 {
		e.Event(ctx, slog.LevelWarn, "request refused", "rate limited", "192.0.2.1")
	}
	e.Flush()
	lines = buf.Lines(t)
	if last := lines[len(lines)-1]; last["summary"] != "suppressed 3 similar" {
		t.Fatalf("after Flush: %v", last)
	}
}

// TestEventLogReasonsBounded: kinds past maxKinds share one count, so
// the counts cannot grow with what clients send.
func TestEventLogReasonsBounded(t *testing.T) {
	buf := &webtest.Log{}
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}
	e := NewEventLog(slog.New(slog.NewJSONHandler(buf, nil)), 1, clk.Now)
	for i := range 1000 {
		e.Event(context.Background(), slog.LevelInfo, "x", fmt.Sprint("reason ", i), "a")
	}
	e.mu.Lock()
	n := len(e.counts)
	e.mu.Unlock()
	if n > maxKinds+1 {
		t.Fatalf("%d reasons counted, bound %d", n, maxKinds+1)
	}
	if got := len(buf.Lines(t)); got > maxKinds+1 {
		t.Fatalf("%d lines for 1000 reasons", got)
	}
}

// TestRateLimitRefusalLogged: a refusal is logged with the client's
// address and the reason, bounded.
func TestRateLimitRefusalLogged(t *testing.T) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	rl := RateLimit{Player: Bucket{Burst: 1, Every: time.Hour}, Address: Bucket{Burst: 1, Every: time.Hour}, MaxKeys: 10}
	// The event log's clock stands still: on the clock on the wall, the
	// requests could straddle the turn of a minute, a fresh share.
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)}
	s := New(Options{Log: log, RateLimit: &rl, Games: []Routes{limitedGame{}}, Events: NewEventLog(log, 3, clk.Now)})
	for range 50 {
		r := httptest.NewRequest("POST", "/api/echo/create", nil)
		r.RemoteAddr = "192.0.2.77:999"
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	var refused int
	for _, l := range buf.Lines(t) {
		if l["reason"] == "rate limited" && l["msg"] == "request refused" {
			refused++
			if l["client"] != "192.0.2.77" || l["route"] != "POST /api/echo/create" {
				t.Fatalf("line %v", l)
			}
		}
	}
	if refused != 3 {
		t.Fatalf("%d refusal lines for 49 refusals, want the minute's 3", refused)
	}
}

// faultyGame answers /api/outage with the database out of reach,
// /api/full with its disk full, and /api/fault with a fault of another
// kind, logged by log.
type faultyGame struct{ log *slog.Logger }

func (g faultyGame) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/outage", Handle(g.log, func(w http.ResponseWriter, r *http.Request) error {
		return fmt.Errorf("saving: %w", unavailableErr{})
	}))
	mux.HandleFunc("GET /api/full", Handle(g.log, func(w http.ResponseWriter, r *http.Request) error {
		return fmt.Errorf("saving: %w", ErrInsufficientStorage)
	}))
	mux.HandleFunc("GET /api/fault", Handle(g.log, func(w http.ResponseWriter, r *http.Request) error {
		return errors.New("disk on fire")
	}))
}

// abandonedGame answers /api/busy with a refusal for load (Busy), and
// /api/gone with what a handler meets when its client went away: its
// request's context canceled.
type abandonedGame struct{ log *slog.Logger }

func (g abandonedGame) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/busy", Handle(g.log, func(w http.ResponseWriter, r *http.Request) error {
		return Busy(Public(Errorf(ErrUnavailable, "another search is running"), "another search is running"))
	}))
	mux.HandleFunc("GET /api/gone", Handle(g.log, func(w http.ResponseWriter, r *http.Request) error {
		<-r.Context().Done()
		return fmt.Errorf("searching: %w", r.Context().Err())
	}))
}

// TestClientMade503sLogBounded: a client that abandons its requests in a
// loop (a hint asked and dropped), or asks again and again while the
// server refuses for load, gets a bounded share of INFO lines a minute
// and a count, not an ERROR line each (the soak in docs/operating.md
// found 200 such lines in ten minutes from one client). A request whose
// own context is canceled by the server's code, not by its client, is
// still a fault, at ERROR.
func TestClientMade503sLogBounded(t *testing.T) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)}
	events := NewEventLog(log, 3, clk.Now)
	s := New(Options{Log: log, Games: []Routes{abandonedGame{log}}, Events: events})
	for range 40 {
		r := httptest.NewRequest("GET", "/api/busy", nil)
		r.RemoteAddr = "192.0.2.7:999"
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "another search is running") {
			t.Fatalf("busy: %d %s", rec.Code, rec.Body)
		}
	}
	for range 40 {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the client is gone before the answer
		r := httptest.NewRequest("GET", "/api/gone", nil).WithContext(ctx)
		r.RemoteAddr = "192.0.2.7:999"
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	events.Flush()
	counts := map[string]int{}
	for _, l := range buf.Lines(t) {
		switch {
		case l["msg"] == "request failed":
			if l["level"] != "INFO" || l["client"] != "192.0.2.7" {
				t.Errorf("line %v", l)
			}
			counts[fmt.Sprint(l["path"], " ", l["reason"])]++
		case l["msg"] == "suppressed similar log lines":
			// Counted at the level of the lines it counts: a flood of
			// clients gone is no WARN line a minute.
			if l["suppressed"] != 37.0 || l["level"] != "INFO" {
				t.Errorf("line %v", l)
			}
			counts["summary "+fmt.Sprint(l["reason"])]++
		}
	}
	want := map[string]int{"/api/busy busy": 3, "/api/gone client gone": 3, "summary busy": 1, "summary client gone": 1}
	if !maps.Equal(counts, want) {
		t.Fatalf("lines %v, want %v", counts, want)
	}

	// The handler's own cancelled context, the client still there: a fault.
	buf2 := &webtest.Log{}
	log2 := slog.New(slog.NewJSONHandler(buf2, nil))
	events2 := NewEventLog(log2, 3, clk.Now)
	events2.Fault(context.Background(), log2, "request failed", "192.0.2.7", fmt.Errorf("writing: %w", context.Canceled))
	if ls := buf2.Lines(t); len(ls) != 1 || ls[0]["level"] != "ERROR" {
		t.Fatalf("a cancel not the client's: %v", ls)
	}
}

// TestOutOfReachLogBounded: while the database is out of reach (or its
// disk full) every request fails with it; those failures are logged
// through the event log, the minute's share (EventsPerMinute) and then a
// count of the rest, not one line each; a fault of another kind is still
// logged every time, at ERROR.
func TestOutOfReachLogBounded(t *testing.T) {
	for _, tc := range []struct{ name, path, reason string }{
		{"out of reach", "/api/outage", "database out of reach"},
		{"disk full", "/api/full", "disk full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := &webtest.Log{}
			log := slog.New(slog.NewJSONHandler(buf, nil))
			clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)}
			events := NewEventLog(log, 0, clk.Now) // 0: EventsPerMinute
			s := New(Options{Log: log, Games: []Routes{faultyGame{log}}, Events: events})
			get := func(path string) {
				r := httptest.NewRequest("GET", path, nil)
				r.RemoteAddr = "192.0.2.7:999"
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, r)
				if rec.Code/100 != 5 {
					t.Fatalf("%s: %d", path, rec.Code)
				}
			}
			const failed = 50
			for range failed {
				get(tc.path)
			}
			for range 5 {
				get("/api/fault")
			}
			events.Flush()
			var bounded, fault, summary int
			for _, l := range buf.Lines(t) {
				switch {
				case l["msg"] == "request failed" && l["path"] == tc.path:
					bounded++
					if l["level"] != "WARN" || l["reason"] != tc.reason || l["client"] != "192.0.2.7" {
						t.Errorf("line %v", l)
					}
				case l["msg"] == "request failed" && l["path"] == "/api/fault":
					fault++
					if l["level"] != "ERROR" {
						t.Errorf("line %v", l)
					}
				case l["msg"] == "suppressed similar log lines" && l["reason"] == tc.reason:
					summary++
					if l["suppressed"] != float64(failed-EventsPerMinute) || l["level"] != "WARN" {
						t.Errorf("line %v", l)
					}
				}
			}
			if bounded != EventsPerMinute || fault != 5 || summary != 1 {
				t.Fatalf("%d %s lines (want %d), %d other faults (want 5), %d summaries (want 1)",
					bounded, tc.reason, EventsPerMinute, fault, summary)
			}
		})
	}
}

// TestOutOfReachKindsApart: failures of different kinds met with the
// database out of reach each have their share of the minute: a flood of
// one kind (the look-ups of where a table runs, as reconnecting people
// make them) leaves the failed requests' lines, with their paths, to
// read, and each kind over its share has its own summary saying which.
func TestOutOfReachKindsApart(t *testing.T) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)}
	events := NewEventLog(log, 3, clk.Now)
	s := New(Options{Log: log, Games: []Routes{faultyGame{log}}, Events: events})
	ctx := context.Background()
	for range 50 {
		events.Fault(ctx, log, "where a table runs", "192.0.2.8", fmt.Errorf("looking up: %w", unavailableErr{}))
	}
	for range 5 {
		r := httptest.NewRequest("GET", "/api/outage", nil)
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	events.Flush()
	var lookups, requests int
	summaries := map[any]any{}
	for _, l := range buf.Lines(t) {
		switch {
		case l["msg"] == "where a table runs":
			lookups++
		case l["msg"] == "request failed" && l["path"] == "/api/outage":
			requests++
		case l["msg"] == "suppressed similar log lines":
			summaries[l["of"]] = l["suppressed"]
		}
	}
	if lookups != 3 || requests != 3 {
		t.Fatalf("%d look-up lines, %d failed requests' lines; want 3 of each", lookups, requests)
	}
	if summaries["where a table runs"] != 47.0 || summaries["request failed"] != 2.0 || len(summaries) != 2 {
		t.Fatalf("summaries %v", summaries)
	}
}

// slowErr is a store's error of a statement PostgreSQL cancelled for its
// timeout: a database that answered, but not in time.
type slowErr struct{ unavailableErr }

func (slowErr) Error() string { return "canceling statement due to statement timeout" }
func (slowErr) TooSlow() bool { return true }

// TestSlowDatabaseOwnWords: a request failed for a statement past its
// timeout is a 503 as the database out of reach is, but neither the
// player nor the log is told that the database cannot be reached: it
// answered, slowly (a lock held). Its log lines are bounded under a
// reason of their own.
func TestSlowDatabaseOwnWords(t *testing.T) {
	err := fmt.Errorf("saving: %w", slowErr{})
	code, msg := status(err)
	if code != 503 || msg != "the server's database is too slow just now; try again in a moment" {
		t.Fatalf("status %d %q", code, msg)
	}
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	clk := &webtest.Clock{T: time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)}
	events := NewEventLog(log, 3, clk.Now)
	for range 10 {
		events.Fault(context.Background(), log, "request failed", "192.0.2.9", err)
	}
	events.Fault(context.Background(), log, "request failed", "192.0.2.9", fmt.Errorf("saving: %w", unavailableErr{}))
	events.Flush()
	reasons := map[any]int{}
	for _, l := range buf.Lines(t) {
		if l["msg"] == "request failed" {
			if l["level"] != "WARN" {
				t.Errorf("line %v", l)
			}
			reasons[l["reason"]]++
		}
	}
	if reasons["database too slow: statement_timeout or lock_timeout"] != 3 || reasons["database out of reach"] != 1 || len(reasons) != 2 {
		t.Fatalf("lines by reason %v; want 3 too slow (bounded), 1 out of reach", reasons)
	}
}

// noConnErr is the store's refusal of a request that found no connection
// of its pool free in time.
type noConnErr struct{ slowErr }

func (noConnErr) Error() string {
	return "no connection of the pool free within 5s: context deadline exceeded"
}

// Unwrap gives the wait's deadline, as the store's refusal does
// (pgstore's noConnection): the database's words must still win.
func (noConnErr) Unwrap() error             { return context.DeadlineExceeded }
func (noConnErr) SlowReason() string        { return "database too slow: no connection free" }
func (noConnErr) RetryAfter() time.Duration { return 4500 * time.Millisecond }

// TestNoConnectionRetryAfter: a request refused because no connection of
// the database's pool was free in time is answered 503 in the words of
// a database too slow, with the Retry-After the store asks for (whole
// seconds, rounded up), and logged under its own reason; a statement
// timed out, which asks for none, gets no Retry-After; the database out
// of reach gets the lease's 5 s.
func TestNoConnectionRetryAfter(t *testing.T) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	clk := &webtest.Clock{T: time.Date(2026, 11, 28, 12, 0, 30, 0, time.UTC)}
	events := NewEventLog(log, 3, clk.Now)
	answer := func(err error) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/api/stats", nil)
		r = r.WithContext(context.WithValue(r.Context(), eventsKey{}, events))
		WriteError(rec, r, log, err)
		return rec
	}
	rec := answer(fmt.Errorf("stats: %w", noConnErr{}))
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "5" ||
		!strings.Contains(rec.Body.String(), "the server's database is too slow just now; try again in a moment") {
		t.Fatalf("no connection: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := answer(fmt.Errorf("stats: %w", slowErr{})); rec.Code != 503 || rec.Header().Get("Retry-After") != "" {
		t.Fatalf("statement_timeout: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	// Out of reach: the store asks for no wait; the layer gives its own
	// (a lease, outOfReachRetry). PostgreSQL not answering is out of
	// reach too, though its error holds the wait's deadline.
	for _, err := range []error{unavailableErr{}, notAnsweringErr{}} {
		if rec := answer(fmt.Errorf("stats: %w", err)); rec.Code != 503 || rec.Header().Get("Retry-After") != "5" ||
			!strings.Contains(rec.Body.String(), "cannot reach its database") {
			t.Fatalf("out of reach (%v): %d, Retry-After %q, %s", err, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
		}
	}
	if rec := answer(fmt.Errorf("%w: stopping", ErrUnavailable)); rec.Code != 503 || rec.Header().Get("Retry-After") != "" {
		t.Fatalf("shutting down: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	events.Flush()
	reasons := map[any]int{}
	for _, l := range buf.Lines(t) {
		if l["msg"] == "request failed" {
			reasons[l["reason"]]++
		}
	}
	if reasons["database too slow: no connection free"] != 1 || reasons["database too slow: statement_timeout or lock_timeout"] != 1 ||
		reasons["database out of reach"] != 2 {
		t.Fatalf("lines by reason %v; want one of each database class, two out of reach (refused, not answering)", reasons)
	}
}
