package arlweb

import (
	"net/http"
	"testing"
)

// TestLobbyYours: the list marks the tables where the requester holds a
// seat, before the game starts and during it, and only for that player.
func TestLobbyYours(t *testing.T) {
	e := newEnv(t, Limits{})
	ann, bob := e.client(), e.client()
	waiting := ann.create("", "")       // Ann sits; a seat stays open
	playing := ann.create("", "random") // Ann sits; the game starts
	other := bob.create("", "")         // Bob's: Ann has no seat there
	ann.join(waiting, "Ann")
	ann.join(playing, "Ann")
	bob.join(other, "Bob")
	yours := func(c *client) map[string]bool {
		t.Helper()
		var l lobby
		if code := c.do("GET", "/api/arlington/tables", nil, &l); code != http.StatusOK || len(l.Tables) != 3 {
			t.Fatalf("lobby: %d, %d tables", code, len(l.Tables))
		}
		out := map[string]bool{}
		for _, tb := range l.Tables {
			out[tb.ID] = tb.Yours
		}
		return out
	}
	if got := yours(ann); !got[waiting] || !got[playing] || got[other] {
		t.Errorf("Ann's list marks %v, want %s and %s only", got, waiting, playing)
	}
	if got := yours(bob); got[waiting] || got[playing] || !got[other] {
		t.Errorf("Bob's list marks %v, want %s only", got, other)
	}
	if got := yours(e.client()); got[waiting] || got[playing] || got[other] {
		t.Errorf("a newcomer's list marks %v, want none", got)
	}
}
