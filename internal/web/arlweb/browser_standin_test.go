package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"cardtable/internal/table"
)

// selStandIn is a line of the log that the stand-in bot played for the
// page's own seat.
const selStandIn = `#log li.stand-in`

// TestLongBrowserArlingtonStandInMarked (long: a browser and a 5 s turn
// timer): when the turn timer runs out and the stand-in bot plays for a
// person, that person's log says a bot played it for them; a move they
// make themselves is not marked, and nobody else's page marks it. Before,
// the log read "Ann passes." for a turn Ann never played.
func TestLongBrowserArlingtonStandInMarked(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	var got created
	cfg := table.Config{Players: 3, Bots: []string{"", "", "random"}, TurnSeconds: table.MinTurnSeconds}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	ann, bob := newSeatTab(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob")
	ann.open(e.srv.URL, got.ID)
	ann.join("Ann")
	bob.open(e.srv.URL, got.ID)
	bob.join("Bob")
	// Nobody plays: the first person to move (the bot plays at once)
	// times out, and the stand-in plays for them.
	ann.until(`window.__ws.toMove === 0 || window.__ws.toMove === 1`)
	p, o := ann, bob
	if eval[int](ann, `window.__ws.toMove`) != eval[int](ann, `window.__ws.seat`) {
		p, o = bob, ann
	}
	p.until(`document.querySelector(` + q(selStandIn) + `)`)
	// Each page marks only its own seat's moves, and says whose.
	for _, x := range []*seatTab{p, o} {
		for _, line := range eval[[]string](x, `[...document.querySelectorAll(`+q(selStandIn)+`)].map((li) => li.textContent)`) {
			if !strings.HasPrefix(line, "A bot played for you: "+x.name+" ") {
				t.Errorf("%s's log marks %q as played for them", x.name, line)
			}
		}
	}
	// A move the person makes is theirs, not marked.
	p.until(`document.querySelector(` + q(selLegal+":not(:disabled)") + `)`)
	marked := p.count(selStandIn)
	p.play()
	// (Fewer, not more, if the move ended the hand: the log is the hand's.)
	if got := p.count(selStandIn); got > marked {
		t.Errorf("%s played a move and the log marks %d moves as the bot's, %d before", p.name, got, marked)
	}
}
