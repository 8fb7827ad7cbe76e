package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/table"
)

// TestGames: a player's finished games, the latest first, each with the
// seats' names, the totals, the winners and the player's seat; a game in
// play and other players' games are not in it.
func TestGames(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h := newHub(t, st, clk)
	ctx := context.Background()
	first := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1})
	mustJoin(t, first, "a", 0)
	mustJoin(t, first, "b", 1)
	playOut(t, first, map[int]string{0: "a", 1: "b"})
	clk.Advance(time.Minute)
	second := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"random", ""}})
	mustJoin(t, second, "a", 1)
	playOut(t, second, map[int]string{1: "a"})
	playing := mustCreate(t, h, "a", table.Config{Players: 2, Bots: []string{"random", ""}})
	mustJoin(t, playing, "a", 1)

	games, err := h.Games(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].ID != second.ID() || games[1].ID != first.ID() {
		t.Fatalf("a's games: %+v, want the second then the first", games)
	}
	g := games[0]
	if g.Seat != 1 || !slices.Equal(g.Names, []string{"Bot 1 (random)", "name a"}) || g.Target != 1 {
		t.Errorf("the game against the bot: %+v", g)
	}
	best := slices.Max(g.Totals)
	if best < 1 || len(g.Winners) == 0 || g.Totals[g.Winners[0]] != best {
		t.Errorf("totals %v and winners %v: the winner does not have the best total", g.Totals, g.Winners)
	}
	if b, err := h.Games(ctx, "b"); err != nil || len(b) != 1 || b[0].ID != first.ID() || b[0].Seat != 1 {
		t.Errorf("b's games: %+v, %v; want the first, at seat 1", b, err)
	}
	if c, err := h.Games(ctx, "c"); err != nil || len(c) != 0 {
		t.Errorf("c's games: %+v, %v; want none", c, err)
	}
}

// TestNamesAfterRestart: a table's seat names (people by name, bots by
// level) are the live table's, and after a restart, when a finished game
// is no longer in the hub, the stored ones: never "Seat N" for a player.
func TestNamesAfterRestart(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h := newHub(t, st, clk)
	ctx := context.Background()
	g := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}})
	mustJoin(t, g, "a", 0)
	want := []string{"name a", "Bot 2 (random)"}
	if got, err := h.Names(ctx, g.ID()); err != nil || !slices.Equal(got, want) {
		t.Errorf("live table: %q, %v; want %q", got, err, want)
	}
	playOut(t, g, map[int]string{0: "a"})

	again := newHub(t, st, clk) // the server restarted: only open tables come back
	if _, err := again.Table(g.ID()); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the finished table is live after the restart: %v", err)
	}
	if got, err := again.Names(ctx, g.ID()); err != nil || !slices.Equal(got, want) {
		t.Errorf("finished table after a restart: %q, %v; want %q", got, err, want)
	}
	if _, err := again.Names(ctx, "nosuchtable"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("an unknown table: %v, want ErrNotFound", err)
	}
}

// unreadableCount counts what the hub tells its Observer of unreadable
// tables.
type unreadableCount struct{ n atomic.Int64 }

func (*unreadableCount) Acted(time.Duration)              {}
func (*unreadableCount) BotThought(string, time.Duration) {}
func (o *unreadableCount) UnreadableTable()               { o.n.Add(1) }

// TestGamesUnreadableReportedOnce: a finished game whose stored row no
// longer replays (an action the rules refuse) is left out of its
// player's list, and reported once however often the list is read: one
// log line naming the table and why, one count for the metrics. A
// second one is reported too.
func TestGamesUnreadableReportedOnce(t *testing.T) {
	st := newMemStore()
	clk := newFakeClock()
	h := newHub(t, st, clk)
	ctx := context.Background()
	var ids []string
	for range 3 {
		g := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"random", ""}})
		mustJoin(t, g, "a", 1)
		playOut(t, g, map[int]string{1: "a"})
		ids = append(ids, g.ID())
		clk.Advance(time.Minute)
	}
	damage := func(id string) {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.tables[id].Moves[0].Action = "pass" // the opening lead cannot be a pass
	}
	damage(ids[0])

	var mu sync.Mutex
	var logs []string
	seen := &unreadableCount{}
	again := newHub(t, st, clk, func(o *table.Options) {
		o.Observer = seen
		o.Logf = func(f string, a ...any) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprintf(f, a...))
		}
	})
	for range 3 {
		games, err := again.Games(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != 2 || games[0].ID != ids[2] || games[1].ID != ids[1] {
			t.Fatalf("games %+v; want the two that replay", games)
		}
	}
	damage(ids[1])
	if games, err := again.Games(ctx, "a"); err != nil || len(games) != 1 {
		t.Fatalf("games %+v, %v; want the one that replays", games, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 2 || seen.n.Load() != 2 {
		t.Fatalf("logged %q and counted %d; want each unreadable table once", logs, seen.n.Load())
	}
	for i, l := range logs {
		if !strings.HasPrefix(l, "table "+ids[i]+": left out of its players' lists of games: stored table cannot be rebuilt: ") || !strings.Contains(l, "pass") {
			t.Errorf("log %q: want the table's id and why", l)
		}
	}
}
