package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// TestRateLimitNormalPlayer: with the default limits, a player who starts
// a game every second for an hour after 60 at once, and four players
// sharing an address, each starting a game every two seconds, are never
// refused.
func TestRateLimitNormalPlayer(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	t.Run("one frantic player", func(t *testing.T) {
		l := newLimiter(DefaultRateLimit())
		for i := range 60 {
			if ok, _ := l.allow("p", "192.0.2.1", t0); !ok {
				t.Fatalf("game %d of the first 60 refused", i+1)
			}
		}
		for s := range 3600 {
			if ok, _ := l.allow("p", "192.0.2.1", t0.Add(time.Duration(s+1)*time.Second)); !ok {
				t.Fatalf("refused after %d s at one game a second", s+1)
			}
		}
	})
	t.Run("four players at one address", func(t *testing.T) {
		l := newLimiter(DefaultRateLimit())
		for s := 0; s < 3600; s += 2 {
			for p := range 4 {
				if ok, _ := l.allow(fmt.Sprint("p", p), "192.0.2.1", t0.Add(time.Duration(s)*time.Second)); !ok {
					t.Fatalf("player %d refused at %d s", p, s)
				}
			}
		}
	})
	t.Run("a flood is refused", func(t *testing.T) {
		l := newLimiter(DefaultRateLimit())
		allowed := 0
		for i := range 10000 { // 10,000 requests in 10 s, a new cookie each
			if ok, _ := l.allow(fmt.Sprint("c", i), "192.0.2.1", t0.Add(time.Duration(i)*time.Millisecond)); ok {
				allowed++
			}
		}
		if allowed > 240+21 {
			t.Fatalf("%d of 10,000 allowed in 10 s, want at most the burst and 2 a second", allowed)
		}
	})
}

// TestRateLimitOftenDefaults: on the routes called at every click, with
// the default limits, a player clicking four times a second for an hour
// after 120 at once, and 30 players sharing an address, each clicking
// every 1.25 s for ten minutes, are never refused; a flood from one address is held to
// the burst and 25 a second. Zero buckets are the defaults.
func TestRateLimitOftenDefaults(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	d := DefaultRateLimit()
	if o := (RateLimit{Player: d.Player, Address: d.Address}).often(); o.Player != d.OftenPlayer || o.Address != d.OftenAddress {
		t.Fatalf("zero buckets: %+v, want the defaults %v %v", o, d.OftenPlayer, d.OftenAddress)
	}
	t.Run("one fast clicker", func(t *testing.T) {
		l := newLimiter(d.often())
		for i := range 120 {
			if ok, _ := l.allow("p", "192.0.2.1", t0); !ok {
				t.Fatalf("click %d of the first 120 refused", i+1)
			}
		}
		for ms := 250; ms <= 3600*1000; ms += 250 {
			if ok, _ := l.allow("p", "192.0.2.1", t0.Add(time.Duration(ms)*time.Millisecond)); !ok {
				t.Fatalf("refused after %d ms at four clicks a second", ms)
			}
		}
	})
	t.Run("a classroom at one address", func(t *testing.T) {
		l := newLimiter(d.often())
		for ms := 0; ms < 600*1000; ms += 1250 {
			for p := range 30 {
				if ok, _ := l.allow(fmt.Sprint("p", p), "192.0.2.1", t0.Add(time.Duration(ms)*time.Millisecond)); !ok {
					t.Fatalf("player %d refused at %d ms", p, ms)
				}
			}
		}
	})
	t.Run("a flood is refused", func(t *testing.T) {
		l := newLimiter(d.often())
		allowed := 0
		for i := range 20000 { // 20,000 requests in 2 s, a new cookie each
			if ok, _ := l.allow(fmt.Sprint("c", i), "192.0.2.1", t0.Add(time.Duration(i)*100*time.Microsecond)); ok {
				allowed++
			}
		}
		if allowed > 600+51 {
			t.Fatalf("%d of 20,000 allowed in 2 s, want at most the burst and 25 a second", allowed)
		}
	})
}

