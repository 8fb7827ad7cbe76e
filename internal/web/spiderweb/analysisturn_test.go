package spiderweb

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// TestAnalysisTakenInTurns: an address refused while another address's
// analysis ran has the next turn; the address whose analysis ran last is
// refused until the other has come back or its claim has lapsed. Before,
// one client sending an analysis as each of its own ended (one every
// 20 s at most) held the server's one slot for good.
func TestAnalysisTakenInTurns(t *testing.T) {
	clk := &clock{webtest.Clock{T: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}} // moves only when told
	entered, free := make(chan struct{}, 4), make(chan struct{}, 4)
	h := newHarness(t, Options{Now: clk.now, Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		entered <- struct{}{}
		select {
		case <-free:
		case <-time.After(10 * time.Second): // an analysis the test did not expect: fail, not hang
			return nil, errors.New("analysis never freed")
		}
		return solverAnalyze(ctx, g)
	}})
	const flooder, player = "198.51.100.7:4000", "203.0.113.9:5000"
	analyse := func(addr string) *httptest.ResponseRecorder {
		var g gameResponse
		h.call("POST", "/api/games/load", nearWon, http.StatusCreated, &g) // quick to analyse
		req := httptest.NewRequest("POST", "/api/games/"+g.ID+"/analysis", strings.NewReader(`{"giveUp":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		return h.serve(req)
	}
	running := make(chan int, 1)
	go func() { running <- analyse(flooder).Code }()
	<-entered
	if rec := analyse(player); rec.Code != http.StatusServiceUnavailable ||
		!strings.Contains(rec.Body.String(), "another analysis is running on the server") {
		t.Fatalf("while the flooder's ran: %d %s", rec.Code, rec.Body)
	}
	free <- struct{}{}
	if c := <-running; c != http.StatusOK {
		t.Fatalf("the flooder's analysis: %d", c)
	}
	// The flooder at once again: the player, refused meanwhile, has the turn.
	rec := analyse(flooder)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		!strings.Contains(rec.Body.String(), "another analysis is waiting its turn on the server: try again in ") {
		t.Fatalf("the flooder again before the player's turn: %d %s", rec.Code, rec.Body)
	}
	clk.advance(analysisRetry * time.Second)
	free <- struct{}{}
	if rec := analyse(player); rec.Code != http.StatusOK {
		t.Fatalf("the player back after Retry-After: %d %s", rec.Code, rec.Body)
	}
	<-entered
	// Nobody waits now: the same address may go on, and a claim lapses.
	free <- struct{}{}
	if rec := analyse(player); rec.Code != http.StatusOK {
		t.Fatalf("the player again, nobody waiting: %d %s", rec.Code, rec.Body)
	}
	<-entered
	running2 := make(chan int, 1)
	go func() { running2 <- analyse(player).Code }()
	<-entered
	if rec := analyse(flooder); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("the flooder while the player's ran: %d", rec.Code)
	}
	free <- struct{}{}
	if c := <-running2; c != http.StatusOK {
		t.Fatalf("the player's analysis: %d", c)
	}
	clk.advance(turnWait)
	free <- struct{}{}
	if rec := analyse(player); rec.Code != http.StatusOK {
		t.Fatalf("the player once the flooder's claim lapsed: %d %s", rec.Code, rec.Body)
	}
	<-entered
}
