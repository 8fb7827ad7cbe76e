package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardtable/internal/dbcopy"
)

// recordedPlayers is the identities the database records as seen.
func (h *harness) recordedPlayers() map[string]bool {
	h.tb.Helper()
	seen := map[string]bool{}
	if err := h.db.Export(context.Background(), "players", func(row any) error {
		seen[row.(dbcopy.Player).Player] = true
		return nil
	}); err != nil {
		h.tb.Fatal(err)
	}
	return seen
}

// TestMadeUpCookiesNotRecorded: requests bringing identity cookies the
// server never handed out (well-formed tokens a client made up), wired
// as cardtable serve wires the Spider handlers, add no row to the
// players' record, however many; a player who started a game is recorded
// at their next request.
func TestMadeUpCookiesNotRecorded(t *testing.T) {
	h := newHarness(t, Options{})
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	for i := range 64 {
		token := "AAAAAAAAAAAAAAAAAAAAAAAA" + string(alphabet[i/32]) + string(alphabet[i%32])
		for _, path := range []string{"/api/stats", "/api/saves", "/api/settings"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.AddCookie(&http.Cookie{Name: playerCookie, Value: token})
			rec := httptest.NewRecorder()
			h.srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s with a made-up identity: %d %s", path, rec.Code, rec.Body)
			}
		}
	}
	if seen := h.recordedPlayers(); len(seen) != 0 {
		t.Fatalf("%d made-up identities recorded", len(seen))
	}
	h.newGame(`{"deal":"1"}`)
	h.call("GET", "/api/stats", "", http.StatusOK, nil)
	if seen := h.recordedPlayers(); len(seen) != 1 || !seen[h.player()] {
		t.Fatalf("recorded %v, want the player who started a game, %s", seen, h.player())
	}
}

// TestSettingsRecordTheirPlayer: settings stored in an identity's first
// request (a made-up cookie, never seen again) record the identity, so
// pruning finds them; before, nothing recorded it and the row stayed for
// good.
func TestSettingsRecordTheirPlayer(t *testing.T) {
	h := newHarness(t, Options{})
	req := httptest.NewRequest(http.MethodPut, "/api/settings", strings.NewReader(`{"suits":2}`))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: playerCookie, Value: "AAAAAAAAAAAAAAAAAAAAAAAAZZ"})
	rec := httptest.NewRecorder()
	h.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("settings with a made-up identity: %d %s", rec.Code, rec.Body)
	}
	if seen := h.recordedPlayers(); len(seen) != 1 {
		t.Fatalf("recorded %v; want the identity that stored settings", seen)
	}
}
