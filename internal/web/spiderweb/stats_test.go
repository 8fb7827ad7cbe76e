package spiderweb

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/spider"
)

// TestStatistics: a game counts once, when it ends: won, out of moves,
// left after play (abandoned), its lineage once; the figures survive a
// restart of the server.
func TestStatistics(t *testing.T) {
	h := newHarness(t, Options{})
	t.Run("win", func(t *testing.T) { statsWin(t, h.as(t)) })
	t.Run("no moves left", func(t *testing.T) { statsNoMovesLeft(t, h.as(t)) })
	t.Run("abandoned", func(t *testing.T) { statsAbandoned(t, h.as(t)) })
	t.Run("abandoned after taking back", func(t *testing.T) { statsTakenBack(t, h.as(t)) })
	t.Run("abandoned after loading", func(t *testing.T) { statsLoaded(t, h.as(t)) })
	t.Run("a lineage counts once", func(t *testing.T) { statsLineage(t, h.as(t)) })
	h.restart()
	if g := h.statsGroupOf("arachnid", 1); g.Played != 1 || g.Won != 1 || g.WinRate != 1 {
		t.Fatalf("stats after restart: %+v", g)
	}
}

func statsWin(t *testing.T, h *harness) {
	var r gameResponse
	h.call("POST", "/api/games/load", nearWon, 201, &r)
	if g := h.statsGroupOf("arachnid", 1); g.Played != 0 {
		t.Fatalf("counted before the end: %+v", g)
	}
	got := h.cmd(r.ID, "move 2 1 1", 200)
	if !got.View.Won {
		t.Fatal("not won")
	}
	g := h.statsGroupOf("arachnid", 1)
	if g.Played != 1 || g.Won != 1 || g.CurrentStreak != 1 || g.BestScore != got.View.Score || len(g.History) != 1 {
		t.Fatalf("after a win: %+v", g)
	}
	// Undoing and winning again does not count twice.
	h.cmd(r.ID, "undo", 200)
	h.cmd(r.ID, "move 2 1 1", 200)
	h.cmd(r.ID, "remove 1", 200)
	if g := h.statsGroupOf("arachnid", 1); g.Played != 1 || g.Won != 1 {
		t.Fatalf("won twice: %+v", g)
	}
}

func statsNoMovesLeft(t *testing.T, h *harness) {
	var r gameResponse
	h.call("POST", "/api/games/load", nearStuck, 201, &r)
	got := h.cmd(r.ID, "move 1 2 1", 200)
	if !got.View.Stuck {
		t.Fatalf("not stuck: %+v", got.View)
	}
	g := h.statsGroupOf("spider", 2)
	if g.Played != 1 || g.Won != 0 || g.CurrentStreak != 0 {
		t.Fatalf("after no moves left: %+v", g)
	}
	// Undo, and stuck again: still one game.
	h.cmd(r.ID, "undo", 200)
	h.cmd(r.ID, "move 1 2 1", 200)
	if g := h.statsGroupOf("spider", 2); g.Played != 1 {
		t.Fatalf("counted twice: %+v", g)
	}
}

// spider4 is a 4-suit Spider game of deal n, as a new game's body.
func spider4(n int) string {
	return fmt.Sprintf(`{"deal":"%d","variant":"spider","suits":4}`, n)
}

func statsAbandoned(t *testing.T, h *harness) {
	a := h.newGame(spider4(617))
	// Leaving a game with no move played does not count.
	b := h.newGame(spider4(618))
	h.call("POST", "/api/games?previous="+a.ID, spider4(619), 201, nil)
	if g := h.statsGroupOf("spider", 4); g.Played != 0 {
		t.Fatalf("untouched game counted: %+v", g)
	}
	h.cmd(b.ID, "deal", 200)
	h.call("POST", "/api/games?previous="+b.ID, spider4(620), 201, nil)
	if g := h.statsGroupOf("spider", 4); g.Played != 1 || g.Won != 0 {
		t.Fatalf("abandoned game: %+v", g)
	}
	// A restart before any move changes nothing, so leaving after it
	// counts nothing either.
	c := h.newGame(spider4(621))
	if r := h.cmd(c.ID, "restart", 200); r.Version != c.Version {
		t.Errorf("a restart before any move moved the version %d to %d; a second tab would be refused", c.Version, r.Version)
	}
	h.call("POST", "/api/games?previous="+c.ID, spider4(622), 201, nil)
	if g := h.statsGroupOf("spider", 4); g.Played != 1 {
		t.Fatalf("left after a restart before any move: %+v, want 1 played", g)
	}
	// An unknown previous game is ignored.
	h.call("POST", "/api/games?previous=NOPE", `{}`, 201, nil)
}

