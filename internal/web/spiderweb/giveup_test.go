package spiderweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/spider"
)

// saveList is GET /api/saves by name.
func (h *harness) saveList() map[string]saveSummary {
	h.tb.Helper()
	var list struct {
		Saves []saveSummary `json:"saves"`
	}
	h.call("GET", "/api/saves", "", http.StatusOK, &list)
	out := map[string]saveSummary{}
	for _, s := range list.Saves {
		out[s.Name] = s
	}
	return out
}

// analyseSave is POST /api/saves/{name}/analysis with body and query.
func (h *harness) analyseSave(name, query, body string, want int) analysisResponse {
	h.tb.Helper()
	var r analysisResponse
	if want != http.StatusCreated {
		h.call("POST", "/api/saves/"+name+"/analysis"+query, body, want, &errorBody{})
		return r
	}
	h.call("POST", "/api/saves/"+name+"/analysis"+query, body, want, &r)
	return r
}

// TestGivenUpDurable: a game given up for its analysis refuses every
// command once the server has forgotten it, after a restart or once it
// left the cache, and its loss is not replaced: the mark is stored before
// the analysis answers.
func TestGivenUpDurable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		forget func(h *harness, id string)
	}{
		{"restart", Options{}, func(h *harness, id string) { h.restart() }},
		{"evicted", Options{MaxGames: 1}, func(h *harness, id string) {
			h.upload(nearWon) // the cache holds one game: this one
			if h.cached(id) {
				h.tb.Fatal("the given-up game is still in memory")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Analyze = solverAnalyze
			h := newHarness(t, tc.opts)
			r := h.upload(nearWon)
			a := h.analyse(r.ID, `{"giveUp":true}`, http.StatusOK)
			if !a.Game.GaveUp || a.Game.Version != r.Version+1 {
				t.Fatalf("given up: %+v", a.Game)
			}
			tc.forget(h, r.ID)
			var got gameResponse
			h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &got)
			if !got.GaveUp || got.Version != a.Game.Version {
				t.Fatalf("read back: %+v, want given up at version %d", got, a.Game.Version)
			}
			// The winning move, a restart of the game: all refused.
			for _, cmd := range []string{"move 2 1 1", "restart", "auto 2"} {
				var e errorBody
				body := `{"cmd":"` + cmd + `"}`
				h.call("POST", "/api/games/"+r.ID+"/commands", body, http.StatusConflict, &e)
				if e.Error != spidergame.ErrGivenUp.Error() {
					t.Fatalf("%s: %q", cmd, e.Error)
				}
			}
			if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 0 {
				t.Fatalf("stats: %+v", st)
			}
			// Asked again, the analysis needs no giving up and changes nothing.
			if again := h.analyse(r.ID, "", http.StatusOK); again.Game.Version != a.Game.Version {
				t.Fatalf("second analysis moved the game to version %d", again.Game.Version)
			}
		})
	}
}

// TestAnalysedStuckGameClosed: a stuck game's analysis shows a winning
// line from an earlier move; undoing to play it would turn the recorded
// loss into a win, so the analysis closes the game as giving up does.
func TestAnalysedStuckGameClosed(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	r := h.upload(nearStuck)
	h.cmd(r.ID, "move 1 2 1", http.StatusOK)
	a := h.analyse(r.ID, "", http.StatusOK)
	if !a.Game.GaveUp || !a.Game.View.Stuck {
		t.Fatalf("analysed stuck game: %+v", a.Game)
	}
	h.restart()
	h.cmd(r.ID, "undo", http.StatusConflict)
	if st := h.statsGroupOf("spider", 2); st.Played != 1 || st.Won != 0 {
		t.Fatalf("stats: %+v", st)
	}
}

