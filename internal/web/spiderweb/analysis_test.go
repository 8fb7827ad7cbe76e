package spiderweb

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/spider"
	"cardtable/spider/solver"
)

// solverAnalyze is the real analysis, as cardtable serve wires it but
// with smaller limits (the games here are small).
func solverAnalyze(ctx context.Context, g *spider.Game) (*Analysis, error) {
	a := solver.Analyze(ctx, g, solver.AnalyzeLimits{
		Position: solver.Limits{Nodes: 1_000_000, MemoryBytes: 64 << 20},
		Total:    solver.Limits{Time: 20 * time.Second},
	})
	out := &Analysis{LastWinnable: a.LastWinnable, Line: a.Line, Complete: a.Complete()}
	for _, p := range a.Points {
		out.Results = append(out.Results, p.Verdict.String())
	}
	return out, ctx.Err()
}

func (h *harness) analyse(id, body string, want int) analysisResponse {
	h.tb.Helper()
	var r analysisResponse
	if want != http.StatusOK {
		h.call("POST", "/api/games/"+id+"/analysis", body, want, &errorBody{})
		return r
	}
	h.call("POST", "/api/games/"+id+"/analysis", body, want, &r)
	return r
}

// checkLine checks that r's steps replay its line as a win from its last
// winnable point of game g: the first step is g taken back to that point,
// each next one the view after the line's next move, the last one won.
func checkLine(tb testing.TB, g *spider.Game, r analysisResponse) {
	tb.Helper()
	if r.LastWinnable == nil {
		tb.Fatal("no last winnable point")
	}
	c := g.Clone()
	for c.MovesPlayed() > *r.LastWinnable {
		if err := c.Undo(); err != nil {
			tb.Fatal(err)
		}
	}
	if len(r.LineText) != len(r.Line) {
		tb.Fatalf("%d move texts for a line of %d moves", len(r.LineText), len(r.Line))
	}
	if len(r.Steps) != len(r.Line)+1 {
		tb.Fatalf("%d steps for a line of %d moves", len(r.Steps), len(r.Line))
	}
	if got, want := viewJSON(tb, r.Steps[0]), viewJSON(tb, c.View(true)); got != want {
		tb.Fatalf("first step %s, want the position after %d moves %s", got, *r.LastWinnable, want)
	}
	for i, cmd := range r.Line {
		cm, err := spider.ParseCommand(cmd)
		if err != nil {
			tb.Fatalf("line move %d %q: %v", i+1, cmd, err)
		}
		if _, _, err := c.Apply(cm); err != nil {
			tb.Fatalf("line move %d %q: %v", i+1, cmd, err)
		}
		if got, want := viewJSON(tb, r.Steps[i+1]), viewJSON(tb, c.View(true)); got != want {
			tb.Fatalf("step %d %s, want %s", i+1, got, want)
		}
	}
	if !c.Won() || !r.Steps[len(r.Steps)-1].Won {
		tb.Fatalf("the line %v does not end won", r.Line)
	}
}

func results(r analysisResponse) []string {
	var out []string
	for i, p := range r.Points {
		if p.Move != i {
			return []string{"point", p.Result, "out of order"}
		}
		out = append(out, p.Result)
	}
	return out
}

func TestAnalysisRefusedInPlay(t *testing.T) {
	t.Run("no analyser", func(t *testing.T) {
		h := newHarness(t, Options{})
		r := h.newGame(`{"deal":"3"}`)
		h.analyse(r.ID, `{"giveUp":true}`, http.StatusNotImplemented)
		h.cmd(r.ID, "deal", 200) // still in play
	})
	t.Run("in play without giving up", func(t *testing.T) {
		called := false
		h := newHarness(t, Options{Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
			called = true
			return solverAnalyze(ctx, g)
		}})
		r := h.newGame(`{"deal":"3","suits":1}`)
		h.cmd(r.ID, "deal", 200)
		for _, body := range []string{"", `{}`, `{"giveUp":false}`} {
			h.analyse(r.ID, body, http.StatusConflict)
		}
		h.analyse(r.ID, `{"giveUp":"yes"}`, http.StatusBadRequest)
		if called {
			t.Fatal("the analyser ran on a game in play")
		}
		g := h.cmd(r.ID, "undo", 200)
		if g.GaveUp || g.View.Moves != 0 {
			t.Fatalf("the game after refused analyses: %+v", g)
		}
		if st := h.statsGroupOf("arachnid", 1); st.Played != 0 {
			t.Fatalf("a refused analysis counted a game: %+v", st)
		}
		other := h.otherPlayer()
		other.analyse(r.ID, `{"giveUp":true}`, http.StatusNotFound)
	})
}

func TestAnalysisAfterGivingUp(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	var r gameResponse
	h.call("POST", "/api/games/load", nearWon, 201, &r)
	a := h.analyse(r.ID, `{"giveUp":true}`, http.StatusOK)
	if !a.Game.GaveUp || a.Moves != 0 || !slices.Equal(results(a), []string{"winnable"}) || !a.Complete {
		t.Fatalf("analysis %+v", a)
	}
	g, err := spider.Load(nearWon)
	if err != nil {
		t.Fatal(err)
	}
	checkLine(t, g, a)
	if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 0 {
		t.Fatalf("stats after giving up: %+v", st)
	}
	// Over now: no more commands (the winning line is known), and the
	// analysis may be asked again without giving up.
	h.cmd(r.ID, "move 2 1 1", http.StatusConflict)
	var got gameResponse
	h.call("GET", "/api/games/"+r.ID, "", 200, &got)
	if !got.GaveUp || got.View.Moves != 0 {
		t.Fatalf("the game after giving up: %+v", got)
	}
	again := h.analyse(r.ID, "", http.StatusOK)
	if !slices.Equal(again.Line, a.Line) {
		t.Fatalf("second analysis line %v, first %v", again.Line, a.Line)
	}
	if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 0 {
		t.Fatalf("stats after a second analysis: %+v", st)
	}
}

