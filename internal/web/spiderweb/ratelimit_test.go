package spiderweb

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

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
	h.srv.ServeHTTP(rec, req)
	return rec
}

// wantRateLimited checks that rec is a refusal for too many requests: 429,
// a Retry-After of 1 to 60 seconds, and a JSON error saying when to try
// again. what names the request in a failure.
func wantRateLimited(tb testing.TB, rec *httptest.ResponseRecorder, what string) {
	tb.Helper()
	if rec.Code != 429 {
		tb.Fatalf("%s: status %d, want 429: %s", what, rec.Code, rec.Body)
	}
	secs, err := strconv.Atoi(rec.Header().Get("Retry-After"))
	if err != nil || secs < 1 || secs > 60 {
		tb.Errorf("%s: Retry-After %q, want 1 to 60 seconds", what, rec.Header().Get("Retry-After"))
	}
	var e errorBody
	want := "too many requests like this one from this player or address: try again in " + rec.Header().Get("Retry-After") + " s"
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error != want {
		tb.Errorf("%s: body %s, want a JSON error %q", what, rec.Body, want)
	}
}

// rateRoute is a request TestRateLimit sends: method, path and body.
type rateRoute struct{ method, path, body string }

// limitedRoutes are the routes that create something, each rate-limited
// (save is the body of the load).
func limitedRoutes(save string) []rateRoute {
	return []rateRoute{
		{"POST", "/api/games/load", save},
		{"PUT", "/api/saves/x", `{"game":"nope"}`},
		{"POST", "/api/saves/x/open", ""},
		{"POST", "/api/saves/x/analysis", `{"giveUp":true}`},
		{"POST", "/api/games/x/analysis", `{"giveUp":true}`},
		{"PUT", "/api/settings", `{"a":1}`},
	}
}

// unlimitedRoutes are routes that create nothing, never rate-limited.
var unlimitedRoutes = []rateRoute{
	{"GET", "/api/stats", ""},
	{"GET", "/api/saves", ""},
	{"GET", "/", ""},
}

func TestRateLimit(t *testing.T) {
	clk := &clock{webtest.Clock{T: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}} // moves only when told
	rl := web.RateLimit{Player: web.Bucket{Burst: 5, Every: time.Minute}, Address: web.Bucket{Burst: 12, Every: time.Minute}, MaxKeys: 1000}
	h := newServerHarness(t, Options{Now: clk.now}, web.Options{RateLimit: &rl})
	create := func(player, addr string) *httptest.ResponseRecorder {
		return limitedRequest(t, h, "POST", "/api/games", `{"deal":"617"}`, player, addr)
	}

	const a = "192.0.2.10:5000"
	t.Run("a player's flood is refused, and creates nothing", func(t *testing.T) {
		for i := range rl.Player.Burst {
			if rec := create("alice", a); rec.Code != 201 {
				t.Fatalf("game %d: status %d: %s", i+1, rec.Code, rec.Body)
			}
		}
		before := h.countGames()
		for i := range 20 {
			wantRateLimited(t, create("alice", a), fmt.Sprintf("flood request %d", i+1))
		}
		if n := h.countGames(); n != before {
			t.Fatalf("%d games stored after refused requests, want %d", n, before)
		}
	})
	t.Run("every creating route is limited", func(t *testing.T) {
		save := "Spider 4 suits\nDeal 617\n"
		for _, r := range limitedRoutes(save) {
			wantRateLimited(t, limitedRequest(t, h, r.method, r.path, r.body, "alice", a), r.method+" "+r.path)
		}
	})
	t.Run("other routes are not limited", func(t *testing.T) {
		for _, r := range unlimitedRoutes {
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
		wantRateLimited(t, create("", b), "no cookie")
		wantRateLimited(t, create("fresh-cookie", b), "a new cookie")
	})
	t.Run("an IPv6 flooder is one address across its /64", func(t *testing.T) {
		for i := range rl.Address.Burst {
			if rec := create("", fmt.Sprintf("[2001:db8:1:2::%x]:4000", i+1)); rec.Code != 201 {
				t.Fatalf("game %d: status %d: %s", i+1, rec.Code, rec.Body)
			}
		}
		wantRateLimited(t, create("", "[2001:db8:1:2:ffff::1]:4000"), "the same /64")
		if rec := create("", "[2001:db8:1:3::1]:4000"); rec.Code != 201 {
			t.Fatalf("another /64: status %d", rec.Code)
		}
	})
	t.Run("tokens come back with time", func(t *testing.T) {
		clk.advance(time.Minute)
		if rec := create("alice", a); rec.Code != 201 {
			t.Fatalf("a minute later: status %d: %s", rec.Code, rec.Body)
		}
		wantRateLimited(t, create("alice", a), "the minute's token spent")
	})
}
