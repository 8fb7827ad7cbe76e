package arlweb

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"cardtable/internal/table"
)

// TestRematchHeldSeatJoinElsewhere409: over HTTP, a person whose seat a
// rematch holds, asking for another open seat there, is answered 409
// with words naming the held seat, and the seats stay as they were;
// asking for no seat in particular gives them the held one. Without its
// class in classes, the table package's ErrSeatHeld is 500, the
// server's fault, without those words.
func TestRematchHeldSeatJoinElsewhere409(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000})
	ann, bob, cid := e.client(), e.client(), e.client()
	var tb created
	cfg := table.Config{Players: 3, Bots: []string{"", "", ""}, Target: 1, TurnSeconds: -1}
	if code := ann.do("POST", "/api/arlington/tables", cfg, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	people := []*client{ann, bob, cid}
	ws := make([]*wsClient, len(people))
	for i, c := range people {
		if s := c.join(tb.ID, []string{"Ann", "Bob", "Cid"}[i]); s != i {
			t.Fatalf("%d sits at %d", i, s)
		}
	}
	for i, c := range people {
		ws[i] = c.dial(tb.ID, -1)
	}
	// Each plays a random legal action on their turn (random play makes
	// sets: a game to 1 ends).
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 1; i < len(ws); i++ {
		ws[i].started()
	}
	for m := ws[0].started(); m.View.ToMove >= 0; {
		p, n := ws[m.View.ToMove], m.View.EventCount
		pm := p.last // it may have read this view already
		if pm.View == nil || pm.View.EventCount < n {
			pm = p.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount >= n })
		}
		if pm.View.ToMove != pm.Seat || len(pm.Legal) == 0 {
			t.Fatalf("seat %d to move, yet its view: to move %d, legal %v", m.View.ToMove, pm.View.ToMove, pm.Legal)
		}
		p.send(map[string]any{"type": "action", "action": pm.Legal[rng.IntN(len(pm.Legal))]})
		m = p.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	if code := bob.do("POST", "/api/arlington/tables/"+tb.ID+"/leave", nil, nil); code != http.StatusOK {
		t.Fatalf("Bob leaves the finished game: %d", code)
	}
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+tb.ID+"/rematch", nil, &re); code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	held, open := -1, -1
	for _, s := range re.Seats {
		switch {
		case s.Reserved && s.Name == "Cid":
			held = s.Seat
		case s.Open && !s.Reserved:
			open = s.Seat
		}
	}
	if held < 0 || open < 0 {
		t.Fatalf("the rematch's seats %+v: want Cid's held and Bob's open", re.Seats)
	}
	var refused struct {
		Error string `json:"error"`
	}
	code := cid.do("POST", "/api/arlington/tables/"+re.ID+"/join", joinRequest{Name: "Cid", Seat: &open}, &refused)
	want := fmt.Sprintf("another seat is held for you at this rematch: seat %d, not seat %d; take seat %d, or give it up (leave) and then choose another",
		held+1, open+1, held+1)
	if code != http.StatusConflict || refused.Error != want {
		t.Fatalf("Cid asks for the open seat %d: %d %q, want 409 %q", open, code, refused.Error, want)
	}
	var after created
	if code := cid.do("GET", "/api/arlington/tables/"+re.ID, nil, &after); code != http.StatusOK ||
		!after.Seats[open].Open || !after.Seats[held].Reserved {
		t.Errorf("after the refusal: %d, seats %+v, want seat %d open and %d still held", code, after.Seats, open, held)
	}
	if s := cid.join(re.ID, "Cid"); s != held {
		t.Errorf("Cid then sits at %d, want the held seat %d", s, held)
	}
}