func TestAnalysisOfAGameOver(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	t.Run("stuck", func(t *testing.T) {
		var r gameResponse
		h.call("POST", "/api/games/load", nearStuck, 201, &r)
		h.cmd(r.ID, "move 1 2 1", 200)
		a := h.analyse(r.ID, "", http.StatusOK)
		// Closed by its analysis, as a game given up is (giveup_test.go).
		if !a.Game.GaveUp || a.LastWinnable != nil || len(a.Steps) != 0 || len(a.Line) != 0 ||
			!slices.Equal(results(a), []string{"lost", "lost"}) {
			t.Fatalf("analysis %+v", a)
		}
		if st := h.statsGroupOf("spider", 2); st.Played != 1 || st.Won != 0 {
			t.Fatalf("stats: %+v", st)
		}
	})
	t.Run("won", func(t *testing.T) {
		var r gameResponse
		h.call("POST", "/api/games/load", nearWon, 201, &r)
		h.cmd(r.ID, "move 2 1 1", 200)
		h.cmd(r.ID, "remove 1", 200)
		a := h.analyse(r.ID, "", http.StatusOK)
		if a.LastWinnable == nil || *a.LastWinnable != 2 || len(a.Line) != 0 ||
			!slices.Equal(results(a), []string{"winnable", "winnable", "winnable"}) {
			t.Fatalf("analysis %+v", a)
		}
		if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 1 {
			t.Fatalf("stats: %+v", st)
		}
	})
	t.Run("a deal played and given up", func(t *testing.T) {
		var r gameResponse
		h.call("POST", "/api/games", `{"deal":"5","suits":1}`, 201, &r)
		g, err := spider.NewGame(5, spider.Options{Variant: spider.Arachnid, Suits: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"deal", "deal"} {
			h.cmd(r.ID, cmd, 200)
			if _, err := mirrorApply(t, g, cmd); err != nil {
				t.Fatal(err)
			}
		}
		a := h.analyse(r.ID, `{"giveUp":true}`, http.StatusOK)
		if len(a.Points) != 3 || a.LastWinnable == nil {
			t.Fatalf("analysis %+v", a)
		}
		checkLine(t, g, a)
	})
}

// TestAnalysisOneAtATime: a second analysis while one runs is refused
// with Retry-After and changes nothing; once the first is done it runs.
func TestAnalysisOneAtATime(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	h := newHarness(t, Options{Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		// The first analysis waits for the test; any other runs at once.
		if calls.Add(1) == 1 {
			close(entered)
			<-release
		}
		return solverAnalyze(ctx, g)
	}})
	// Released at the end whatever happens, so a failure does not leave
	// the first request hanging.
	var freed sync.Once
	free := func() { freed.Do(func() { close(release) }) }
	t.Cleanup(free)
	var first, second gameResponse
	h.call("POST", "/api/games/load", nearWon, 201, &first)
	h.call("POST", "/api/games/load", nearWon, 201, &second)
	done := make(chan int, 1)
	go func() {
		code, _, _ := h.do("POST", "/api/games/"+first.ID+"/analysis", `{"giveUp":true}`)
		done <- code
	}()
	<-entered
	code, body, hdr := h.do("POST", "/api/games/"+second.ID+"/analysis", `{"giveUp":true}`)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Fatalf("second analysis: %d %s, Retry-After %q", code, body, hdr.Get("Retry-After"))
	}
	// The refusal says why, so the page can tell it from the other 503s
	// (which say the server is busy or its database is gone).
	if !strings.Contains(string(body), `"another analysis is running on the server: try again in `+hdr.Get("Retry-After")+` s"`) {
		t.Errorf("second analysis: body %s", body)
	}
	var g gameResponse
	h.call("GET", "/api/games/"+second.ID, "", 200, &g)
	if g.GaveUp {
		t.Fatal("a refused analysis gave the game up")
	}
	// A save's analysis is refused the same way, before opening it.
	h.call("PUT", "/api/saves/s", `{"game":"`+second.ID+`"}`, 200, nil)
	n := h.countGames()
	code, body, hdr = h.do("POST", "/api/saves/s/analysis?previous="+second.ID, `{"giveUp":true}`)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" {
		t.Fatalf("a save's analysis meanwhile: %d %s, Retry-After %q", code, body, hdr.Get("Retry-After"))
	}
	if h.countGames() != n || h.saveList()["s"].GaveUp {
		t.Fatal("a refused analysis of a save opened it or gave it up")
	}
	free()
	if code := <-done; code != http.StatusOK {
		t.Fatalf("first analysis: %d", code)
	}
	a := h.analyse(second.ID, `{"giveUp":true}`, http.StatusOK)
	if b, _ := json.Marshal(a.Line); len(a.Line) == 0 {
		t.Fatalf("line %s", b)
	}
}