// TestGivenUpSaves: a named save of a game given up for its analysis
// still opens and plays, but its lineage's loss is final: a win from the
// save does not replace it ("save, give up, open the save, win").
func TestGivenUpSaves(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	r := h.upload(nearWon)
	h.call("PUT", "/api/saves/before", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
	if h.saveList()["before"].GaveUp {
		t.Fatal("a save marked given up before anything was")
	}
	h.analyse(r.ID, `{"giveUp":true}`, http.StatusOK)
	var after saveSummary
	h.call("PUT", "/api/saves/after", `{"game":"`+r.ID+`"}`, http.StatusOK, &after)
	if !after.GaveUp {
		t.Fatal("a save of the given-up game is not marked")
	}
	for name, s := range h.saveList() {
		if !s.GaveUp {
			t.Fatalf("save %q of a given-up lineage not marked: %+v", name, s)
		}
	}
	for _, name := range []string{"before", "after"} {
		var o gameResponse
		h.call("POST", "/api/saves/"+name+"/open", "", http.StatusCreated, &o)
		if o.GaveUp || o.Message != givenUpSave {
			t.Fatalf("opened %s: given up %v, message %q", name, o.GaveUp, o.Message)
		}
		h.cmd(o.ID, "move 2 1 1", http.StatusOK)
		if won := h.cmd(o.ID, "remove 1", http.StatusOK); !won.View.Won {
			t.Fatalf("%s: not won: %+v", name, won.View)
		}
		if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 0 {
			t.Fatalf("after winning from save %s: %+v; want the loss kept", name, st)
		}
	}
	// Another lineage is not affected: its save's win replaces its loss.
	o := h.upload(nearWon)
	h.call("PUT", "/api/saves/other", `{"game":"`+o.ID+`"}`, http.StatusOK, nil)
	h.cmd(o.ID, "move 2 1 1", http.StatusOK)
	var p gameResponse
	h.call("POST", "/api/saves/other/open?previous="+o.ID, "", http.StatusCreated, &p)
	if p.Message != "" || h.saveList()["other"].GaveUp {
		t.Fatalf("another lineage marked given up: %q", p.Message)
	}
	h.cmd(p.ID, "move 2 1 1", http.StatusOK)
	h.cmd(p.ID, "remove 1", http.StatusOK)
	if st := h.statsGroupOf("arachnid", 1); st.Played != 2 || st.Won != 1 {
		t.Fatalf("stats with another lineage won: %+v", st)
	}
}

// TestAnalyseSave: POST /api/saves/{name}/analysis opens the save as a
// new game, given up unless won, and answers with its analysis; the save
// stays, marked.
func TestAnalyseSave(t *testing.T) {
	t.Run("refused", analyseSaveRefused)
	t.Run("in play", analyseSaveInPlay)
	t.Run("over", analyseSaveOver)
}

// analyseSaveRefused: an analysis of a save is refused without an
// analyser, without giveUp for a game in play, on bad input, for no such
// save and for another player's; a refusal changes nothing
// (TestAnalyseSave).
func analyseSaveRefused(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.upload(nearWon)
	h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
	h.analyseSave("s", "", `{"giveUp":true}`, http.StatusNotImplemented)
	h = newHarness(t, Options{Analyze: solverAnalyze})
	r = h.upload(nearWon)
	h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
	n := h.countGames()
	for _, tc := range []struct {
		h          *harness
		name, body string
		want       int
	}{
		{h, "s", "", http.StatusConflict},
		{h, "s", `{"giveUp":false}`, http.StatusConflict},
		{h, "s", `{"giveUp":1}`, http.StatusBadRequest},
		{h, "nope", `{"giveUp":true}`, http.StatusNotFound},
		{h, "%20", `{"giveUp":true}`, http.StatusBadRequest},
		{h.otherPlayer(), "s", `{"giveUp":true}`, http.StatusNotFound},
	} {
		tc.h.analyseSave(tc.name, "", tc.body, tc.want)
	}
	if h.countGames() != n || h.saveList()["s"].GaveUp || h.statsGroupOf("arachnid", 1).Played != 0 {
		t.Fatal("a refused analysis of a save changed something")
	}
}

// analyseSaveInPlay: a save of a game in play, analysed, opens a new game
// given up; the save's lineage is lost, the game left abandoned, and the
// save stays, marked (TestAnalyseSave).
func analyseSaveInPlay(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	r := h.upload(nearWon)
	h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
	left := h.newGame(`{"deal":"3","suits":1}`)
	h.cmd(left.ID, "deal", http.StatusOK)
	a := h.analyseSave("s", "?previous="+left.ID, `{"giveUp":true}`, http.StatusCreated)
	if a.Game.ID == "" || a.Game.ID == r.ID || !a.Game.GaveUp || a.Moves != 0 {
		t.Fatalf("analysis game %+v", a.Game)
	}
	g, err := spider.Load(nearWon)
	if err != nil {
		t.Fatal(err)
	}
	checkLine(t, g, a)
	// The save's lineage lost, the game left abandoned.
	if st := h.statsGroupOf("arachnid", 1); st.Played != 2 || st.Won != 0 {
		t.Fatalf("stats: %+v", st)
	}
	h.cmd(a.Game.ID, "move 2 1 1", http.StatusConflict)
	// The save stays, marked; the original game of the lineage, which
	// the analysis showed the hidden cards of, is given up with it.
	if s, ok := h.saveList()["s"]; !ok || !s.GaveUp {
		t.Fatalf("the save after its analysis: %+v %v", s, ok)
	}
	checkClosed(t, h, r)
	if st := h.statsGroupOf("arachnid", 1); st.Played != 2 || st.Won != 0 {
		t.Fatalf("stats after the analysis: %+v", st)
	}
}

// analyseSaveOver: a won save is analysed without giving it up, a stuck
// one is marked given up, and each lineage counts once (TestAnalyseSave).
func analyseSaveOver(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	won := h.upload(nearWon)
	h.cmd(won.ID, "move 2 1 1", http.StatusOK)
	h.cmd(won.ID, "remove 1", http.StatusOK)
	h.call("PUT", "/api/saves/won", `{"game":"`+won.ID+`"}`, http.StatusOK, nil)
	stuck := h.upload(nearStuck)
	h.cmd(stuck.ID, "move 1 2 1", http.StatusOK)
	h.call("PUT", "/api/saves/stuck", `{"game":"`+stuck.ID+`"}`, http.StatusOK, nil)

	a := h.analyseSave("won", "", "", http.StatusCreated)
	if a.Game.GaveUp || !a.Game.View.Won || a.LastWinnable == nil || *a.LastWinnable != 2 {
		t.Fatalf("analysis of a won save: %+v", a)
	}
	if h.saveList()["won"].GaveUp {
		t.Fatal("a won save marked given up")
	}
	a = h.analyseSave("stuck", "", "", http.StatusCreated)
	if !a.Game.GaveUp || !a.Game.View.Stuck || a.LastWinnable != nil {
		t.Fatalf("analysis of a stuck save: %+v", a)
	}
	if !h.saveList()["stuck"].GaveUp {
		t.Fatal("a stuck save's lineage not marked")
	}
	if st := h.statsGroupOf("arachnid", 1); st.Played != 1 || st.Won != 1 {
		t.Fatalf("won lineage stats: %+v", st)
	}
	if st := h.statsGroupOf("spider", 2); st.Played != 1 || st.Won != 0 {
		t.Fatalf("stuck lineage stats: %+v", st)
	}
}

// TestGivenUpStoredFirst: the mark and the loss are in the database before
// the analysis runs, so before anything is answered; both routes, each on
// a lineage of its own.
func TestGivenUpStoredFirst(t *testing.T) {
	var h *harness
	var checked int
	h = newHarness(t, Options{Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		checked++
		marked := 0
		for _, s := range h.saveList() {
			if s.GaveUp {
				marked++
			}
		}
		if marked != checked {
			t.Errorf("analysis %d runs with %d saves' lineages stored as given up", checked, marked)
		}
		if st := h.statsGroupOf("arachnid", 1); st.Played != checked {
			t.Errorf("analysis %d runs with %d losses stored", checked, st.Played)
		}
		return solverAnalyze(ctx, g)
	}})
	first, second := h.upload(nearWon), h.upload(nearWon)
	h.call("PUT", "/api/saves/first", `{"game":"`+first.ID+`"}`, http.StatusOK, nil)
	h.call("PUT", "/api/saves/second", `{"game":"`+second.ID+`"}`, http.StatusOK, nil)
	h.analyse(first.ID, `{"giveUp":true}`, http.StatusOK)
	stored, err := h.db.Game(context.Background(), h.player(), first.ID)
	if err != nil || !stored.GaveUp {
		t.Fatalf("stored game %+v, %v", stored, err)
	}
	h.analyseSave("second", "", `{"giveUp":true}`, http.StatusCreated)
	if checked != 2 {
		t.Fatalf("the analyser ran %d times, want 2", checked)
	}
}

