package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"cardtable/card"
	"cardtable/spider"
)

// permuteHidden returns p with its face-down cards and stock shuffled among
// themselves: a position the player cannot tell from p.
func permuteHidden(tb testing.TB, p *spider.Position, seed uint64) spider.Position {
	tb.Helper()
	var all []card.Card
	for k := range spider.Piles {
		all = append(all, p.Cards(nil, k)[:p.Down(k)]...)
	}
	all = append(all, p.Stock(nil)...)
	r := rand.New(rand.NewPCG(seed, 99))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var hidden [spider.Piles][]card.Card
	for k := range spider.Piles {
		hidden[k], all = all[:p.Down(k)], all[p.Down(k):]
	}
	q, err := p.WithHidden(&hidden, all)
	if err != nil {
		tb.Fatal(err)
	}
	if q.Equal(p) {
		tb.Fatal("permuting the hidden cards changed nothing")
	}
	return q
}

func TestScrambleSeesOnlyVisible(t *testing.T) {
	for _, suits := range []int{1, 2, 4} {
		for _, open := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d-suit open=%v", suits, open), func(t *testing.T) {
				p, _ := spider.NewDeal(42, spider.Spider, spider.Rules{Suits: suits})
				q := permuteHidden(t, p, 1)
				if open {
					q = *p // in the open variant the face-down cards are seen: only the stock differs
					st := q.Stock(nil)
					st[0], st[len(st)-1] = st[len(st)-1], st[0]
					var hidden [spider.Piles][]card.Card
					for k := range spider.Piles {
						hidden[k] = p.Cards(nil, k)[:p.Down(k)]
					}
					q, _ = p.WithHidden(&hidden, st)
				}
				a, err := scramble(p, open, rand.New(rand.NewPCG(5, 6)))
				if err != nil {
					t.Fatal(err)
				}
				b, err := scramble(&q, open, rand.New(rand.NewPCG(5, 6)))
				if err != nil {
					t.Fatal(err)
				}
				if !a.Equal(&b) {
					t.Fatal("scrambled views differ: they depend on unseen cards")
				}
				if err := a.Check(); err != nil {
					t.Fatalf("scrambled view is not a full deck: %v", err)
				}
				if visibleHash(&a, open) != visibleHash(p, open) {
					t.Fatal("the view does not look like the position")
				}
				if a.Equal(p) {
					t.Fatal("the view kept the real hidden cards")
				}
			})
		}
	}
}

// fairConfigs are the fair player's four ways of deciding: without the
// judge or rollouts, with rollouts alone (hints), with the judge, and with
// both (autoplay).
var fairConfigs = []struct {
	judge    int64
	rollouts bool
}{{0, false}, {0, true}, {2000, false}, {2000, true}}

// longSkip is what a long test says under -short. Past the skip, every
// long test but TestLongWideBeamSolvesWhatStagedMisses calls t.Parallel:
// they search within node limits, never a time limit, and set no package
// state, so make test-long keeps both cores busy with them. That one sets
// wideStart and stays sequential; Go ends every sequential test before it
// resumes the parallel ones.
const longSkip = "long: make test-long runs it"

// TestHintIgnoresHiddenCards: deal 1 in the short suite, deals 1-3 in
// TestLongHintIgnoresHiddenCards.
func TestHintIgnoresHiddenCards(t *testing.T) { hintIgnoresHiddenCards(t, 1) }

func TestLongHintIgnoresHiddenCards(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	hintIgnoresHiddenCards(t, 1, 2, 3)
}

func hintIgnoresHiddenCards(t *testing.T, deals ...uint64) {
	for _, fc := range fairConfigs {
		o := FairOptions{Samples: 3, Nodes: 4000, JudgeNodes: fc.judge, Rollouts: fc.rollouts}
		for _, n := range deals {
			t.Run(fmt.Sprintf("deal %d judge %d rollouts %v", n, fc.judge, fc.rollouts), func(t *testing.T) {
				p, _ := spider.NewDeal(n, spider.Arachnid, spider.Rules{Suits: 2})
				a := sameHint(t, p, permuteHidden(t, p, n), o)
				if err := p.CheckMove(a); err != nil {
					t.Fatalf("hint %s is illegal: %v", a, err)
				}
			})
		}
	}
}

