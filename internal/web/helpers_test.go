package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// harness is a server of the games in its options (the tests mount small
// games of their own; the Spider handlers are tested in spiderweb).
type harness struct {
	tb   testing.TB
	s    *Server
	opts Options

	clk *clock
	// jar holds the player's cookie: copies made by otherPlayer have
	// their own.
	jar *jar
}

func newHarness(tb testing.TB, o Options) *harness {
	tb.Helper()
	h := &harness{tb: tb,
		clk: &clock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}, jar: &jar{}}
	if o.Now == nil {
		o.Now = h.now
	}
	h.opts = o
	h.s = New(o)
	return h
}

// now is a clock that ticks a second per reading, so that results are
// ordered.
func (h *harness) now() time.Time { return h.clk.now() }

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// jar is one browser's cookie.
type jar struct {
	mu     sync.Mutex
	cookie *http.Cookie
}

// otherPlayer is the harness as seen from another browser: same server,
// its own identity.
func (h *harness) otherPlayer() *harness {
	c := *h
	c.jar = &jar{}
	return &c
}

// player is the key of the harness's player ("" before its first request).
func (h *harness) player() string {
	h.jar.mu.Lock()
	defer h.jar.mu.Unlock()
	if h.jar.cookie == nil {
		return ""
	}
	return playerID(h.jar.cookie.Value)
}

func (h *harness) do(method, path, body string) (int, []byte, http.Header) {
	h.tb.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" && strings.HasPrefix(strings.TrimSpace(body), "{") {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := h.serve(req)
	b := rec.Body.Bytes()
	return rec.Code, b, rec.Header()
}

// serve sends req as the harness's browser: its player cookie goes with
// the request, and a cookie in the answer is kept.
func (h *harness) serve(req *http.Request) *httptest.ResponseRecorder {
	h.jar.mu.Lock()
	if h.jar.cookie != nil {
		req.AddCookie(h.jar.cookie)
	}
	h.jar.mu.Unlock()
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.Name == playerCookie {
			h.jar.mu.Lock()
			h.jar.cookie = c
			h.jar.mu.Unlock()
		}
	}
	return rec
}

// call does a request, checks its status and decodes the JSON answer into v
// (if not nil).
func (h *harness) call(method, path, body string, want int, v any) []byte {
	h.tb.Helper()
	code, b, hdr := h.do(method, path, body)
	if code != want {
		h.tb.Fatalf("%s %s %q: status %d, want %d: %s", method, path, body, code, want, b)
	}
	if ct := hdr.Get("Content-Type"); v != nil && !strings.HasPrefix(ct, "application/json") {
		h.tb.Fatalf("%s %s: content type %q", method, path, ct)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			h.tb.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}

// decodes reports whether b is JSON that decodes into v.
func decodes(b []byte, v any) bool { return json.Unmarshal(b, v) == nil }
