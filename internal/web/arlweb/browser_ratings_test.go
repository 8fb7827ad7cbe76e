package arlweb

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/rating"
	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestBrowserArlingtonRatingsShown: after five rated games (played by
// the stand-in through the API, so quick), the lobby shows the last
// table as rated with the ratings beside the names, and the leaderboard
// lists the person and the bot level with their ratings and games, the
// same as the API's.
func TestBrowserArlingtonRatingsShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	c := e.client()
	var id string
	for range table.MinRankedGames {
		id = c.playAway("Pat", true)
	}
	var sum created
	if code := c.do(http.MethodGet, "/api/arlington/tables/"+id, nil, &sum); code != http.StatusOK {
		t.Fatalf("the table: %d", code)
	}
	var board []table.Ranked
	if code := c.do(http.MethodGet, "/api/arlington/ratings", nil, &board); code != http.StatusOK || len(board) != 2 {
		t.Fatalf("the leaderboard: %d %+v", code, board)
	}
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelector("#over-tables a.table-link") && document.querySelectorAll("#leaderboard li").length === 2`)
	text := eval[string](p, `document.querySelector("#over-tables a.table-link").textContent`)
	if want := "2 seats: " + strings.Join(seatsShown(t, sum), ", "); !strings.Contains(text, want) || !strings.Contains(text, "rated") {
		t.Errorf("the lobby lists the game as %q, want %q and 'rated'", text, want)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#leaderboard li")].map((li) => li.textContent)`)
	for i, r := range board {
		who := r.Name
		if r.Bot {
			who = "bot " + r.Name
		}
		if want := fmt.Sprintf("%s: %d (5 games)", who, r.Rating); rows[i] != want {
			t.Errorf("leaderboard row %d reads %q, want %q", i, rows[i], want)
		}
	}
	// At a phone's width and a laptop's, the leaderboard fits the page.
	for _, size := range [][2]int64{{390, 844}, {1280, 800}} {
		p.do(chromedp.EmulateViewport(size[0], size[1]))
		if !eval[bool](p, `document.documentElement.scrollWidth <= innerWidth && document.querySelector("#leaderboard li").getBoundingClientRect().width > 0`) {
			t.Errorf("at %dx%d the leaderboard does not fit the page", size[0], size[1])
		}
		p.shot(fmt.Sprintf("arlington-ratings-leaderboard-%dx%d", size[0], size[1]))
	}
}

// seatsShown is how the lobby names sum's seats: each with its rating,
// which every seat of a finished rated game has.
func seatsShown(tb testing.TB, sum created) []string {
	tb.Helper()
	var out []string
	for _, s := range sum.Seats {
		who := s.Name
		if s.Bot != "" {
			who = "bot " + s.Bot
		}
		if s.Rating == 0 {
			tb.Fatalf("seat %d shows no rating: %+v", s.Seat, sum.Seats)
		}
		out = append(out, fmt.Sprintf("%s (%d)", who, s.Rating))
	}
	return out
}

// TestLongBrowserArlingtonRatings (long: a whole game in the browser,
// several seconds under -race; make test-long runs it): a person creates a rated table against a
// bot in the lobby's form (rated is ticked by default), plays the game
// to 1 point to its end, and the table page and then the lobby show the
// person's new rating and the bot level's beside their names (the lobby
// saying the table is rated), the same as the ratings the store keeps; the leaderboard says no one has
// enough games yet.
func TestLongBrowserArlingtonRatings(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	ann := seatTabIn(t, bctx, "Ann")
	ann.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	ann.until(`document.querySelector("#leaderboard li")`)
	if text := eval[string](ann, `document.getElementById("leaderboard").textContent`); text != "no one yet" {
		t.Errorf("the leaderboard before any game reads %q", text)
	}
	if !eval[bool](ann, `document.getElementById("rated").checked`) {
		t.Error("a new table is not rated by default")
	}
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.SetValue(chromedp.CSS("#target"), "1"),
		chromedp.Evaluate[chromedp.Void](`(() => {
		  const p = document.getElementById("players"); p.value = "2"; p.dispatchEvent(new Event("change"));
		  const s = document.querySelectorAll("#seats select"); s[0].value = ""; s[1].value = "random";
		})()`),
		chromedp.Click(chromedp.CSS("#btn-create")))
	if err := webtest.Wait(ann.ctx, `location.pathname.startsWith("/arlington/t/") && window.__ws && window.__ws.seat >= 0`, "Ann at her table"); err != nil {
		t.Fatalf("%v; page: %s", err, ann.diag())
	}
	ann.auto(true)
	ann.untilPlayed(`document.querySelector("#btn-rematch")`)
	ann.auto(false)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/arlington/t/")

	var sum created
	if code := e.client().do(http.MethodGet, "/api/arlington/tables/"+id, nil, &sum); code != http.StatusOK || !sum.Rated || sum.Status != table.StatusOver {
		t.Fatalf("the table: %d %+v", code, sum)
	}
	want := seatsShown(t, sum)
	// The table page shows each seat's new rating too.
	for _, s := range sum.Seats {
		ann.until(fmt.Sprintf(`[...document.querySelectorAll('#players [data-seat="%d"] .badge')].some((b) => b.textContent === "rating %d")`, s.Seat, s.Rating))
	}
	ann.shot("arlington-ratings-table")
	if sum.Seats[1].Rating == rating.Shown(rating.Bot("random")) {
		t.Errorf("the bot's rating did not move from its start: %+v", sum.Seats)
	}
	ann.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	ann.until(`document.querySelector("#over-tables a.table-link")`)
	text := eval[string](ann, `document.querySelector("#over-tables a.table-link").textContent`)
	if !strings.Contains(text, "2 seats: "+strings.Join(want, ", ")) || !strings.Contains(text, "rated") {
		t.Errorf("the lobby lists the game as %q, want the ratings %v and 'rated'", text, want)
	}
	ann.shot("arlington-ratings-lobby")
}