// checkClosed checks that game r, shown at r.Version in a tab, is now
// given up: read back it says so at a newer version, and every command is
// refused, from a tab behind it (the refusal carries the game, marked) as
// from one up to date.
func checkClosed(tb testing.TB, h *harness, r gameResponse) {
	tb.Helper()
	var got gameResponse
	h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &got)
	if !got.GaveUp || got.Version <= r.Version {
		tb.Fatalf("game %s read back: given up %v at version %d (was %d)", r.ID, got.GaveUp, got.Version, r.Version)
	}
	var behind behindResponse
	h.call("POST", "/api/games/"+r.ID+"/commands", fmt.Sprintf(`{"cmd":"move 2 1 1","version":%d}`, r.Version),
		http.StatusConflict, &behind)
	if !behind.GaveUp || behind.Version != got.Version {
		tb.Fatalf("a stale tab's move: %+v", behind)
	}
	for _, cmd := range []string{"move 2 1 1", "undo", "restart"} {
		var e errorBody
		h.call("POST", "/api/games/"+r.ID+"/commands", fmt.Sprintf(`{"cmd":%q,"version":%d}`, cmd, got.Version),
			http.StatusConflict, &e)
		if e.Error != spidergame.ErrGivenUp.Error() {
			tb.Fatalf("%s: %q", cmd, e.Error)
		}
	}
}

