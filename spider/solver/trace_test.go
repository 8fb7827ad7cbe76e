package solver

import (
	"context"
	"errors"
	"testing"

	"cardtable/spider"
)

func TestTrace(t *testing.T) {
	ctx := context.Background()
	lim := Limits{Nodes: 1_000_000}
	one := spider.Options{Suits: 1}
	four := spider.Options{Suits: 4}
	win := Solve(ctx, layout(t, needSplit, 1), lim)
	if win.Status != Solved {
		t.Fatalf("needSplit: %s", win.Status)
	}
	if len(win.Moves) <= 18 {
		t.Fatalf("needSplit's line has %d moves: too few to tell checkpoints from moves", len(win.Moves))
	}
	deal1, err := spider.NewDeal(1, spider.Arachnid, spider.Rules{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		start *spider.Position
		o     spider.Options
		moves []spider.Move
		want  string
		// last checkpoint's stock and face-down count
		stock, down int
	}{
		// The winning line turns the 17 cards face down on pile 2 one by one
		// and ends won.
		{"winning line", layout(t, needSplit, 1), one, win.Moves, "WWWWWWWWWWWWWWWWWW", 0, 0},
		// 10C leaves pile 6 and turns 6D; then nothing moves.
		{"dead end", layout(t, deadEnd, 4), four, []spider.Move{mustMove(t, "move 6 1 1")}, "L", 0, 5},
		// A row dealt at once from the opening of 1-suit deal 1.
		{"deal", deal1, one, []spider.Move{spider.DealMove}, "|W", 40, 44},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cps, err := Trace(ctx, tc.start, tc.o, tc.moves, lim)
			if err != nil {
				t.Fatal(err)
			}
			if got := TraceString(cps); got != tc.want {
				t.Fatalf("trace %q, want %q", got, tc.want)
			}
			last := cps[len(cps)-1]
			if last.Move != len(tc.moves)-1 || last.Stock != tc.stock || last.Down != tc.down {
				t.Errorf("last checkpoint %+v, want move %d, stock %d, down %d", last, len(tc.moves)-1, tc.stock, tc.down)
			}
			for i := 1; i < len(cps); i++ {
				if cps[i].Move <= cps[i-1].Move || cps[i].Down > cps[i-1].Down {
					t.Errorf("checkpoints %d and %d out of order: %+v %+v", i-1, i, cps[i-1], cps[i])
				}
			}
		})
	}
}

func TestTraceRefusesBadMove(t *testing.T) {
	ctx := context.Background()
	moves := []spider.Move{mustMove(t, "move 6 1 1"), mustMove(t, "move 6 1 1")}
	cps, err := Trace(ctx, layout(t, deadEnd, 4), spider.Options{Suits: 4}, moves, Limits{Nodes: 10_000})
	if err == nil || len(cps) != 1 {
		t.Fatalf("an illegal second move: %d checkpoints, error %v; want 1 and an error", len(cps), err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Trace(cancelled, layout(t, deadEnd, 4), spider.Options{Suits: 4}, moves[:1], Limits{Nodes: 10_000}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestTraceString(t *testing.T) {
	cps := []Checkpoint{{Status: Solved}, {Deal: true, Status: Solved}, {Status: Unknown}, {Deal: true, Status: Unsolvable}}
	if got := TraceString(cps); got != "W|W?|L" {
		t.Fatalf("%q", got)
	}
	if got := TraceString(nil); got != "" {
		t.Fatalf("empty trace %q", got)
	}
}

func mustMove(tb testing.TB, s string) spider.Move {
	tb.Helper()
	m, err := spider.ParseMove(s)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
