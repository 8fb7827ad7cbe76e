package arlweb

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonRatingChange: at the end of a rated game the table
// page shows, beside each new rating, how much the game moved it ("+15
// this game", "−15 this game"), the difference between the rating the
// page saw in play and the new one the server keeps. The new number
// alone did not tell a player whether they had gained or lost. (The
// person's own seat, new to ratings, has none in play: its new rating
// shows alone.)
func TestBrowserArlingtonRatingChange(t *testing.T) {
	e := newEnv(t, Limits{})
	c := e.client()
	var got created
	if code := c.do(http.MethodPost, "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1, Rated: true}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	// The bot's rating shows in play; Ann, new, has none yet.
	p.until(`window.__ws.count > 0 && document.querySelector('#players [data-seat="1"] .badge')`)
	before := eval[[]string](p, `[...document.querySelectorAll("#players [data-seat]")].map((s) => [...s.querySelectorAll(".badge")].map((b) => b.textContent).find((t) => t.startsWith("rating ")) || "")`)
	// Ann leaves through the API (as from another window): this page
	// stays connected and draws the stand-in playing her seat out, at
	// the server's speed.
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`, chromedp.EvalAwaitPromise); code != http.StatusOK {
		t.Fatalf("leave: %d", code)
	}
	p.until(`!document.getElementById("winners").hidden`)
	var sum created
	if code := c.do(http.MethodGet, "/api/arlington/tables/"+got.ID, nil, &sum); code != http.StatusOK || sum.Status != table.StatusOver {
		t.Fatalf("the table: %d %+v", code, sum)
	}
	if before[1] == "" {
		t.Fatalf("the bot's rating is not shown in play: %q", before)
	}
	for _, s := range sum.Seats {
		want := "rating " + fmt.Sprint(s.Rating)
		var was int
		if before[s.Seat] == "" {
			// No rating in play (a first rated game): the new one alone.
			p.until(fmt.Sprintf(`[...document.querySelectorAll('#players [data-seat="%d"] .badge')].map((b) => b.textContent).filter((t) => t.startsWith("rating ") || t.endsWith(" this game")).join(" ") === %q`, s.Seat, want))
			continue
		}
		if _, err := fmt.Sscanf(before[s.Seat], "rating %d", &was); err != nil {
			t.Fatalf("seat %d's rating in play reads %q", s.Seat, before[s.Seat])
		}
		if d := s.Rating - was; d > 0 {
			want += fmt.Sprintf(" +%d this game", d)
		} else if d < 0 {
			want += fmt.Sprintf(" −%d this game", -d)
		}
		p.until(fmt.Sprintf(`[...document.querySelectorAll('#players [data-seat="%d"] .badge')].map((b) => b.textContent).filter((t) => t.startsWith("rating ") || t.endsWith(" this game")).join(" ") === %q`, s.Seat, want))
		if !strings.Contains(want, "this game") {
			t.Errorf("seat %d's rating did not move (%d): the test shows no change", s.Seat, s.Rating)
		}
	}
	p.shot("rating-change")
}
