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
// -race; make test-long runs it): a finished game of bots stays listed
// while its table is open (people read the end, watch the replay), under
// "Games just finished", and the lobby says it is over. It was listed
// among the tables in play with its hand and scores as if still going.
func TestLongBrowserArlingtonLobbyGameOver(t *testing.T) {
	t.Parallel()
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
	p.until(`document.querySelector("#over-tables a.table-link")`)
	text := eval[string](p, `document.querySelector("#over-tables a.table-link").textContent`)
	if !strings.Contains(text, "game over") {
		t.Errorf("the lobby lists the finished game as %q, without saying it is over", text)
	}
	if n := p.count("#play-tables a.table-link"); n != 0 {
		t.Errorf("the lobby lists %d tables in play, want none: the only table's game is over", n)
	}
}

// TestBrowserArlingtonLobbyFinishedApart: the lobby lists a finished
// game under "Games just finished" and a game still going under "Tables
// in play", each once. The finished one was listed among the tables in
// play, where a person looking for a game to watch found it over.
func TestBrowserArlingtonLobbyFinishedApart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	c := e.client()
	over := c.playAway("Pat", false)
	var going created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: longGame, TurnSeconds: -1}, &going); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	c.join(going.ID, "Pat")
	// What the page sorts by: the list's status and open seats.
	var l struct {
		Tables []table.Summary `json:"tables"`
	}
	if code := c.do("GET", "/api/arlington/tables", nil, &l); code != http.StatusOK {
		t.Fatalf("list: %d", code)
	}
	status := map[string]table.Status{}
	for _, s := range l.Tables {
		status[s.ID] = s.Status
	}
	if status[over] != table.StatusOver || status[going.ID] == table.StatusOver || status[going.ID] == "" {
		t.Fatalf("the list's statuses: %v; want %s over and %s in play", status, over, going.ID)
	}
	p := seatTabIn(t, startBrowser(t), "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	// Drawn: the lists are filled at once, from one answer.
	p.until(`!!document.querySelector("#play-tables a.table-link")`)
	links := func(list string) []string {
		return eval[[]string](p, `[...document.querySelectorAll("#`+list+` a.table-link")].map((a) => a.getAttribute("href"))`)
	}
	for list, want := range map[string]string{"over-tables": over, "play-tables": going.ID, "open-tables": ""} {
		got := links(list)
		if want == "" {
			if len(got) != 0 {
				t.Errorf("#%s lists %v, want none", list, got)
			}
			continue
		}
		if len(got) != 1 || got[0] != "/arlington/t/"+want {
			t.Errorf("#%s lists %v, want only /arlington/t/%s", list, got, want)
		}
	}
	if h := eval[string](p, `document.getElementById("h-over").textContent`); h != "Games just finished" {
		t.Errorf("the finished games' heading is %q", h)
	}
}

// TestBrowserArlingtonLobbyNameRefused: creating a table under a bot
// level's name is refused with the server's message, try after try past
// the creator's limit of tables; the tries make one table, which the
// person takes once they choose another name.
func TestBrowserArlingtonLobbyNameRefused(t *testing.T) {
	t.Parallel()
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
