package spiderweb

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// loggedHarness is newHarness whose handlers and server log as JSON to
// the returned lines.
func loggedHarness(t *testing.T, o Options) (*harness, *webtest.Log) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	o.Log = log
	return newServerHarness(t, o, web.Options{Log: log}), buf
}

// wantBusy checks that path's one failure was logged as a refusal for
// load: INFO, reason busy (docs/hosting.md "Logs"), not an ERROR.
func wantBusy(t *testing.T, buf *webtest.Log, path string) {
	t.Helper()
	ls := buf.Failed(t, path)
	if len(ls) != 1 || ls[0]["level"] != "INFO" || ls[0]["reason"] != "busy" {
		t.Errorf("the refusal of %s logged %v, want one INFO line with reason busy", path, ls)
	}
}

// TestAnalysisRefusalLoggedBusy: an analysis refused while another runs
// is load, logged at INFO with reason busy.
func TestAnalysisRefusalLoggedBusy(t *testing.T) {
	entered, free := make(chan struct{}, 1), make(chan struct{})
	h, buf := loggedHarness(t, Options{Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		entered <- struct{}{}
		select {
		case <-free:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return solverAnalyze(ctx, g)
	}})
	analyse := func(addr string) (*httptest.ResponseRecorder, string) {
		var g gameResponse
		h.call("POST", "/api/games/load", nearWon, http.StatusCreated, &g)
		path := "/api/games/" + g.ID + "/analysis"
		req := httptest.NewRequest("POST", path, strings.NewReader(`{"giveUp":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		return h.serve(req), path
	}
	running := make(chan int, 1)
	go func() { rec, _ := analyse("198.51.100.7:4000"); running <- rec.Code }()
	<-entered
	rec, path := analyse("203.0.113.9:5000")
	free <- struct{}{}
	if c := <-running; c != http.StatusOK {
		t.Errorf("the running analysis: %d", c)
	}
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("the second analysis: %d %s", rec.Code, rec.Body)
	}
	wantBusy(t, buf, path)
}

// TestHintWaitLoggedBusy: a second hint from one address refused while
// the first is searched is load, logged at INFO with reason busy.
func TestHintWaitLoggedBusy(t *testing.T) {
	entered, free := make(chan struct{}, 1), make(chan struct{})
	h, buf := loggedHarness(t, Options{Hint: func(ctx context.Context, g *spider.Game) (spider.Move, error) {
		entered <- struct{}{}
		select {
		case <-free:
		case <-ctx.Done():
			return spider.Move{}, ctx.Err()
		}
		return firstMoveOntoACard(ctx, g)
	}})
	h.s.hinting.wait = 50 * time.Millisecond
	first, second := h.newGame(`{"deal":"1"}`), h.newGame(`{"deal":"2"}`)
	ask := func(id string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/games/"+id+"/hint", nil)
		req.RemoteAddr = "198.51.100.7:4000"
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
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("the second hint: %d %s", rec.Code, rec.Body)
	}
	wantBusy(t, buf, "/api/games/"+second.ID+"/hint")
}