// TestRateLimitBounded: however many players and addresses come, each map
// holds at most MaxKeys buckets, and buckets full again are the first to go.
func TestRateLimitBounded(t *testing.T) {
	clk := &webtest.Clock{T: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)} // moves only when told
	rl := RateLimit{Player: Bucket{Burst: 3, Every: time.Second}, Address: Bucket{Burst: 3, Every: time.Second}, MaxKeys: 50}
	h := newHarness(t, Options{RateLimit: &rl, Now: clk.Now, Games: []Routes{limitedGame{}}})
	for i := range 400 {
		addr := fmt.Sprintf("10.%d.%d.1:1000", i/256, i%256)
		req := httptest.NewRequest("POST", "/api/echo/create", nil)
		req.RemoteAddr = addr
		req.Header.Set("Cookie", playerCookie+"="+fmt.Sprint("player-", i))
		h.s.ServeHTTP(httptest.NewRecorder(), req)
		if p, a := h.s.limit.size(); p > rl.MaxKeys || a > rl.MaxKeys {
			t.Fatalf("after %d clients: %d players, %d addresses held, limit %d", i+1, p, a, rl.MaxKeys)
		}
	}
	// A very long cookie is held as a short key.
	long := strings.Repeat("x", 4000)
	if k := cookieKey(httptest.NewRequest("GET", "/", nil)); k != "" {
		t.Fatalf("no cookie: key %q", k)
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Cookie", playerCookie+"="+long)
	if k := cookieKey(req); len(k) > 65 {
		t.Fatalf("a %d-byte cookie is a %d-byte key", len(long), len(k))
	}

	t.Run("idle buckets go first", func(t *testing.T) {
		l := newLimiter(rl)
		now := clk.Now()
		// The flooder empties its bucket; then 49 others come and go.
		for range 3 {
			l.allow("", "flooder", now)
		}
		for i := range 49 {
			l.allow("", fmt.Sprint("idle-", i), now)
		}
		// Long enough for the idle ones to be full again, not the flooder.
		now = now.Add(1500 * time.Millisecond)
		l.allow("", "newcomer", now)
		if _, a := l.size(); a != 2 {
			t.Fatalf("%d addresses held, want 2 (the flooder, the newcomer)", a)
		}
		if ok, _ := l.allow("", "flooder", now); !ok {
			t.Fatal("the flooder has 1.5 tokens back and should be allowed one")
		}
		if ok, _ := l.allow("", "flooder", now); ok {
			t.Fatal("the flooder was forgotten and given a full bucket")
		}
	})
}

// TestLimitOften: the requests under the prefix take tokens from their
// address's bucket of the routes called at every click, and past it are
// refused with 429 and Retry-After before reaching the handler; other
// paths and other addresses are not limited by them.
func TestLimitOften(t *testing.T) {
	rl := RateLimit{Player: Bucket{Burst: 9, Every: time.Hour}, Address: Bucket{Burst: 9, Every: time.Hour},
		OftenPlayer: Bucket{Burst: 9, Every: time.Hour}, OftenAddress: Bucket{Burst: 3, Every: time.Hour}}
	s := New(Options{RateLimit: &rl})
	reached := 0
	h := s.LimitOften("/.well-known/acme-challenge/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ }))
	get := func(path, addr string) int {
		req := httptest.NewRequest("GET", path, nil)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") == "" {
			t.Fatalf("429 without Retry-After")
		}
		return rec.Code
	}
	for i := range 3 {
		if c := get(fmt.Sprintf("/.well-known/acme-challenge/t%d", i), "192.0.2.1:1234"); c != http.StatusOK {
			t.Fatalf("challenge %d: %d", i, c)
		}
	}
	if c := get("/.well-known/acme-challenge/t4", "192.0.2.1:1235"); c != http.StatusTooManyRequests {
		t.Fatalf("the fourth challenge from one address: %d", c)
	}
	if c := get("/.well-known/acme-challenge/t4", "192.0.2.2:1234"); c != http.StatusOK {
		t.Fatalf("another address: %d", c)
	}
	if c := get("/arlington/", "192.0.2.1:1234"); c != http.StatusOK {
		t.Fatalf("a path outside the prefix: %d", c)
	}
	if reached != 5 {
		t.Fatalf("%d requests reached the handler, want 5", reached)
	}
}
