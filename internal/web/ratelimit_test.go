package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// manualClock is a clock that moves only when told.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// limitedRequest sends a request from addr with the player cookie (none if
// player is "").
func limitedRequest(tb testing.TB, h *harness, method, path, body, player, addr string) *httptest.ResponseRecorder {
	tb.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = addr
	if strings.HasPrefix(body, "{") {
		req.Header.Set("Content-Type", "application/json")
	}
	if player != "" {
		req.Header.Set("Cookie", playerCookie+"="+player)
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	return rec
}

func TestRateLimit(t *testing.T) {
	clk := &manualClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	rl := RateLimit{Player: Bucket{Burst: 5, Every: time.Minute}, Address: Bucket{Burst: 12, Every: time.Minute}, MaxKeys: 1000}
	h := newHarness(t, Options{RateLimit: &rl, Now: clk.now})
	create := func(player, addr string) *httptest.ResponseRecorder {
		return limitedRequest(t, h, "POST", "/api/games", `{"deal":"617"}`, player, addr)
	}
	games := func() int {
		n, err := h.db.CountGames(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	refused := func(t *testing.T, rec *httptest.ResponseRecorder, what string) {
		t.Helper()
		if rec.Code != 429 {
			t.Fatalf("%s: status %d, want 429: %s", what, rec.Code, rec.Body)
		}
		secs, err := strconv.Atoi(rec.Header().Get("Retry-After"))
		if err != nil || secs < 1 || secs > 60 {
			t.Errorf("%s: Retry-After %q, want 1 to 60 seconds", what, rec.Header().Get("Retry-After"))
		}
		var e errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, "try again in") {
			t.Errorf("%s: body %s, want a JSON error saying when to try again", what, rec.Body)
		}
	}

	const a = "192.0.2.10:5000"
	t.Run("a player's flood is refused, and creates nothing", func(t *testing.T) {
		for i := range rl.Player.Burst {
			if rec := create("alice", a); rec.Code != 201 {
				t.Fatalf("game %d: status %d: %s", i+1, rec.Code, rec.Body)
			}
		}
		before := games()
		for i := range 20 {
			refused(t, create("alice", a), fmt.Sprintf("flood request %d", i+1))
		}
		if n := games(); n != before {
			t.Fatalf("%d games stored after refused requests, want %d", n, before)
		}
	})
	t.Run("every creating route is limited", func(t *testing.T) {
		save := "Spider 4 suits\nDeal 617\n"
		for _, r := range []struct{ method, path, body string }{
			{"POST", "/api/games/load", save},
			{"PUT", "/api/saves/x", `{"game":"nope"}`},
			{"POST", "/api/saves/x/open", ""},
			{"PUT", "/api/settings", `{"a":1}`},
		} {
			refused(t, limitedRequest(t, h, r.method, r.path, r.body, "alice", a), r.method+" "+r.path)
		}
	})
	t.Run("other routes are not limited", func(t *testing.T) {
		for _, r := range []struct{ method, path, body string }{
			{"GET", "/api/stats", ""},
			{"GET", "/api/saves", ""},
			{"GET", "/", ""},
		} {
			if rec := limitedRequest(t, h, r.method, r.path, r.body, "alice", a); rec.Code == 429 {
				t.Errorf("%s %s: 429", r.method, r.path)
			}
		}
	})
	t.Run("another player at the same address is not refused", func(t *testing.T) {
		if rec := create("bob", a); rec.Code != 201 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
	t.Run("dropping the cookie does not escape the address's limit", func(t *testing.T) {
		const b = "198.51.100.7:4000"
		for i := range rl.Address.Burst {
			if rec := create("", b); rec.Code != 201 {
				t.Fatalf("game %d: status %d: %s", i+1, rec.Code, rec.Body)
			}
		}
		refused(t, create("", b), "no cookie")
		refused(t, create("fresh-cookie", b), "a new cookie")
	})
	t.Run("an IPv6 flooder is one address across its /64", func(t *testing.T) {
		for i := range rl.Address.Burst {
			if rec := create("", fmt.Sprintf("[2001:db8:1:2::%x]:4000", i+1)); rec.Code != 201 {
				t.Fatalf("game %d: status %d: %s", i+1, rec.Code, rec.Body)
			}
		}
		refused(t, create("", "[2001:db8:1:2:ffff::1]:4000"), "the same /64")
		if rec := create("", "[2001:db8:1:3::1]:4000"); rec.Code != 201 {
			t.Fatalf("another /64: status %d", rec.Code)
		}
	})
	t.Run("tokens come back with time", func(t *testing.T) {
		clk.advance(time.Minute)
		if rec := create("alice", a); rec.Code != 201 {
			t.Fatalf("a minute later: status %d: %s", rec.Code, rec.Body)
		}
		refused(t, create("alice", a), "the minute's token spent")
	})
}

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

// TestRateLimitBounded: however many players and addresses come, each map
// holds at most MaxKeys buckets, and buckets full again are the first to go.
func TestRateLimitBounded(t *testing.T) {
	clk := &manualClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	rl := RateLimit{Player: Bucket{Burst: 3, Every: time.Second}, Address: Bucket{Burst: 3, Every: time.Second}, MaxKeys: 50}
	h := newHarness(t, Options{RateLimit: &rl, Now: clk.now})
	for i := range 400 {
		addr := fmt.Sprintf("10.%d.%d.1:1000", i/256, i%256)
		limitedRequest(t, h, "POST", "/api/games", "{", fmt.Sprint("player-", i), addr)
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
		now := clk.now()
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