// TestGiveUpClosesLineage: giving a game up, on either route, gives up
// the other games of its lineage the player has open (the lineage's loss
// is final and the hidden cards were shown), in memory as in the store;
// other lineages play on.
func TestGiveUpClosesLineage(t *testing.T) {
	t.Run("game", func(t *testing.T) {
		h := newHarness(t, Options{Analyze: solverAnalyze})
		r := h.upload(nearWon)
		h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
		var o gameResponse
		h.call("POST", "/api/saves/s/open", "", http.StatusCreated, &o)
		other := h.upload(nearWon)
		if !h.cached(o.ID) || !h.cached(r.ID) {
			t.Fatal("the test needs the games in memory")
		}
		h.analyse(r.ID, `{"giveUp":true}`, http.StatusOK)
		checkClosed(t, h, o)
		h.cmd(other.ID, "move 2 1 1", http.StatusOK)
	})
	t.Run("save", func(t *testing.T) {
		h := newHarness(t, Options{Analyze: solverAnalyze})
		r := h.upload(nearWon)
		h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
		var o gameResponse
		h.call("POST", "/api/saves/s/open", "", http.StatusCreated, &o)
		h.analyseSave("s", "", `{"giveUp":true}`, http.StatusCreated)
		checkClosed(t, h, r)
		checkClosed(t, h, o)
		// After the give-up a save still opens and plays, as before.
		var p gameResponse
		h.call("POST", "/api/saves/s/open", "", http.StatusCreated, &p)
		h.cmd(p.ID, "move 2 1 1", http.StatusOK)
	})
}

// TestAnalyseSaveFailed: when the analysis of a save fails after its game
// was opened (given up, the game shown left), the refusal names that game,
// which is stored, given up, and can be analysed again.
func TestAnalyseSaveFailed(t *testing.T) {
	fail := true
	h := newHarness(t, Options{Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		if fail {
			return nil, errors.New("solver fault")
		}
		return solverAnalyze(ctx, g)
	}})
	r := h.upload(nearWon)
	h.call("PUT", "/api/saves/s", `{"game":"`+r.ID+`"}`, http.StatusOK, nil)
	var e struct {
		Error string       `json:"error"`
		Game  gameResponse `json:"game"`
	}
	h.call("POST", "/api/saves/s/analysis", `{"giveUp":true}`, http.StatusInternalServerError, &e)
	if e.Error != "internal error" || e.Game.ID == "" || e.Game.ID == r.ID || !e.Game.GaveUp {
		t.Fatalf("failed analysis answered %+v", e)
	}
	var got gameResponse
	h.call("GET", "/api/games/"+e.Game.ID, "", http.StatusOK, &got)
	if !got.GaveUp || got.Version != e.Game.Version {
		t.Fatalf("the opened game read back: %+v", got)
	}
	fail = false
	if a := h.analyse(e.Game.ID, "", http.StatusOK); a.Game.ID != e.Game.ID || a.LastWinnable == nil {
		t.Fatalf("analysed again: %+v", a)
	}
}
