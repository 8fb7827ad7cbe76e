package web

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// harness is a server of the games in its options (the tests mount small
// games of their own; the Spider handlers are tested in spiderweb).
type harness struct {
	tb   testing.TB
	s    *Server
	opts Options

	clk *webtest.Clock
	// jar holds the player's cookie: copies made by otherPlayer have
	// their own.
	jar *webtest.Jar
}

func newHarness(tb testing.TB, o Options) *harness {
	tb.Helper()
	h := &harness{tb: tb,
		clk: &webtest.Clock{T: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), Step: time.Second}, jar: &webtest.Jar{}}
	if o.Now == nil {
		o.Now = h.now
	}
	h.opts = o
	h.s = New(o)
	return h
}

// now is a clock that ticks a second per reading, so that results are
// ordered.
func (h *harness) now() time.Time { return h.clk.Now() }

// otherPlayer is the harness as seen from another browser: same server,
// its own identity.
func (h *harness) otherPlayer() *harness {
	c := *h
	c.jar = &webtest.Jar{}
	return &c
}

// player is the key of the harness's player ("" before its first request).
func (h *harness) player() string {
	c := h.jar.Cookie(playerCookie)
	if c == nil {
		return ""
	}
	return playerID(c.Value)
}

// do sends a request as the harness's browser: its player cookie goes with
// it, and a cookie in the answer is kept.
func (h *harness) do(method, path, body string) (int, []byte, http.Header) {
	h.tb.Helper()
	rec := h.jar.Do(h.s, method, path, body)
	return rec.Code, rec.Body.Bytes(), rec.Header()
}

// call does a request, checks its status and decodes the JSON answer into v
// (if not nil).
func (h *harness) call(method, path, body string, want int, v any) []byte {
	h.tb.Helper()
	code, b, hdr := h.do(method, path, body)
	return webtest.Check(h.tb, method, path, body, want, code, hdr, b, v)
}

// decodes reports whether b is JSON that decodes into v.
func decodes(b []byte, v any) bool { return json.Unmarshal(b, v) == nil }
