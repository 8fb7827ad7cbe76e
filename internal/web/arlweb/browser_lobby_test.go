package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonLobbyGameOver (long: a browser, several seconds under
// -race; make test-long runs it): a finished game stays listed while
// its table is open (people read the end, watch the replay); the lobby
// says it is over. It was listed among the tables in play with its hand
// and scores as if still going.
func TestLongBrowserArlingtonLobbyGameOver(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	c := e.client()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"random", "random"}, Target: 1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	// Bots play only while someone watches: watch until the game is over.
	w := c.pageDial(got.ID, -1)
	for over := false; !over; {
		over = w.view().View.ToMove < 0
	}
	bctx := startBrowser(t)
	p := newSeatTab(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelector("#play-tables a.table-link")`)
	text := eval[string](p, `document.querySelector("#play-tables a.table-link").textContent`)
	if !strings.Contains(text, "game over") {
		t.Errorf("the lobby lists the finished game as %q, without saying it is over", text)
	}
}
