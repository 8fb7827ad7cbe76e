package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

type pinger struct{ err error }

func (p *pinger) Ping(context.Context) error { return p.err }

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestHealth: /healthz answers while the process lives; /readyz only
// while the database takes writes and the server is not stopping, with
// the reason otherwise (the database's own words only in the log, on a
// line that names no client, there being none). Both answer any Host (a
// load balancer probes by address), past the host check.
func TestHealth(t *testing.T) {
	p := &pinger{}
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	logs := &webtest.Log{}
	s := New(Options{CheckHost: true, Ready: p, Now: clock.Now,
		Log: slog.New(slog.NewTextHandler(logs, nil))})
	get := func(path string) (int, string) {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = "10.1.2.3:8080" // not an allowed host
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		return rec.Code, rec.Body.String()
	}
	if code, body := get("/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("healthz: %d %q", code, body)
	}
	if code, body := get("/readyz"); code != http.StatusOK {
		t.Fatalf("readyz: %d %q", code, body)
	}
	if code, _ := get("/"); code != http.StatusMisdirectedRequest {
		t.Fatalf("the page by address: %d, want the host check's 421", code)
	}
	p.err = errors.New("/srv/private/cardtable.db: database is read-only")
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Fatalf("readyz within a second of a good probe: %d, want the reused answer", code)
	}
	clock.Add(readyFresh)
	// The database's words (its file's path; on PostgreSQL its host and
	// user) go to the log, not to whoever asks /readyz.
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable ||
		!strings.Contains(body, "database") || strings.Contains(body, "/srv/private") {
		t.Fatalf("readyz, database failing: %d %q, want 503 naming the database without its words",
			code, body)
	}
	if !strings.Contains(logs.String(), "/srv/private/cardtable.db: database is read-only") {
		t.Fatalf("the log lacks the failed probe's error: %s", logs.String())
	}
	if strings.Contains(logs.String(), "client=") {
		t.Fatalf("the not-ready line names a client: %s", logs.String())
	}
	p.err = nil
	clock.Add(readyFresh)
	s.Drain()
	s.Drain() // twice is harmless
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "stopping") {
		t.Fatalf("readyz, draining: %d %q", code, body)
	}
	if code, _ := get("/healthz"); code != http.StatusOK {
		t.Fatalf("healthz while draining: %d", code)
	}
	r := httptest.NewRequest("POST", "/healthz", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST /healthz: %d", rec.Code)
	}
}

// countingObserver records what the server tells its Observer.
type countingObserver struct {
	mu       sync.Mutex
	requests map[string]int
	ws       int
	limited  int
}

func (o *countingObserver) Request(pattern string, status int, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests[pattern+" "+http.StatusText(status)]++
}
func (o *countingObserver) WebSocket(d int) { o.mu.Lock(); o.ws += d; o.mu.Unlock() }
func (o *countingObserver) RateLimited()    { o.mu.Lock(); o.limited++; o.mu.Unlock() }

// TestObserver: requests are counted by route pattern and status, and
// rate-limit refusals apart.
func TestObserver(t *testing.T) {
	o := &countingObserver{requests: map[string]int{}}
	rl := RateLimit{Player: Bucket{Burst: 1, Every: time.Hour}, Address: Bucket{Burst: 1, Every: time.Hour}, MaxKeys: 10}
	s := New(Options{RateLimit: &rl, Games: []Routes{limitedGame{}}, Observer: o})
	for _, path := range []string{"/api/echo/create", "/api/echo/create", "/api/nothing"} {
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", path, nil))
	}
	want := map[string]int{"POST /api/echo/create Created": 1, "POST /api/echo/create Too Many Requests": 1, "/ Not Found": 1}
	for k, n := range want {
		if o.requests[k] != n {
			t.Errorf("%q counted %d, want %d (all: %v)", k, o.requests[k], n, o.requests)
		}
	}
	if o.limited != 1 {
		t.Errorf("%d refusals counted, want 1", o.limited)
	}
}

// slowPinger counts its probes; each waits for release, and started
// receives as the first begins.
type slowPinger struct {
	mu      sync.Mutex
	n       int
	started chan struct{}
	release chan struct{}
}

func (p *slowPinger) Ping(ctx context.Context) error {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	select {
	case p.started <- struct{}{}:
	default: // the test waits for the first probe only
	}
	select {
	case <-p.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *slowPinger) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// TestReadyProbesBounded: /readyz is outside the rate limit, so however
// many ask at once, the database sees one probe a second: callers during a
// probe share it, and its answer is reused until readyFresh has passed.
func TestReadyProbesBounded(t *testing.T) {
	p := &slowPinger{started: make(chan struct{}, 4), release: make(chan struct{})}
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	// A limit of one request an hour: /readyz stays exempt from it.
	limit := &RateLimit{Player: Bucket{Burst: 1, Every: time.Hour}, Address: Bucket{Burst: 1, Every: time.Hour}, MaxKeys: 10}
	s := New(Options{Ready: p, Now: clock.Now, RateLimit: limit})
	get := func() int {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
		return rec.Code
	}
	const n = 200
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { codes <- get() })
	}
	<-p.started // a probe is under way; every other caller waits for it or reuses it
	close(p.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Fatalf("a concurrent /readyz answered %d", c)
		}
	}
	if got := p.count(); got != 1 {
		t.Fatalf("%d concurrent /readyz ran %d probes, want 1", n, got)
	}
	for range n {
		get()
	}
	if got := p.count(); got != 1 {
		t.Fatalf("within a second: %d probes, want 1", got)
	}
	clock.Add(readyFresh)
	if get(); p.count() != 2 {
		t.Fatalf("after a second: %d probes, want 2", p.count())
	}
}
