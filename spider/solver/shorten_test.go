package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cardtable/spider"
)

// foundLine is the line the search finds for a deal, before shortening.
func foundLine(tb testing.TB, n uint64, v spider.Variant, suits int) (*spider.Position, []spider.Move) {
	tb.Helper()
	p, err := spider.NewDeal(n, v, spider.Rules{Suits: suits})
	if err != nil {
		tb.Fatal(err)
	}
	r := solve(context.Background(), p, Limits{Nodes: 20_000_000})
	if r.Status != Solved {
		tb.Fatalf("deal %d: %s after %d nodes", n, r.Status, r.Nodes)
	}
	return p, r.Moves
}

// TestShortenCutsFoundLines shortens the lines the search finds (without
// Solve's preference for short lines): each still wins, none grows, and
// together they lose a good part of their moves.
func TestShortenCutsFoundLines(t *testing.T) {
	var before, after int
	for _, c := range []struct {
		v     spider.Variant
		suits int
		deal  uint64
	}{
		// Deals the search solves in under 100 000 nodes, for speed.
		{spider.Spider, 1, 4}, {spider.Spider, 1, 5}, {spider.Arachnid, 1, 2},
		{spider.Arachnid, 1, 4}, {spider.Arachnid, 2, 4},
	} {
		t.Run(fmt.Sprintf("%s/%d-suit/deal%d", c.v, c.suits, c.deal), func(t *testing.T) {
			p, line := foundLine(t, c.deal, c.v, c.suits)
			short := Shorten(p, line)
			replay(t, p, short)
			if len(short) > len(line) {
				t.Fatalf("shortened to %d moves from %d", len(short), len(line))
			}
			before += len(line)
			after += len(short)
		})
	}
	// The search's lines carry many detours (docs/solver.md): a pass that
	// cut next to nothing would be broken.
	if after*10 > before*9 {
		t.Errorf("shortened %d moves to %d, want at least a tenth cut", before, after)
	}
}

// undoable reports whether m moves a run off a face-up card it fits on,
// so that moving it straight back is legal and changes nothing else.
func undoable(p *spider.Position, m spider.Move) bool {
	if m.Kind != spider.MoveCards || p.Null(m) {
		return false
	}
	f, n := int(m.From), int(m.Count)
	top := p.Len(f) - n
	if top <= p.Down(f) {
		return false // turns a card or empties the pile
	}
	return p.Card(f, top-1).Rank() == p.Card(f, top).Rank()+1
}

// TestShortenCutsDetours adds detours to a shortened line, a run moved
// away and straight back, and checks that shortening takes them out again.
func TestShortenCutsDetours(t *testing.T) {
	for _, suits := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d-suit", suits), func(t *testing.T) {
			p, line := foundLine(t, 4, spider.Arachnid, suits)
			short := Shorten(p, line)
			var long []spider.Move
			q := *p
			added := 0
			var buf [256]spider.Move
			for i, m := range short {
				// Not while a complete run stands: Shorten removes it
				// at once, as the search does.
				if i%7 == 3 && m.Kind != spider.Remove {
					for _, d := range q.Legal(buf[:0]) {
						if !undoable(&q, d) {
							continue
						}
						back := spider.Cards(int(d.To), int(d.From), int(d.Count))
						u := q.Do(d)
						if q.CheckMove(back) == nil && q.CheckMove(spider.RemoveFrom(int(d.To))) != nil {
							q.Do(back)
							long = append(long, d, back)
							added += 2
							break
						}
						q.Undo(d, u)
					}
				}
				if _, err := q.Play(m); err != nil {
					t.Fatalf("move %d %s: %v", i+1, m, err)
				}
				long = append(long, m)
			}
			if added == 0 {
				t.Fatal("no detour fits the line")
			}
			replay(t, p, long)
			again := Shorten(p, long)
			replay(t, p, again)
			if len(again) > len(short) {
				t.Errorf("%d moves with %d of detours shortened to %d, want at most %d", len(long), added, len(again), len(short))
			}
		})
	}
}

// TestShortenLeavesOtherLines: a line that does not win, or does not
// replay, comes back as it was.
func TestShortenLeavesOtherLines(t *testing.T) {
	p, line := foundLine(t, 1, spider.Spider, 1)
	bad := slices.Clone(line)
	bad[5] = spider.Cards(0, 0, 1)
	for name, l := range map[string][]spider.Move{
		"short of the win": line[:len(line)-1],
		"illegal move":     bad,
		"empty":            nil,
	} {
		t.Run(name, func(t *testing.T) {
			got := Shorten(p, l)
			if !slices.Equal(got, l) {
				t.Fatalf("got %d moves, want the %d given", len(got), len(l))
			}
		})
	}
}

// TestSolveShortens: Solve's line wins, is no longer than the line its
// search found (Result.Found), and is shorter than the line of the search
// without the preference for short lines.
func TestSolveShortens(t *testing.T) {
	p, err := spider.NewDeal(3, spider.Spider, spider.Rules{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := Solve(context.Background(), p, Limits{Nodes: 20_000_000})
	if r.Status != Solved {
		t.Fatalf("%s", r.Status)
	}
	replay(t, p, r.Moves)
	_, found := foundLine(t, 3, spider.Spider, 1)
	if len(r.Moves) > r.Found || len(r.Moves) >= len(found) {
		t.Fatalf("Solve: %d moves, found %d; the search without the preference finds %d", len(r.Moves), r.Found, len(found))
	}
}

// TestLastStageShortensEndgames searches small endgames (two suits left,
// the stock empty) again for shorter wins: every line it returns wins and
// is no longer than the one it was given, and some are shorter.
func TestLastStageShortensEndgames(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var solved, shorter int
	for i := range 30 {
		p := layout(t, randomSmall(r), 4)
		res := solve(context.Background(), p, Limits{Nodes: 1_000_000})
		if res.Status != Solved {
			continue
		}
		solved++
		got := lastStage(p, res.Moves, 20_000)
		replay(t, p, got)
		if len(got) > len(res.Moves) {
			t.Fatalf("position %d: %d moves became %d", i, len(res.Moves), len(got))
		}
		if len(got) < len(res.Moves) {
			shorter++
		}
	}
	t.Logf("%d solved, %d shortened", solved, shorter)
	if shorter == 0 {
		t.Errorf("none of %d endgames shortened", solved)
	}
}
