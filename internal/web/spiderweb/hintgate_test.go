package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cardtable/spider"
)

// TestHintOneAtATimePerAddress: a client address's hints search one at a
// time, the others from it waiting their turn, while another address's
// hint goes on at once. Before, one client asking many hints at once held
// every core the server gives hints, and other players' hints waited
// until they failed with 503.
func TestHintOneAtATimePerAddress(t *testing.T) {
	entered := make(chan uint64, 8) // the deal of each game whose hint search starts
	free := make(chan struct{})
	hint := func(ctx context.Context, g *spider.Game) (spider.Move, error) {
		entered <- g.Deal()
		select {
		case <-free:
		case <-ctx.Done():
			return spider.Move{}, ctx.Err()
		}
		return firstMoveOntoACard(ctx, g)
	}
	h := newHarness(t, Options{Hint: hint})
	first, second := h.newGame(`{"deal":"1"}`), h.newGame(`{"deal":"2"}`)
	other := h.otherPlayer()
	third := other.newGame(`{"deal":"3"}`)
	const flooder, bystander = "198.51.100.7:4000", "203.0.113.9:5000"
	codes := make(chan int, 3)
	ask := func(hh *harness, id, addr string) {
		req := httptest.NewRequest("GET", "/api/games/"+id+"/hint", nil)
		req.RemoteAddr = addr
		go func() { codes <- hh.serve(req).Code }()
	}
	ask(h, first.ID, flooder)
	if d := <-entered; d != 1 {
		t.Fatalf("search started for deal %d, want 1", d)
	}
	ask(h, second.ID, flooder)
	// The second waits for the first: it must not start its search.
	for deadline := time.Now().Add(10 * time.Second); h.s.hinting.waiting("198.51.100.7") < 2; {
		select {
		case d := <-entered:
			t.Fatalf("a second hint of one address searched (deal %d) while its first ran", d)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the second hint never came to wait")
		}
		time.Sleep(time.Millisecond) // polling the condition above, not standing in for it
	}
	ask(other, third.ID, bystander)
	if d := <-entered; d != 3 {
		t.Fatalf("search started for deal %d, want 3 (another address's, at once)", d)
	}
	free <- struct{}{} // one of the running two ends
	free <- struct{}{}
	if d := <-entered; d != 2 {
		t.Fatalf("search started for deal %d, want 2 (the waiting one's turn)", d)
	}
	free <- struct{}{}
	for range 3 {
		if c := <-codes; c != http.StatusOK {
			t.Errorf("hint answered %d", c)
		}
	}
	if n := h.s.hinting.waiting("198.51.100.7"); n != 0 {
		t.Errorf("%d hints of the address still held after all answered", n)
	}
}
