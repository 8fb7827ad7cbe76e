package arlweb

import (
	"net/http"
	"testing"

	"cardtable/internal/table"
)

// TestBrowserArlingtonWatchRematch: Cat watches a game of Ann's against
// a bot to its end; once Ann asks for the rematch, Cat's page offers
// "Watch the rematch", a link to the new table, and says so once. A
// spectator's page offered nothing: the players went on elsewhere and
// the watcher was left at the finished table.
func TestBrowserArlingtonWatchRematch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	ann := e.client()
	var got created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann.join(got.ID, "Ann")
	cat := seatTabIn(t, startBrowser(t), "Cat")
	cat.open(e.srv.URL, got.ID)
	cat.recordSaid()
	playOutHere(t, e, got.ID)
	cat.until(`!!document.getElementById("btn-replay")`)
	if n := cat.count("#watch-rematch"); n != 0 {
		t.Fatalf("before any rematch, the spectator's page offers %d links to it", n)
	}
	var re created
	if code := ann.do("POST", "/api/arlington/tables/"+got.ID+"/rematch", nil, &re); code != http.StatusOK && code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	cat.until(`!!document.getElementById("watch-rematch")`)
	if href := eval[string](cat, `document.getElementById("watch-rematch").getAttribute("href")`); href != "/arlington/t/"+re.ID {
		t.Errorf("Watch the rematch leads to %q, want the rematch's table /arlington/t/%s", href, re.ID)
	}
	if n := saidCount(cat.said(), "Watch the rematch"); n != 1 {
		t.Errorf("the page said the rematch %d times, want once: %q", n, cat.said())
	}
}
