package spiderweb

import (
	"fmt"
	"strings"
	"testing"

	"cardtable/internal/web"
)

// TestStoredBytesBounded: what one client stores is bounded by day (the
// address's uploads and named saves, DailyBytes) and for good (the
// player's named saves, the store's quota): each refusal says why, and
// nothing is stored.
func TestStoredBytesBounded(t *testing.T) {
	h := newHarness(t, Options{DailyBytes: &web.DailyBytes{Limit: 1000, MaxKeys: 10}})
	var g struct {
		ID string `json:"id"`
	}
	h.call("POST", "/api/games", `{"deal":"1"}`, 201, &g)
	save := h.call("GET", "/api/games/"+g.ID+"/save", "", 200, nil)
	// Each named save charges the game's save text to the address.
	n := 0
	for ; n < 50; n++ {
		code, b, _ := h.do("PUT", "/api/saves/s"+fmt.Sprint(n), `{"game":"`+g.ID+`"}`)
		if code == 429 {
			if !strings.Contains(string(b), "the most an address may store in a day") {
				t.Fatalf("refusal: %s", b)
			}
			break
		}
		if code != 200 {
			t.Fatalf("save %d: %d %s", n, code, b)
		}
	}
	if want := 1000 / len(save); n != want {
		t.Fatalf("%d saves of %d bytes stored within 1000 bytes a day, want %d", n, len(save), want)
	}
	code, b, _ := h.do("POST", "/api/games/load", string(save))
	if code != 429 {
		t.Fatalf("upload past the day's bytes: %d %s", code, b)
	}
	var list struct {
		Saves []struct{} `json:"saves"`
	}
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != n {
		t.Fatalf("%d saves stored, want %d", len(list.Saves), n)
	}
}
