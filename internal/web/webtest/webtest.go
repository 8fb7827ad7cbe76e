// Package webtest is test plumbing shared by the web packages' tests
// (internal/web, spiderweb, arlweb): a test clock, one browser's cookies
// against a handler, the status-and-JSON check of an answer, starting a
// headless Chromium, opening a tab and driving it in steps each bounded on
// its own (steps.go), the check that a page's sticky bar hides no focused
// control (FocusBelowBar), and the watcher of a browser tab's uncaught
// errors. Only _test.go files import it (architecture_test.go checks), and
// it imports no cardtable package, so internal/web's own tests can use it
// without an import cycle.
package webtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Clock is a test clock: each reading moves it on by Step (zero: it
// moves only when told, by Advance). A clock that ticks a second per
// reading keeps results that are ordered by time in order.
type Clock struct {
	T    time.Time
	Step time.Duration

	mu sync.Mutex
}

// Now moves the clock on by Step and reads it.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.T = c.T.Add(c.Step)
	return c.T
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.T = c.T.Add(d)
}

// Jar is one browser's cookies, by name (the zero value is empty).
type Jar struct {
	mu      sync.Mutex
	cookies map[string]*http.Cookie
}

// Cookie is the cookie named name, nil if none was set.
func (j *Jar) Cookie(name string) *http.Cookie {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.cookies[name]
}

// Value is the value of the cookie named name, "" if none was set.
func (j *Jar) Value(name string) string {
	if c := j.Cookie(name); c != nil {
		return c.Value
	}
	return ""
}

// Serve sends req to h as this browser: its cookies go with the request,
// and the cookies the answer sets are kept.
func (j *Jar) Serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	j.mu.Lock()
	for _, c := range j.cookies {
		req.AddCookie(c)
	}
	j.mu.Unlock()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		j.mu.Lock()
		if j.cookies == nil {
			j.cookies = map[string]*http.Cookie{}
		}
		j.cookies[c.Name] = c
		j.mu.Unlock()
	}
	return rec
}

// Do sends a request with body (a JSON content type when the body is a
// JSON object) to h as this browser.
func (j *Jar) Do(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" && strings.HasPrefix(strings.TrimSpace(body), "{") {
		req.Header.Set("Content-Type", "application/json")
	}
	return j.Serve(h, req)
}

// Check fails tb unless the answer to method path body has status want
// and, when v is not nil, is JSON that decodes into v. It returns the
// answer's body.
func Check(tb testing.TB, method, path, body string, want, code int, hdr http.Header, b []byte, v any) []byte {
	tb.Helper()
	if code != want {
		tb.Fatalf("%s %s %q: status %d, want %d: %s", method, path, body, code, want, b)
	}
	if ct := hdr.Get("Content-Type"); v != nil && !strings.HasPrefix(ct, "application/json") {
		tb.Fatalf("%s %s: content type %q", method, path, ct)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			tb.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}