func TestHintKnownPositions(t *testing.T) {
	g, err := spider.NewGameAt(layout(t, oneMove, 1), spider.Options{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Hint(context.Background(), g)
	if err != nil || m.String() != "move 2 1 1" {
		t.Fatalf("hint %v, %v; want move 2 1 1", m, err)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	if _, err := Hint(context.Background(), g); !errors.Is(err, ErrNoMove) {
		t.Fatalf("hint on a won game: %v, want ErrNoMove", err)
	}
	dead, _ := spider.NewGameAt(layout(t, deadEnd, 4), spider.Options{Suits: 4})
	if err := dead.Play(spider.Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := Hint(context.Background(), dead); !errors.Is(err, ErrNoMove) {
		t.Fatalf("hint on a stuck game: %v, want ErrNoMove", err)
	}
}

// TestAutoplayIgnoresHiddenCards plays the same deal with the unseen cards
// arranged two ways: until the first card is turned up the player sees the
// same thing, so it must play the same moves. The short suite tries
// autoplay's player (judge and rollouts); the long one all four.
func TestAutoplayIgnoresHiddenCards(t *testing.T) {
	autoplayIgnoresHiddenCards(t, fairConfigs[3])
}

func TestLongAutoplayIgnoresHiddenCards(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	autoplayIgnoresHiddenCards(t, fairConfigs...)
}

func autoplayIgnoresHiddenCards(t *testing.T, configs ...struct {
	judge    int64
	rollouts bool
}) {
	for _, fc := range configs {
		t.Run(fmt.Sprintf("judge %d rollouts %v", fc.judge, fc.rollouts), func(t *testing.T) {
			o := FairOptions{Samples: 2, Nodes: 3000, JudgeNodes: fc.judge, Rollouts: fc.rollouts, MaxMoves: 25}
			p, _ := spider.NewDeal(7, spider.Arachnid, spider.Rules{Suits: 4})
			q := permuteHidden(t, p, 3)
			play := func(pos *spider.Position) []spider.Move {
				g, err := spider.NewGameAt(pos, spider.Options{Suits: 4})
				if err != nil {
					t.Fatal(err)
				}
				_, moves, err := Autoplay(context.Background(), g, o)
				if err != nil {
					t.Fatal(err)
				}
				return moves
			}
			a, b := play(p), play(&q)
			// The common prefix runs to the first move that turns a card or deals.
			r := *p
			same := 0
			for _, m := range a {
				same++
				if m.Kind == spider.Deal {
					break
				}
				if u, _ := r.Play(m); u.Flipped() {
					break
				}
			}
			if same == 0 || len(b) < same {
				t.Fatalf("games too short to compare: %d and %d moves", len(a), len(b))
			}
			if fmt.Sprint(a[:same]) != fmt.Sprint(b[:same]) {
				t.Fatalf("the player saw the same and played differently:\n%v\n%v", a[:same], b[:same])
			}
		})
	}
}

// TestAutoplayGetsOnlyViews checks the structure: the decision function is
// handed positions whose hidden cards are not the real ones.
func TestAutoplayGetsOnlyViews(t *testing.T) {
	g, _ := spider.NewGame(11, spider.Options{Suits: 4})
	calls := 0
	dec := func(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error) {
		calls++
		real := g.Position()
		if view.Equal(&real) {
			t.Fatal("the player was handed the real position")
		}
		if visibleHash(view, false) != visibleHash(&real, false) {
			t.Fatal("the view does not show what the player sees")
		}
		return plan(ctx, view, open, o, rng)
	}
	if _, _, err := autoplay(context.Background(), g, FairOptions{Samples: 1, Nodes: 500, MaxMoves: 10}, dec); err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("the player was never asked")
	}
}

// TestLongAutoplayReplaysAndWins plays whole deals to a win with each
// player and replays the moves. The short suite's version is
// TestAutoplayKnownPositions (small positions, the same checks).
func TestLongAutoplayReplaysAndWins(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	tests := []struct {
		deal     uint64
		judge    int64
		rollouts bool
		endgame  int // EndgameWorlds
	}{{2, 0, false, 0}, {2, 0, true, 0}, {6, 5000, false, 0}, {6, 5000, true, 0}, {6, 5000, true, 8}}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("deal %d judge %d rollouts %v endgame %d", tc.deal, tc.judge, tc.rollouts, tc.endgame), func(t *testing.T) {
			g, _ := spider.NewGame(tc.deal, spider.Options{Suits: 1})
			won, moves, err := Autoplay(context.Background(), g, FairOptions{Samples: 4, Nodes: 30_000, JudgeNodes: tc.judge, Rollouts: tc.rollouts, EndgameWorlds: tc.endgame})
			if err != nil {
				t.Fatal(err)
			}
			if !won {
				t.Fatalf("lost 1-suit deal %d after %d moves", tc.deal, len(moves))
			}
			h, _ := spider.NewGame(tc.deal, spider.Options{Suits: 1})
			for i, m := range moves {
				if err := h.Play(m); err != nil {
					t.Fatalf("move %d %s: %v", i+1, m, err)
				}
			}
			if !h.Won() {
				t.Fatal("the moves do not replay to a win")
			}
		})
	}
}

func TestAutoplayCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _ := spider.NewGame(1, spider.Options{Suits: 4})
	if _, _, err := Autoplay(ctx, g, AutoplayOptions); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

// BenchmarkHint times hints with HintOptions on deal 1: the opening,
// and (mid) positions every 20 moves of a game played there, which is
// where most hints are asked for; s/hint is their mean.
func BenchmarkHint(b *testing.B) {
	for _, suits := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("%dsuit", suits), func(b *testing.B) {
			g, _ := spider.NewGame(1, spider.Options{Suits: suits})
			for b.Loop() {
				if _, err := Hint(context.Background(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%dsuit/mid", suits), func(b *testing.B) {
			ps := hintPositions(b, suits)
			if len(ps) == 0 {
				b.Fatal("the game ended before its 20th move: no positions to time")
			}
			for b.Loop() {
				for _, p := range ps {
					if _, err := HintWith(context.Background(), p, false, HintOptions); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*len(ps)), "s/hint")
		})
	}
}

// hintPositions are the positions every 20 moves (from the 20th) of a
// game a small fair player plays on deal 1, while it is not over. The
// player is fixed here so that changing HintOptions does not change the
// positions timed.
func hintPositions(tb testing.TB, suits int) []*spider.Position {
	tb.Helper()
	g, _ := spider.NewGame(1, spider.Options{Suits: suits})
	_, moves, err := Autoplay(context.Background(), g, FairOptions{Samples: 6, Nodes: 30_000})
	if err != nil {
		tb.Fatal(err)
	}
	h, _ := spider.NewGame(1, spider.Options{Suits: suits})
	var ps []*spider.Position
	for i, m := range moves {
		if err := h.Play(m); err != nil {
			tb.Fatal(err)
		}
		if (i+1)%20 == 0 && i+1 < len(moves) {
			p := h.Position()
			ps = append(ps, &p)
		}
	}
	return ps
}

// TestAutoplayKnownPositions plays constructed positions with cards face
// down: the fair player must find the win that needs a split run or a
// space without seeing what lies below, and must give up on a position
// where every line jams rather than circle until MaxMoves.
func TestAutoplayKnownPositions(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		suits  int
		won    bool
		before int // the game must end within this many moves
	}{
		{"needs a split run", needSplit, 1, true, 200},
		{"needs a space", needSpace, 1, true, 50},
		{"jams", jams, 4, false, 100},
		{"dead end", deadEnd, 4, false, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := layout(t, tt.text, tt.suits)
			if p.FaceDown() == 0 {
				t.Fatal("the position has nothing face down: it does not test fair play")
			}
			g, err := spider.NewGameAt(p, spider.Options{Suits: tt.suits})
			if err != nil {
				t.Fatal(err)
			}
			won, moves, err := Autoplay(context.Background(), g, FairOptions{Samples: 4, Nodes: 50_000})
			if err != nil {
				t.Fatal(err)
			}
			if won != tt.won || len(moves) >= tt.before {
				t.Fatalf("won=%v after %d moves, want won=%v within %d moves: %v", won, len(moves), tt.won, tt.before, moves)
			}
			if tt.won {
				replay(t, p, moves)
			}
		})
	}
}

