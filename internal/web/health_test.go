package web

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

type pinger struct{ err error }

func (p *pinger) Ping(context.Context) error { return p.err }

// TestHealth: /healthz answers while the process lives; /readyz only
// while the database takes writes and the server is not stopping, with
// the reason otherwise. Both answer any Host (a load balancer probes by
// address), past the host check.
func TestHealth(t *testing.T) {
	p := &pinger{}
	s := New(Options{CheckHost: true, Ready: p})
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
	p.err = errors.New("database is read-only")
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "read-only") {
		t.Fatalf("readyz, database failing: %d %q", code, body)
	}
	p.err = nil
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
