package arlweb

import (
	"fmt"
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
	p := seatTabIn(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelector("#play-tables a.table-link")`)
	text := eval[string](p, `document.querySelector("#play-tables a.table-link").textContent`)
	if !strings.Contains(text, "game over") {
		t.Errorf("the lobby lists the finished game as %q, without saying it is over", text)
	}
}

// TestBrowserArlingtonLobbyNameRefused: creating a table under a bot
// level's name is refused with the server's message, try after try past
// the creator's limit of tables; the tries make one table, which the
// person takes once they choose another name.
func TestBrowserArlingtonLobbyNameRefused(t *testing.T) {
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelectorAll("#seats select").length >= 2`)
	submit := func(name string) {
		t.Helper()
		eval[bool](p, fmt.Sprintf(`(() => { document.getElementById("msg").textContent = "";
			document.getElementById("name").value = %q; document.getElementById("create").requestSubmit(); return true })()`, name))
	}
	for i := range table.DefaultMaxPerPlayer + 1 {
		submit("Random")
		p.until(`document.getElementById("msg").textContent !== ""`)
		if msg := eval[string](p, `document.getElementById("msg").textContent`); !strings.Contains(msg, `"Random" is the name of a bot level; choose another`) {
			t.Fatalf("try %d shows %q, want the name refused", i+1, msg)
		}
	}
	if n := len(e.hub.List()); n != 1 {
		t.Errorf("the refused tries made %d tables, want 1", n)
	}
	submit("Ann")
	p.do(chromedp.WaitReady(chromedp.CSS(`#join-form`))) // the table's page
	if path := eval[string](p, `location.pathname`); !strings.HasPrefix(path, "/arlington/t/") {
		t.Errorf("after choosing Ann the page is %s, want the table's", path)
	}
	if l := e.hub.List(); len(l) != 1 || l[0].Seats[0].Name != "Ann" {
		t.Errorf("after choosing Ann: %+v", l)
	}
}
