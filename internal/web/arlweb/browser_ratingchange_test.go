package arlweb

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/rating"
	"cardtable/internal/table"
)

// TestBrowserArlingtonRatingChange: at the end of a rated game the table
// page shows, beside each new rating, how much this game moved it ("+15
// this game", "−15 this game"): the new number alone did not tell a
// player whether they had gained or lost. The figure is the server's,
// from the ratings as this game was rated: other games ending in between
// (here the same bot level's, at another table) are not counted, as they
// were when the page took the new rating less the one it saw in play.
func TestBrowserArlingtonRatingChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	c := e.client()
	p := seatTabIn(t, startBrowser(t), "Ann")
	// A page of this site (the lobby) sends Ann's first game's requests.
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	// Ann's first rated game, played out by the stand-in: she then has a
	// rating, uncertain enough that the next game moves it.
	c.playAwayBy(true, func(id string) {
		if code := eval[int](p, fmt.Sprintf(`(async () => {
		  const j = await fetch("/api/arlington/tables/%[1]s/join", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Ann" }) });
		  if (!j.ok) return j.status;
		  return (await fetch("/api/arlington/tables/%[1]s/leave", { method: "POST" })).status;
		})()`, id), chromedp.EvalAwaitPromise); code != http.StatusOK {
			t.Fatalf("Ann's first game: %d", code)
		}
	})
	var got created
	if code := c.do(http.MethodPost, "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1, Rated: true}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	p.until(`window.__ws.count > 0 && window.__ws.seats.every((s) => s.rating > 0)`)
	shown := func(key string) int {
		rs, err := e.db.Ratings(context.Background(), []string{key})
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s's rating: %v %v", key, rs, err)
		}
		return rating.Shown(rating.Rating{Mu: rs[0].Mu, Sigma: rs[0].Sigma})
	}
	// Other rated games of the same bot level end meanwhile, until one
	// has moved its shown rating from the one this table shows in play.
	inPlay := eval[int](p, `window.__ws.seats[1].rating`)
	for i := 0; shown("bot:random") == inPlay; i++ {
		if i == 5 {
			t.Fatalf("five games did not move the bot's rating from %d", inPlay)
		}
		e.client().playAway(fmt.Sprint("Zed", i), true)
	}
	bot0, ann0 := shown("bot:random"), eval[int](p, `window.__ws.seats[0].rating`)
	// Ann leaves through the API (as from another window): the stand-in
	// plays her seat out, at the server's speed.
	if code := eval[int](p, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`, chromedp.EvalAwaitPromise); code != http.StatusOK {
		t.Fatalf("leave: %d", code)
	}
	p.until(`!document.getElementById("winners").hidden`)
	var sum created
	if code := c.do(http.MethodGet, "/api/arlington/tables/"+got.ID, nil, &sum); code != http.StatusOK || sum.Status != table.StatusOver {
		t.Fatalf("the table: %d %+v", code, sum)
	}
	ann, bot := sum.Seats[0], sum.Seats[1]
	if bot.RatingChange != bot.Rating-bot0 || ann.RatingChange != ann.Rating-ann0 || ann.RatingChange == 0 {
		t.Fatalf("the seats' changes: Ann %d→%d (%+d), the bot %d→%d (%+d); want each the difference, Ann's not 0",
			ann0, ann.Rating, ann.RatingChange, bot0, bot.Rating, bot.RatingChange)
	}
	for _, s := range sum.Seats {
		want := fmt.Sprint("rating ", s.Rating)
		if s.RatingChange > 0 {
			want += fmt.Sprintf(" +%d this game", s.RatingChange)
		} else if s.RatingChange < 0 {
			want += fmt.Sprintf(" −%d this game", -s.RatingChange)
		}
		p.until(fmt.Sprintf(`[...document.querySelectorAll('#players [data-seat="%d"] .badge')].map((b) => b.textContent).filter((t) => t.startsWith("rating ") || t.endsWith(" this game")).join(" ") === %q`, s.Seat, want))
	}
	p.shot("rating-change")
}
