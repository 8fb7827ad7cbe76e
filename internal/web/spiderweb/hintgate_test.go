package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
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

// waiting is how many requests of key run or wait: the test sees that a
// second hint of an address waits, which its answer alone cannot show.
func (o *oneEach) waiting(key string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t := o.turns[key]; t != nil {
		return t.users
	}
	return 0
}

// TestHintTurnFreedAfterPanic: a hint search that panics gives its
// address's turn back, so the address's next hint searches at once.
// Before, the turn stayed held until a restart: every later hint of the
// address (behind an untrusted proxy, everyone's) waited its time out
// and failed with 503.
func TestHintTurnFreedAfterPanic(t *testing.T) {
	var calls atomic.Int32
	hint := func(ctx context.Context, g *spider.Game) (spider.Move, error) {
		if calls.Add(1) == 1 {
			panic("a fault in the search")
		}
		return firstMoveOntoACard(ctx, g)
	}
	h := newHarness(t, Options{Hint: hint})
	h.s.hinting.wait = 2 * time.Second // the next hint's wait, were the turn held
	g := h.newGame(`{"deal":"1"}`)
	const addr = "198.51.100.7:4000"
	ask := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/games/"+g.ID+"/hint", nil)
		req.RemoteAddr = addr
		return h.serve(req)
	}
	func() {
		defer func() {
			// The server recovers a handler's panic and closes the
			// connection; here the test does.
			if recover() == nil {
				t.Error("the hint search's panic did not reach the server")
			}
		}()
		ask()
	}()
	if rec := ask(); rec.Code != http.StatusOK {
		t.Fatalf("the address's next hint after a panic: %d %s", rec.Code, rec.Body)
	}
	if n := h.s.hinting.waiting("198.51.100.7"); n != 0 {
		t.Errorf("%d hints of the address still held after all answered", n)
	}
}

// TestHintWaitRefusal: a hint that waited its time out for the address's
// other hint is refused with 503, Retry-After and words saying so, not
// the generic "server busy".
func TestHintWaitRefusal(t *testing.T) {
	entered, free := make(chan struct{}, 1), make(chan struct{})
	hint := func(ctx context.Context, g *spider.Game) (spider.Move, error) {
		entered <- struct{}{}
		select {
		case <-free:
		case <-ctx.Done():
			return spider.Move{}, ctx.Err()
		}
		return firstMoveOntoACard(ctx, g)
	}
	h := newHarness(t, Options{Hint: hint})
	h.s.hinting.wait = 50 * time.Millisecond
	first, second := h.newGame(`{"deal":"1"}`), h.newGame(`{"deal":"2"}`)
	const addr = "198.51.100.7:4000"
	ask := func(id string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/games/"+id+"/hint", nil)
		req.RemoteAddr = addr
		return h.serve(req)
	}
	done := make(chan int, 1)
	go func() { done <- ask(first.ID).Code }()
	<-entered
	rec := ask(second.ID)
	free <- struct{}{}
	if c := <-done; c != http.StatusOK {
		t.Errorf("the first hint: %d", c)
	}
	want := "another hint from your address is still being worked out: try again in " + strconv.Itoa(hintRetry) + " s"
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != strconv.Itoa(hintRetry) ||
		!strings.Contains(rec.Body.String(), want) {
		t.Fatalf("the second hint: %d Retry-After %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
}
