package spiderweb

import (
	"net/http"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/web/webtest"
)

// TestPlayTime: a game's play time counts the pauses between its commands,
// each up to spidergame.IdleCap; every answer carries the clock; it survives a
// restart and a named save; and the statistics keep the best and the mean
// time of won games.
func TestPlayTime(t *testing.T) {
	clk := &clock{webtest.Clock{T: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}} // moves only when told
	h := newHarness(t, Options{Now: clk.now})
	const capMs = int64(spidergame.IdleCap / time.Millisecond)
	check := func(what string, got spidergame.Clock, played, since int64, running bool) {
		t.Helper()
		want := spidergame.Clock{Played: played, Since: since, Cap: capMs, Running: running}
		if got != want {
			t.Fatalf("%s: clock %+v, want %+v", what, got, want)
		}
	}

	g := h.newGame(`{"deal":"617","suits":1}`)
	check("a new game", g.Clock, 0, 0, true)
	clk.advance(30 * time.Second)
	check("30 s later", r2(h, g.ID).Clock, 0, 30000, true)
	clk.advance(30 * time.Second)
	check("the first move, a minute in", h.cmd(g.ID, "deal", http.StatusOK).Clock, 60000, 0, true)
	clk.advance(10 * time.Minute)
	check("a move after ten minutes away", h.cmd(g.ID, "undo", http.StatusOK).Clock, 60000+capMs, 0, true)
	clk.advance(5 * time.Second)
	h.restart()
	check("after a restart", r2(h, g.ID).Clock, 60000+capMs, 5000, true)
	clk.advance(time.Second)
	check("a refused move adds nothing", r2(h, g.ID).Clock, 60000+capMs, 6000, true)
	h.cmd(g.ID, "undo", http.StatusUnprocessableEntity)
	check("after the refused move", r2(h, g.ID).Clock, 60000+capMs, 6000, true)

	// A named save keeps the time; the game opened from it goes on from it.
	h.call("PUT", "/api/saves/timed", `{"game":"`+g.ID+`"}`, http.StatusOK, nil)
	var o gameResponse
	h.call("POST", "/api/saves/timed/open", "", http.StatusCreated, &o)
	check("opened from a save", o.Clock, 60000+capMs, 0, true)

	// Won games: the time at the winning move; the clock stops.
	for i, secs := range []int64{45, 15} {
		w := h.upload(nearWon)
		check("an uploaded game", w.Clock, 0, 0, true)
		clk.advance(time.Duration(secs) * time.Second)
		won := h.cmd(w.ID, "move 2 1 1", http.StatusOK)
		if !won.View.Won {
			t.Fatal("not won")
		}
		check("the winning move", won.Clock, secs*1000, 0, false)
		clk.advance(time.Hour)
		check("a won game an hour later", r2(h, w.ID).Clock, secs*1000, 3600000, false)
		st := h.statsGroupOf("arachnid", 1)
		best, avg := [2]int64{45000, 15000}[i], [2]int64{45000, 30000}[i]
		if st.TimedWins != i+1 || st.BestTime != best || st.AverageTime != avg {
			t.Fatalf("after win %d: %d timed wins, best %d ms, average %d ms; want %d, %d, %d",
				i+1, st.TimedWins, st.BestTime, st.AverageTime, i+1, best, avg)
		}
		if last := st.History[len(st.History)-1]; last.Time != secs*1000 {
			t.Fatalf("the history's time of win %d: %d ms", i+1, last.Time)
		}
	}
}

// TestPlayTimeGivenUp: a game given up for its analysis takes no more
// moves, so its clock stands, as a won or stuck game's does; it ran on
// (running, and the page's timer climbing with every control disabled).
func TestPlayTimeGivenUp(t *testing.T) {
	clk := &clock{webtest.Clock{T: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}} // moves only when told
	h := newHarness(t, Options{Now: clk.now, Analyze: solverAnalyze})
	g := h.upload(nearWon)
	clk.advance(20 * time.Second)
	h.cmd(g.ID, "move 1 3 1", http.StatusOK)
	clk.advance(10 * time.Second)
	a := h.analyse(g.ID, `{"giveUp":true}`, http.StatusOK)
	if !a.Game.GaveUp || a.Game.Clock.Running {
		t.Fatalf("the given-up game's clock in the analysis answer: %+v (given up %v), want it stopped", a.Game.Clock, a.Game.GaveUp)
	}
	clk.advance(time.Hour)
	got := r2(h, g.ID)
	if got.Clock.Running || got.Clock.Played != a.Game.Clock.Played {
		t.Fatalf("an hour after giving up: clock %+v, want it standing at %d ms", got.Clock, a.Game.Clock.Played)
	}
}
