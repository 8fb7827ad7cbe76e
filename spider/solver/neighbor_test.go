package solver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"cardtable/spider"
)

// moves parses a line in the notation of spider.Move.String, one move a
// field separated by commas.
func moves(tb testing.TB, s string) []spider.Move {
	tb.Helper()
	var out []spider.Move
	for _, f := range strings.Split(s, ",") {
		m, err := spider.ParseMove(strings.TrimSpace(f))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// A 1-suit position with a row in the stock, for a detour before the
// deal. Pile 1 holds the run 5-4 over a face-down queen; 5s lie on pile 2
// and at the foot of pile 6's run, 4s on piles 1 and 4.
const detourLayout = `pile1: |QS 5S 4S
pile2: KS 5S
pile3: JS 10S 9S 8S 7S 6S
pile4: KS 4S
pile5: KS QS JS 10S 9S 8S 7S 6S
pile6: KS QS JS 10S 9S 8S 7S 6S 5S
pile7: QS JS 10S 9S 8S
pile8: 3S 2S AS
pile9: 3S 2S AS
pile10: 3S
row1: 7S 6S 5S 4S 4S 3S 2S 2S AS AS
completed: S S S S
`

// detourLine wins from detourLayout. Its first three moves put the 4 of
// pile 1 on pile 2's 5, the 5 of pile 1 on pile 5's 6 (turning the
// queen) and pile 4's 4 on that 5; two moves reach the same position
// (pile 1's 5-4 onto the 6, pile 4's 4 onto pile 2's 5), but no move can
// be left out: without the first the 5 takes its 4 along and the third
// has nowhere to go, without the second the queen stays face down. The
// rest is the search's line from there (Solve, 26 November).
const detourLine = `move 1 2 1, move 1 5 1, move 4 5 1, deal, move 10 8 1, move 10 5 1,
move 9 7 1, move 9 4 3, move 8 6 2, move 7 5 2, move 5 3 4, move 8 5 3, remove 5,
move 2 1 1, move 6 2 3, move 4 6 4, remove 6, move 7 4 5, move 2 1 5, move 1 4 7,
remove 4, move 3 1 11, move 1 2 12`

// TestNeighborsShortcutBeforeDeal: the pass finds a shorter line where
// cutting moves out (cutLine) and Shorten cannot, the line wins, it stays
// within its budget, and it is the same on every run.
func TestNeighborsShortcutBeforeDeal(t *testing.T) {
	p := layout(t, detourLayout, 1)
	line := moves(t, detourLine)
	replay(t, p, line)
	if cut := cutLine(p, line); len(cut) != len(line) {
		t.Fatalf("cutLine cut %d moves to %d: the test wants a line it cannot cut", len(line), len(cut))
	}
	if short := Shorten(p, line); len(short) != len(line) {
		t.Fatalf("Shorten cut %d moves to %d: the test wants a line it cannot cut", len(line), len(short))
	}
	const limit = 25_000 // measured: the pass finds a shorter line from 20 000
	got, gen := neighbors(context.Background(), time.Time{}, p, line, limit)
	replay(t, p, got)
	if len(got) >= len(line) {
		t.Errorf("%d moves, want fewer than %d", len(got), len(line))
	}
	if gen > limit {
		t.Errorf("%d positions generated, limit %d", gen, limit)
	}
	again, gen2 := neighbors(context.Background(), time.Time{}, p, line, limit)
	if !slices.Equal(got, again) || gen != gen2 {
		t.Errorf("two runs differ: %v (%d) and %v (%d)", got, gen, again, gen2)
	}
}

// An endgame with two spaces, for pile renaming.
const spacesLayout = `pile1: |QS 5S 4S
pile2: 5S
pile3: JS 10S 9S 8S 7S 6S
pile4: 4S
pile5: KS QS JS 10S 9S 8S 7S 6S
pile6: 3S 2S AS
pile7: 3S 2S AS
pile8: KS
pile9:
pile10:
completed: S S S S S S
`

// TestNeighborsRenamesPiles: once the stock is empty the graph has one
// node for positions that differ only by the order of their piles, and
// the line rebuilt through it names the piles of the position it is in.
// The line below moves pile 1's 5 into the second space, pile 10; the
// search from its start puts it into the first one, pile 9, so the rest
// of the line must take its cards from pile 9.
func TestNeighborsRenamesPiles(t *testing.T) {
	p := layout(t, spacesLayout, 1)
	line := moves(t, "move 1 2 1, move 1 10 1, move 4 10 1, move 6 2 3, move 10 5 2, move 7 5 3, remove 5, move 3 1 6, move 2 1 5, move 1 8 12, remove 8")
	replay(t, p, line)

	// rebuild alone: the path of the line's own positions, from a start
	// where the first move goes into pile 9 instead.
	g := &nbGraph{limit: 1, won: -1}
	l := g.addLine(p, line)
	q := *p
	q.Do(moves(t, "move 1 2 1")[0])
	path := append([]int32{g.node(hashPos(&q))}, l.nodes[2:]...)
	got, ok := rebuild(&q, path, g.keys, nil, true)
	if !ok {
		t.Fatal("rebuild found no line")
	}
	replay(t, &q, got)
	if got[0] != moves(t, "move 1 9 1")[0] || got[2] != moves(t, "move 6 2 3")[0] || got[3] != moves(t, "move 9 5 2")[0] {
		t.Errorf("rebuilt %v, want the moves from pile 10 taken from pile 9", got)
	}

	short, _ := neighbors(context.Background(), time.Time{}, p, line, 5_000)
	replay(t, p, short)
	if len(short) >= len(line) {
		t.Errorf("%d moves, want fewer than %d", len(short), len(line))
	}
}

// TestNeighborsBudget: whatever its budget, the pass returns a winning
// line no longer than the one given and generates no more positions than
// allowed; a cancelled context stops it at its first check.
func TestNeighborsBudget(t *testing.T) {
	p := layout(t, detourLayout, 1)
	line := moves(t, detourLine)
	for _, limit := range []int{0, 1, 100, 5_000} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			got, gen := neighbors(context.Background(), time.Time{}, p, line, limit)
			replay(t, p, got)
			if len(got) > len(line) || gen > int64(limit) {
				t.Errorf("%d moves from %d, %d positions", len(got), len(line), gen)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, gen := neighbors(ctx, time.Time{}, p, line, 1_000_000)
	replay(t, p, got)
	if gen > 1024 {
		t.Errorf("cancelled: %d positions", gen)
	}
	// A line that does not win comes back unchanged, at no cost.
	bad := append(slices.Clone(line[:3]), spider.RemoveFrom(0))
	if got, gen := neighbors(context.Background(), time.Time{}, p, bad, 5_000); !slices.Equal(got, bad) || gen != 0 {
		t.Errorf("a line that does not win: %v after %d positions", got, gen)
	}
}

// TestShorterNeighborsWithinNodeLimit: in Solve's further searches the
// pass spends only what a node limit leaves (the searches before it leave
// it its share), and shortens the line when it has room. The position is
// small, so the pass is made to run at 1 suit.
func TestShorterNeighborsWithinNodeLimit(t *testing.T) {
	defer func(s int) { nbSuits = s }(nbSuits)
	nbSuits = 1
	p := layout(t, detourLayout, 1)
	line := moves(t, detourLine)
	const nodes = 10_000 // as if the first search had taken that many
	for _, room := range []int64{0, 500, 5_000, 30_000} {
		t.Run(fmt.Sprint(room), func(t *testing.T) {
			got, spent := shorter(context.Background(), p, Limits{Nodes: nodes + room}, time.Now(), line, nodes)
			replay(t, p, got)
			if spent > room {
				t.Errorf("%d nodes spent, %d left by the limit", spent, room)
			}
			if len(got) > len(line) || room >= 30_000 && len(got) >= len(line) {
				t.Errorf("%d moves from %d", len(got), len(line))
			}
		})
	}
}

// TestNeighborsMovedKey: the key the pass computes from two piles after a
// card move is the position's hashPos, before and after the last deal.
func TestNeighborsMovedKey(t *testing.T) {
	deal, err := spider.NewDeal(3, spider.Spider, spider.Rules{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    *spider.Position
	}{
		{"stock", layout(t, detourLayout, 1)},
		{"spaces", layout(t, spacesLayout, 1)},
		{"deal", deal},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			var terms [spider.Piles]uint64
			var sum uint64
			for k := range spider.Piles {
				terms[k] = pileTerm(p, k)
				sum += terms[k]
			}
			n := 0
			for _, m := range p.Legal(nil) {
				if m.Kind != spider.MoveCards {
					continue
				}
				q := *p
				q.Do(m)
				if got, want := movedKey(&q, &terms, sum, int(m.From), int(m.To)), hashPos(&q); got != want {
					t.Errorf("%s: key %x, hashPos %x", m, got, want)
				}
				n++
			}
			if n == 0 {
				t.Error("no card move tried")
			}
		})
	}
}
