package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonTurnTimerSaid (long: a browser, several seconds under
// -race; make test-long runs it): at a table with a turn timer the
// page tells the player, on their turn, that a bot plays the turn for
// them after that long; at a table without one it says nothing. Before,
// nothing on the page mentioned the timer, and players saw "Ann passes."
// in the log for a turn they had not played. At a rated table, where the
// timer runs even with nobody else there, it says so.
func TestLongBrowserArlingtonTurnTimerSaid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	for _, c := range []struct {
		name    string
		seconds int
		rated   bool
		want    string
	}{
		{"timer", 90, false, "if others are waiting, after 1 min 30 s a bot plays this turn for you"},
		{"rated", 90, true, "this game is rated: after 1 min 30 s a bot plays this turn for you"},
		{"off", -1, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got created
			cfg := table.Config{Players: 2, Bots: []string{"", "random"}, TurnSeconds: c.seconds, Rated: c.rated}
			if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
				t.Fatalf("create: %d", code)
			}
			p := newSeatTab(t, bctx, c.name)
			p.open(e.srv.URL, got.ID)
			p.join("Ann")
			p.until(`document.querySelector("#actions .hint-button")`)
			// The note comes with the table's settings, fetched once; the
			// table's code arrives with them, so once it shows, a note
			// that is not there is not coming.
			p.until(`document.getElementById("invite-code").textContent !== ""`)
			if c.want != "" {
				p.until(`document.querySelector("#actions .turn-timer")`)
			}
			say := eval[string](p, `(document.querySelector("#actions .turn-timer") || {}).textContent || ""`)
			if c.want == "" && say != "" || !strings.Contains(say, c.want) {
				t.Errorf("on the player's turn the page says %q about the turn timer, want %q", say, c.want)
			}
			p.shot("arlington-turn-timer-" + c.name + "-390")
		})
	}
}
