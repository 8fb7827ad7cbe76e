package spiderweb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestDiskFullRefusedAndRecovered: the database really full (SQLite's
// own SQLITE_FULL, from its page bound, as a full disk gives it), a
// request whose write needs room is answered 507 in words that say
// nothing was saved, with no Retry-After, and logged once at WARN with
// reason "disk full", as is the player's visit the same request could
// not record; the game acknowledged before is whole, in memory and
// after a restart; once room comes back the same request succeeds and
// the visit is recorded.
func TestDiskFullRefusedAndRecovered(t *testing.T) {
	ctx := context.Background()
	h, buf := loggedHarness(t, Options{})
	// A new player's first request: the game is acknowledged, and the
	// player's visit is recorded at the next request.
	g := h.newGame(`{"deal":"1"}`)
	acked := h.stored(g.ID)
	p := h.player()

	// No page more than those in use (SQLite keeps the bound at them),
	// then the players' table filled with rows sorting after p's: its
	// first leaf, where p's row goes, has no room left for a row of that
	// size, and a new leaf needs a page.
	if _, err := h.db.SetMaxPages(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// Rows by batches, halved at each refusal (a refused batch stores
	// nothing), down to a single row refused.
	for i, batch := 0, 256; ; {
		if i+batch > 1<<16 {
			t.Fatal("65536 rows and the database never filled")
		}
		rows := make([]any, batch)
		for j := range rows {
			// '~' sorts after every character of an identity.
			rows[j] = dbcopy.Player{Player: p[:len(p)-5] + fmt.Sprintf("~%04x", i+j), Seen: 1}
		}
		err := h.db.Import(ctx, "players", rows)
		if err == nil {
			i += batch
			continue
		}
		if !errors.Is(err, store.ErrDiskFull) {
			t.Fatal(err)
		}
		if batch == 1 {
			break // full: not one more row
		}
		batch /= 2
	}

	save := webtest.ShuttleSave(1000) // about 13 KB: pages more
	code, body, hdr := h.do("POST", "/api/games/load", save)
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("the refusal's body %q: %v", body, err)
	}
	if code != http.StatusInsufficientStorage || e.Error != "the server's disk is full: this was not saved; try again later" {
		t.Fatalf("an upload on a full disk: %d %q, want 507 saying it was not saved", code, e.Error)
	}
	if ra := hdr.Get("Retry-After"); ra != "" {
		t.Fatalf("the 507 carries Retry-After %q: a full disk frees no room by itself", ra)
	}
	wantOneWarn := func(msg string, match func(map[string]any) bool) {
		t.Helper()
		var got []map[string]any
		for _, l := range buf.Lines(t) {
			if l["msg"] == msg && match(l) {
				got = append(got, l)
			}
		}
		if len(got) != 1 || got[0]["level"] != "WARN" || got[0]["reason"] != "disk full" {
			t.Fatalf("%q logged %v, want one WARN line with reason \"disk full\"", msg, got)
		}
	}
	wantOneWarn("request failed", func(l map[string]any) bool { return l["path"] == "/api/games/load" })
	wantOneWarn("recording a player as seen", func(map[string]any) bool { return true })

	if n := h.countGames(); n != 1 {
		t.Fatalf("%d games stored, want the one acknowledged", n)
	}
	if got := h.stored(g.ID); got != acked {
		t.Fatalf("the acknowledged game changed on a full disk:\n%s\nwant\n%s", got, acked)
	}
	h.restart() // the bound goes with the store's connection: room again
	if got := h.stored(g.ID); got != acked {
		t.Fatalf("the acknowledged game after a restart:\n%s\nwant\n%s", got, acked)
	}
	h.clk.advance(web.SeenPause + time.Second) // past the pause a failed visit starts
	h.upload(save)
	if !h.recordedPlayers()[p] {
		t.Fatal("the player's visit not recorded once there was room")
	}
	h.cmd(g.ID, "deal", http.StatusOK)
}