// TestUntilEvent cuts solver lines after their first move that turns a
// card or deals, and scores the position before that move.
func TestUntilEvent(t *testing.T) {
	for _, suits := range []int{1, 2} {
		t.Run(fmt.Sprint(suits), func(t *testing.T) {
			p, _ := spider.NewDeal(3, spider.Arachnid, spider.Rules{Suits: suits})
			r := Solve(context.Background(), p, Limits{Nodes: 2_000_000})
			if r.Status != Solved {
				t.Fatalf("deal 3 at %d suits: %s", suits, r.Status)
			}
			line, ev := untilEvent(p, r.Moves)
			if len(line) == 0 || len(line) >= len(r.Moves) {
				t.Fatalf("cut %d of %d moves", len(line), len(r.Moves))
			}
			q := *p
			for i, m := range line {
				last := i == len(line)-1
				if last && ev != fairEval(&q) {
					t.Fatalf("evaluation %d, want %d before the event", ev, fairEval(&q))
				}
				u, err := q.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				if event := u.Flipped() || m.Kind == spider.Deal; event != last {
					t.Fatalf("move %d %s: event=%v, last=%v", i+1, m, event, last)
				}
			}
		})
	}
}

// TestAutoplayDeterministic: the same game, options and seed give the same
// play (3 moves in the short suite, 12 in TestLongAutoplayDeterministic).
func TestAutoplayDeterministic(t *testing.T) { autoplayDeterministic(t, 3) }

func TestLongAutoplayDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	autoplayDeterministic(t, 12)
}

func autoplayDeterministic(t *testing.T, n int) {
	run := func() string {
		g, _ := spider.NewGame(6, spider.Options{Suits: 1})
		_, moves, err := Autoplay(context.Background(), g, FairOptions{Samples: 2, Nodes: 30_000, JudgeNodes: 3000, Rollouts: true, MaxMoves: n, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) < n {
			t.Fatalf("only %d moves played", len(moves))
		}
		return fmt.Sprint(moves)
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("same seed, different play:\n%s\n%s", a, b)
	}
}

// TestJudgeLine: the judge's line is legal, and only its last move learns
// something (turns a card or deals) or wins, on openings and on positions
// later in a game. The short suite judges 2 steps of deal 1 at 1 and 4
// suits; TestLongJudgeLine 6 steps of deals 1 and 5 at 1, 2 and 4 suits.
func TestJudgeLine(t *testing.T) { judgeLine(t, 2, []int{1, 4}, 1) }

func TestLongJudgeLine(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	judgeLine(t, 6, []int{1, 2, 4}, 1, 5)
}

func judgeLine(t *testing.T, steps int, suitCounts []int, deals ...uint64) {
	o := FairOptions{Samples: 3, Nodes: 20_000, JudgeNodes: 3000}
	for _, suits := range suitCounts {
		for _, n := range deals {
			t.Run(fmt.Sprintf("%d-suit deal %d", suits, n), func(t *testing.T) {
				g, _ := spider.NewGame(n, spider.Options{Suits: suits})
				rng := rand.New(rand.NewPCG(n, uint64(suits)))
				for step := 0; step < steps && !g.Won(); step++ {
					view, err := scramble(g.Pos(), false, rng)
					if err != nil {
						t.Fatal(err)
					}
					line, err := judgePlan(context.Background(), &view, false, o, o.Samples, rng)
					if errors.Is(err, ErrNoMove) {
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if len(line) == 0 {
						t.Fatal("empty line")
					}
					for i, m := range line {
						q := g.Position()
						u, err := q.Play(m)
						if err != nil {
							t.Fatalf("step %d move %d %s: %v", step, i+1, m, err)
						}
						if err := g.Play(m); err != nil {
							t.Fatal(err)
						}
						event := u.Flipped() || m.Kind == spider.Deal || g.Won()
						if last := i == len(line)-1; event != last {
							t.Fatalf("step %d move %d %s: event=%v, last=%v", step, i+1, m, event, last)
						}
					}
				}
			})
		}
	}
}

// TestJudgeBoundSameChoice: the judge's bound skips worlds but never
// changes the choice from judging every candidate in every world. Random
// candidates (votes, evaluations, deals) and random wins stand in for the
// solver, so that many cases where the wins decide are checked.
func TestJudgeBoundSameChoice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var calls, full int
	for trial := range 2000 {
		n := 1 + rng.IntN(8)
		k := 2 + rng.IntN(11)
		var cut, all candidates
		wins := map[string][]bool{}
		for i := range k {
			line := []spider.Move{spider.Cards(i%10, (i+1)%10, 1+i)} // a unique key
			if rng.IntN(4) == 0 {
				line = append(line, spider.DealMove)
			}
			eval, votes := int32(rng.IntN(600)-300), rng.IntN(n+1)
			cut.add(line, eval, votes)
			all.add(line, eval, votes)
			p := rng.Float64()
			w := make([]bool, n)
			for j := range w {
				w[j] = rng.Float64() < p
			}
			wins[fmt.Sprint(line)] = w
		}
		for _, c := range all.list {
			for _, w := range wins[c.key] {
				if w {
					c.wins++
				}
				full++
			}
		}
		got := cut.judge(n, func(c *candidate, wi int) bool {
			calls++
			return wins[c.key][wi]
		})
		if want := all.best(); got.key != want.key {
			t.Fatalf("trial %d: judged %s (score %d), want %s (score %d)", trial, got.key, got.score(), want.key, want.score())
		}
	}
	if calls >= full {
		t.Fatalf("the bound skipped nothing: %d of %d solves", calls, full)
	}
	t.Logf("%d of %d solves", calls, full)
}

func TestFairRollout(t *testing.T) {
	// deadEnd's only move turns the 6D under 10C; then nothing moves.
	dead := layout(t, deadEnd, 4)
	turned := *dead
	if err := turned.CheckMove(spider.Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	turned.Do(spider.Cards(5, 0, 1))
	tests := []struct {
		name string
		p    *spider.Position
		want int64
	}{
		{"a win in one move", layout(t, oneMove, 1), rolloutWin},
		// The win turns seventeen cards one at a time through a space.
		{"a win through many cards turned", layout(t, needSplit, 1), rolloutWin},
		{"one card to turn, then stuck", dead, int64(max(fairEval(dead), fairEval(&turned)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c closer
			if got := fairRollout(&c, tt.p); got != tt.want {
				t.Fatalf("fairRollout = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestJudgeBudget(t *testing.T) {
	auto := AutoplayOptions
	tests := []struct {
		name      string
		o         FairOptions
		stock     int
		worlds    int
		nodes     int64
		winWeight int64
	}{
		{"stock left", auto, 10, 8, 25_000, 2 * voteWeight},
		{"stock empty", auto, 0, 24, 100_000, endgameWinWeight},
		{"endgame options unset", FairOptions{Samples: 8, JudgeNodes: 25_000}, 0, 8, 25_000, 2 * voteWeight},
		{"endgame nodes only", FairOptions{Samples: 8, JudgeNodes: 25_000, EndgameNodes: 50_000}, 0, 8, 50_000, endgameWinWeight},
		{"fewer endgame worlds than samples", FairOptions{Samples: 8, JudgeNodes: 25_000, EndgameWorlds: 4}, 0, 8, 25_000, endgameWinWeight},
		{"no judge", HintOptions, 0, 6, 0, 2 * voteWeight},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, n, ww := tc.o.judgeBudget(tc.stock, tc.o.Samples)
			if w != tc.worlds || n != tc.nodes || ww != tc.winWeight {
				t.Fatalf("judgeBudget(%d) = %d worlds, %d nodes, win weight %d; want %d, %d, %d", tc.stock, w, n, ww, tc.worlds, tc.nodes, tc.winWeight)
			}
		})
	}
}

// TestEndgameWinsOutweighRollouts: with the stock empty a line that still
// wins in more sampled worlds beats one whose rollouts look better; with
// stock left the rollout value can still carry it.
func TestEndgameWinsOutweighRollouts(t *testing.T) {
	for _, tc := range []struct {
		winWeight int64
		want      string
	}{{2 * voteWeight, "tidy"}, {endgameWinWeight, "safe"}} {
		cs := candidates{winWeight: tc.winWeight}
		cs.add([]spider.Move{spider.Cards(0, 1, 1)}, 0, 0) // the lines are never played here
		cs.add([]spider.Move{spider.Cards(2, 3, 1)}, 0, 0)
		safe, tidy := cs.list[0], cs.list[1]
		safe.eval, tidy.eval = -300, -50
		// safe wins in 7 of 8 worlds, tidy in 3.
		best := cs.judge(8, func(c *candidate, wi int) bool {
			if c == safe {
				return wi < 7
			}
			return wi < 3
		})
		got := map[*candidate]string{safe: "safe", tidy: "tidy"}[best]
		if got != tc.want {
			t.Errorf("win weight %d: chose %s, want %s", tc.winWeight, got, tc.want)
		}
	}
}

// TestEndgameIgnoresHiddenCards: once the stock is empty the judge samples
// more worlds, and the deep judge looks a decision further; the hint there
// still depends on visible cards only. The short suite checks the
// constructed endgame deal41Endgame (below), which has many candidates,
// with a smaller judge and deep judge (two candidates, two worlds);
// TestLongEndgameIgnoresHiddenCards the endgame of deal 3's winning line
// and deal41Endgame at full size.
func TestEndgameIgnoresHiddenCards(t *testing.T) {
	o := FairOptions{Samples: 2, Nodes: 2000, JudgeNodes: 1000, Rollouts: true, EndgameWorlds: 3, EndgameNodes: 2000, DeepCands: 2, DeepWorlds: 2}
	d := layout(t, deal41Endgame, 2)
	sameHint(t, d, permuteHidden(t, d, 5), o)
}

func TestLongEndgameIgnoresHiddenCards(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	p := endgamePosition(t, 3, 2)
	o := FairOptions{Samples: 3, Nodes: 4000, JudgeNodes: 2000, Rollouts: true, EndgameWorlds: 6, EndgameNodes: 5000}
	sameHint(t, &p, permuteHidden(t, &p, 5), o)
	d := layout(t, deal41Endgame, 2)
	o.DeepCands, o.DeepWorlds = 3, 3
	sameHint(t, d, permuteHidden(t, d, 5), o)
}

// sameHint returns the hint for p, failing unless q (p with its hidden
// cards arranged otherwise) gets the same one.
func sameHint(tb testing.TB, p *spider.Position, q spider.Position, o FairOptions) spider.Move {
	tb.Helper()
	a, err := HintWith(context.Background(), p, false, o)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := HintWith(context.Background(), &q, false, o)
	if err != nil {
		tb.Fatal(err)
	}
	if a != b {
		tb.Fatalf("hint %s with the real hidden cards, %s with others", a, b)
	}
	return a
}

// endgamePosition is the first position on the full-information winning
// line of deal n with the stock empty, checked to have cards face down.
func endgamePosition(tb testing.TB, n uint64, suits int) spider.Position {
	tb.Helper()
	p, _ := spider.NewDeal(n, spider.Arachnid, spider.Rules{Suits: suits})
	r := Solve(context.Background(), p, Limits{Nodes: 2_000_000})
	if r.Status != Solved {
		tb.Fatalf("deal %d: %v", n, r.Status)
	}
	q := *p
	for _, m := range r.Moves {
		q.Do(m)
		if q.StockLen() == 0 {
			break
		}
	}
	if q.StockLen() != 0 || downCount(&q) < 2 {
		tb.Fatalf("deal %d: stock %d and %d face down after the last deal", n, q.StockLen(), downCount(&q))
	}
	return q
}

func downCount(p *spider.Position) int {
	n := 0
	for k := range spider.Piles {
		n += p.Down(k)
	}
	return n
}

// deal10Endgame is 1-suit deal 10 after the 134 moves the player makes
// there, the stock empty: the decision where the player whose rollouts
// saw only the first 8 of the 24 endgame worlds chose a line that went on
// with move 8 3 1 and lost the game, and the shipped player, its rollouts
// over all 24, takes the line below and wins.
const deal10Endgame = `pile1: |7S |QS |2S |5S |4S KS 3S 2S AS
pile2: |8S |6S |TS |AS 5S
pile3:
pile4: |8S |7S 9S JS TS 9S
pile5: |7S |8S |QS |9S 6S 5S 4S 3S
pile6: JS
pile7:
pile8: |6S |TS |AS |2S KS
pile9: KS QS JS
pile10: 4S 3S
completed: S S S S S
`

// TestLongEndgameRolloutsUseEveryWorld plays that decision as autoplay does
// (its sampling seeded from the visible position and the 134 moves made).
// It plays the shipped player's full decision, so it is long.
func TestLongEndgameRolloutsUseEveryWorld(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	p := layout(t, deal10Endgame, 1)
	line := decide(t, p, AutoplayOptions, 134)
	if got, want := fmt.Sprint(line), "[move 10 2 2 move 1 2 2 move 5 3 4]"; got != want {
		t.Fatalf("line %s, want %s", got, want)
	}
}

// deal41Endgame is 2-suit deal 41 after the 142 moves the player makes
// there, the stock empty and 10 cards face down: the judge's choice loses
// the real game, while the deep judge's choice keeps it winnable (and the
// player goes on to win).
const deal41Endgame = `pile1: |4S |TH |8S |JS JS TS 9S
pile2: |5S |2S 6H 9S
pile3: 7S 6S
pile4: 8H
pile5: KH QS JH
pile6: |5H |KS 8S 7S 4S 3S 3S TS 9H
pile7: AS
pile8: KS QS
pile9: |2S |QH AS
pile10: 7H 6S 5S 4H 3H 2H AH
completed: H H H S S
`

// TestLongDeepJudgeKeepsWinnable plays that decision as autoplay does (its
// sampling seeded from the visible position and the 142 moves made), with
// the deep judge and without, and solves the real position after each
// choice with every card known. It plays the shipped player's full
// decision twice, so it is long.
func TestLongDeepJudgeKeepsWinnable(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	p := layout(t, deal41Endgame, 2)
	choose := func(o FairOptions) []spider.Move { return decide(t, p, o, 142) }
	winnable := func(line []spider.Move) Status {
		q := after(*p, line)
		return Solve(context.Background(), &q, Limits{Nodes: 5_000_000}).Status
	}
	deep := AutoplayOptions
	if deep.DeepCands == 0 || p.FaceDown() > deep.DeepDown {
		t.Fatalf("the deep judge is off here: %d candidates, %d face down (at most %d)", deep.DeepCands, p.FaceDown(), deep.DeepDown)
	}
	shallow := deep
	shallow.DeepCands = 0
	a, b := choose(deep), choose(shallow)
	if got := winnable(a); got != Solved {
		t.Errorf("deep judge: %v leaves the real game %v, want solved", a, got)
	}
	if got := winnable(b); got != Unsolvable {
		t.Errorf("judge alone: %v leaves the real game %v, want unsolvable (the case this test pins)", b, got)
	}
}

// TestDeepValueIgnoresHiddenCards: a line's deep value depends on the
// visible cards and the random source only, and stays within its bounds;
// a line whose last move turns no card has none. The short suite values
// one candidate line, TestLongDeepValueIgnoresHiddenCards two.
func TestDeepValueIgnoresHiddenCards(t *testing.T) { deepValueIgnoresHiddenCards(t, 1) }

func TestLongDeepValueIgnoresHiddenCards(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	deepValueIgnoresHiddenCards(t, 2)
}

func deepValueIgnoresHiddenCards(t *testing.T, lines int) {
	p := layout(t, deal41Endgame, 2)
	q := permuteHidden(t, p, 7)
	o := FairOptions{Samples: 3, JudgeNodes: 3000, DeepWorlds: 3}
	cl := newClosure(p)
	var flips [][]spider.Move
	for _, f := range pickCandidates(cl.fr) {
		flips = append(flips, linePath(cl.nodes, f.at, f.mv))
	}
	if len(flips) < 2 {
		t.Fatalf("%d candidate lines, want 2 or more", len(flips))
	}
	top := int64(o.deepWorlds() * len(unseen(p, false)))
	for i, line := range flips[:lines] {
		va, oka, err := deepValue(context.Background(), p, line, o, rand.New(rand.NewPCG(uint64(i), 1)))
		if err != nil {
			t.Fatal(err)
		}
		vb, okb, err := deepValue(context.Background(), &q, line, o, rand.New(rand.NewPCG(uint64(i), 1)))
		if err != nil {
			t.Fatal(err)
		}
		if !oka || !okb || va != vb {
			t.Fatalf("line %v: value %d (%v) with the real hidden cards, %d (%v) with others", line, va, oka, vb, okb)
		}
		if va < 0 || va > top {
			t.Fatalf("line %v: value %d, want 0 to %d", line, va, top)
		}
	}
	// move 3 4 2 (7S 6S onto 8H) turns nothing.
	if _, ok, err := deepValue(context.Background(), p, []spider.Move{spider.Cards(2, 3, 2)}, o, rand.New(rand.NewPCG(1, 1))); ok || err != nil {
		t.Fatalf("a line that turns no card: ok=%v err=%v, want no value", ok, err)
	}
}

// decide is the line autoplay would play from p after played moves: its
// sampling is seeded from the visible position and the move count.
func decide(tb testing.TB, p *spider.Position, o FairOptions, played int) []spider.Move {
	tb.Helper()
	rng := rand.New(rand.NewPCG(visibleHash(p, false), o.Seed^uint64(played)))
	view, err := scramble(p, false, rng)
	if err != nil {
		tb.Fatal(err)
	}
	line, err := plan(context.Background(), &view, false, o, rng)
	if err != nil {
		tb.Fatal(err)
	}
	return line
}
