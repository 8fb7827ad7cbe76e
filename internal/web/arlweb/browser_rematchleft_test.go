package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"cardtable/internal/table"
)

// TestBrowserArlingtonRematchLeaverSeatOpen: Bob left the finished table
// (the terminal's quit, say) before Ann asked to play again; the rematch
// page shows his turned seat open to anyone, its status line asks for
// players rather than waiting for Bob, and a newcomer is offered the
// join form.
func TestBrowserArlingtonRematchLeaverSeatOpen(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	ann, bob := e.client(), e.client()
	var old created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 3, Bots: []string{"", "", "random"}, Target: 1}, &old); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann.join(old.ID, "Ann")
	bob.join(old.ID, "Bob")
	playOutHere(t, e, old.ID)
	if code := bob.do("POST", "/api/arlington/tables/"+old.ID+"/leave", nil, nil); code != http.StatusOK {
		t.Fatalf("Bob's leave: %d", code)
	}
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+old.ID+"/rematch", nil, &re); code != http.StatusCreated || re.Seat < 0 {
		t.Fatalf("rematch: %d %+v", code, re)
	}
	cy := seatTabIn(t, startBrowser(t), "Cy")
	cy.open(e.srv.URL, re.ID)
	cy.until(`document.getElementById("status").textContent.startsWith("Waiting for")`)
	status := eval[string](cy, `document.getElementById("status").textContent`)
	if !strings.HasPrefix(status, "Waiting for players") {
		t.Fatalf("the rematch Bob left says %q, want it waiting for players", status)
	}
	if held := eval[bool](cy, `window.__ws.seats.some((s) => s.reserved)`); held {
		t.Error("the rematch holds a seat for Bob, who left")
	}
	cy.until(`!document.querySelector(` + q(selJoin) + `).hidden`)
}
