package arlweb

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestRateLimit: every costly Arlington route (a new table, a hint, a
// replay, a gone table's result, a rematch) is limited per player: a burst past the player's bucket gets
// 429 with Retry-After and a JSON error, while another player at the
// same address is answered as usual and the flooded player's other
// requests still go through. The message is the shared layer's, with no
// Spider words in it.
func TestRateLimit(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	rl := web.RateLimit{Player: web.Bucket{Burst: 3, Every: time.Minute}, Address: web.Bucket{Burst: 1000, Every: time.Second}}
	e := newEnvWeb(t, Limits{}, web.Options{RateLimit: &rl, Now: func() time.Time { return t0 }})
	tb, err := e.hub.CreateFrom(context.Background(), "someone", "", table.Config{Players: 2, Bots: []string{"", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	id := tb.Summary().ID
	for _, r := range []struct {
		name, method, path, body string
	}{
		{"new table", "POST", "/api/arlington/tables", `{"players": 2, "bots": ["", "random"]}`},
		{"hint", "GET", "/api/arlington/tables/" + id + "/hint", ""},
		{"replay", "GET", "/api/arlington/tables/" + id + "/replay", ""},
		// A live table's result is refused (409) and a rematch asked by
		// someone who never sat there too (403): limited all the same.
		{"ended", "GET", "/api/arlington/tables/" + id + "/ended", ""},
		{"rematch", "POST", "/api/arlington/tables/" + id + "/rematch", ""},
	} {
		t.Run(r.name, func(t *testing.T) {
			// Each flooder and bystander is a new player with a cookie
			// (a request without one is limited by the address alone).
			flooder, other := e.client(), e.client()
			for _, c := range []*client{flooder, other} {
				if code := c.do("GET", "/api/arlington/tables", nil, nil); code != http.StatusOK {
					t.Fatalf("lobby: %d", code)
				}
			}
			for i := range rl.Player.Burst {
				if code, _, _ := c429(t, flooder, r.method, r.path, r.body); code == http.StatusTooManyRequests {
					t.Fatalf("request %d of the burst of %d refused", i+1, rl.Player.Burst)
				}
			}
			code, msg, retry := c429(t, flooder, r.method, r.path, r.body)
			if code != http.StatusTooManyRequests {
				t.Fatalf("request past the burst: %d, want 429", code)
			}
			if secs, err := strconv.Atoi(retry); err != nil || secs < 1 || secs > 60 {
				t.Errorf("Retry-After %q, want 1 to 60 seconds", retry)
			}
			// The shared layer's words, which name no game's things.
			if want := "too many requests like this one from this player or address: try again in " + retry + " s"; msg != want {
				t.Errorf("message %q, want %q", msg, want)
			}
			if code, _, _ := c429(t, other, r.method, r.path, r.body); code == http.StatusTooManyRequests {
				t.Errorf("another player at the same address: 429")
			}
			if code := flooder.do("GET", "/api/arlington/tables/"+id, nil, nil); code != http.StatusOK {
				t.Errorf("the flooder's unlimited request: %d, want 200", code)
			}
		})
	}
}

// TestPreviewRateLimit: both previews of a selection are limited per
// player, with buckets of their own: past the burst a player gets 429
// with Retry-After and the shared layer's words, another player at the
// same address is answered as usual, and the flooder's previews spent
// none of the tokens of the routes that create things (its two replay
// requests, a burst of two there, still pass the limit).
func TestPreviewRateLimit(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	rl := web.RateLimit{
		Player: web.Bucket{Burst: 2, Every: time.Hour}, Address: web.Bucket{Burst: 1000, Every: time.Second},
		OftenPlayer: web.Bucket{Burst: 3, Every: time.Minute}, OftenAddress: web.Bucket{Burst: 1000, Every: time.Second},
	}
	e := newEnvWeb(t, Limits{}, web.Options{RateLimit: &rl, Now: func() time.Time { return t0 }})
	body := `{"cards": ["7H", "7D"]}`
	for _, r := range []struct{ name, path string }{
		{"alone", "/api/arlington/preview"},
		{"at a table", "/api/arlington/tables/{id}/preview"},
	} {
		t.Run(r.name, func(t *testing.T) {
			flooder, other := e.client(), e.client()
			// Both sit at a started table (the preview at a table is
			// for a seat there); another creator each time, since a
			// creator has one open table at most.
			id := e.client().create("", "", "random")
			flooder.join(id, "Flo")
			other.join(id, "Otto")
			path := strings.Replace(r.path, "{id}", id, 1)
			for i := range rl.OftenPlayer.Burst {
				if code, msg, _ := c429(t, flooder, "POST", path, body); code != http.StatusOK {
					t.Fatalf("preview %d of the burst of %d: %d %s", i+1, rl.OftenPlayer.Burst, code, msg)
				}
			}
			code, msg, retry := c429(t, flooder, "POST", path, body)
			if code != http.StatusTooManyRequests {
				t.Fatalf("preview past the burst: %d, want 429", code)
			}
			if secs, err := strconv.Atoi(retry); err != nil || secs < 1 || secs > 60 {
				t.Errorf("Retry-After %q, want 1 to 60 seconds", retry)
			}
			if want := "too many requests like this one from this player or address: try again in " + retry + " s"; msg != want {
				t.Errorf("message %q, want %q", msg, want)
			}
			if code, msg, _ := c429(t, other, "POST", path, body); code != http.StatusOK {
				t.Errorf("another player at the same address: %d %s, want 200", code, msg)
			}
			for i := range rl.Player.Burst {
				if code, msg, _ := c429(t, flooder, "GET", "/api/arlington/tables/"+id+"/replay", ""); code == http.StatusTooManyRequests {
					t.Errorf("the flooder's replay %d of a burst of %d: %d %s: previews spent its tokens", i+1, rl.Player.Burst, code, msg)
				}
			}
			if code := flooder.do("GET", "/api/arlington/tables/"+id, nil, nil); code != http.StatusOK {
				t.Errorf("the flooder's unlimited request: %d, want 200", code)
			}
		})
	}
}

// c429 sends a request as c and returns its status, the JSON error's
// message (if any) and the Retry-After header.
func c429(tb testing.TB, c *client, method, path, body string) (code int, msg, retry string) {
	tb.Helper()
	req, _ := http.NewRequest(method, c.e.srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(b, &e) // a success answers no error
	return resp.StatusCode, e.Error, resp.Header.Get("Retry-After")
}
