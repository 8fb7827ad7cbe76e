package arlweb

import (
	"strings"
	"testing"
)

// TestBrowserArlingtonVisitorWaitWords: a visitor at a table waiting for
// players is asked to take a seat (the line told them, with no seat
// there, to share the table's address); once seated, they are asked to
// share it.
func TestBrowserArlingtonVisitorWaitWords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	status := `document.getElementById("status").textContent`
	p.until(status + `.startsWith("Waiting")`)
	if got, want := eval[string](p, status), "Waiting for players: 2 seats are open; press Take a seat to play, or watch."; got != want {
		t.Errorf("a visitor reads %q, want %q", got, want)
	}
	p.join("Ann")
	p.until(status + `.includes("share")`)
	if got := eval[string](p, status); !strings.HasPrefix(got, "Waiting for players: share this page's address or its code") {
		t.Errorf("seated, Ann reads %q", got)
	}
}