// statsTakenBack: a game played and then restarted, or with every move
// undone, was still played: leaving it is a loss, or a restart before
// leaving would escape every loss. Each case counts on its own.
func statsTakenBack(t *testing.T, h *harness) {
	for _, back := range []string{"restart", "undo"} {
		before := h.statsGroupOf("spider", 4).Played
		c := h.newGame(spider4(623))
		h.cmd(c.ID, "deal", 200)
		h.cmd(c.ID, back, 200)
		h.call("POST", "/api/games?previous="+c.ID, spider4(624), 201, nil)
		if g := h.statsGroupOf("spider", 4); g.Played != before+1 || g.Won != 0 {
			t.Errorf("left after a move and %s: %+v, want %d played", back, g, before+1)
		}
	}
}

// statsLoaded: a loaded game counts once a move, undo or restart is made
// in it; the moves and the action count its file brings are the file's
// history, not this game's. The same position with or without the
// optional "actions:" line counts alike.
func statsLoaded(t *testing.T, h *harness) {
	g, err := spider.NewGame(625, spider.Options{Variant: spider.Spider, Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(spider.DealMove); err != nil {
		t.Fatal(err)
	}
	// Save writes "actions:" only when the count is not the moves played.
	without := g.Save()
	withActions := strings.Replace(without, "position: 1\n", "actions: 7\nposition: 1\n", 1)
	if withActions == without {
		t.Fatalf("no place for an actions line in:\n%s", without)
	}
	for _, c := range []struct{ name, save, cmd string }{
		{"with actions, left untouched", withActions, ""},
		{"without actions, left untouched", without, ""},
		{"with actions, a move", withActions, "deal"},
		{"without actions, a move", without, "deal"},
		{"with actions, restarted", withActions, "restart"},
		{"with actions, undone", withActions, "undo"},
	} {
		before := h.statsGroupOf("spider", 1).Played
		var r gameResponse
		h.call("POST", "/api/games/load", c.save, 201, &r)
		want := before
		if c.cmd != "" {
			h.cmd(r.ID, c.cmd, 200)
			want++
		}
		h.call("POST", "/api/games?previous="+r.ID, spider4(626), 201, nil)
		if got := h.statsGroupOf("spider", 1).Played; got != want {
			t.Errorf("%s: %d played, want %d", c.name, got, want)
		}
	}
}

func statsLineage(t *testing.T, h *harness) {
	// Play a move that does not win, save, leave (a loss), open the save
	// and win: one game, won.
	r := h.newGame(`{"deal":"1","suits":2,"variant":"arachnid"}`)
	h.cmd(r.ID, "deal", 200)
	h.call("PUT", "/api/saves/keep", `{"game":"`+r.ID+`"}`, 200, nil)
	h.call("POST", "/api/games?previous="+r.ID, `{"suits":2}`, 201, nil)
	if g := h.statsGroupOf("arachnid", 2); g.Played != 1 || g.Won != 0 {
		t.Fatalf("abandoned: %+v", g)
	}
	var o gameResponse
	h.call("POST", "/api/saves/keep/open", "", 201, &o)
	sv, err := h.s.Games().Saved(context.Background(), h.player(), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Lineage != r.ID {
		t.Fatalf("opened save has lineage %q, want %q", sv.Lineage, r.ID)
	}
	// Winning it is out of reach in a test; record the win as the
	// command path does.
	res := spidergame.Result{Lineage: sv.Lineage, Variant: sv.Variant, Suits: sv.Suits, Won: true,
		Score: sv.Score, At: h.now(), Played: sv.Played}
	if err := h.db.RecordResult(context.Background(), h.player(), res); err != nil {
		t.Fatal(err)
	}
	if g := h.statsGroupOf("arachnid", 2); g.Played != 1 || g.Won != 1 {
		t.Fatalf("lineage: %+v", g)
	}
}
