package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"cardtable/spider"
)

func layout(tb testing.TB, text string, suits int) *spider.Position {
	tb.Helper()
	p, err := spider.ParseLayout(text, spider.Rules{Suits: suits})
	if err != nil {
		tb.Fatalf("layout: %v", err)
	}
	return p
}

// replay plays moves from p with the engine's checked Play and reports
// whether they win.
func replay(tb testing.TB, p *spider.Position, moves []spider.Move) {
	tb.Helper()
	q := *p
	for i, m := range moves {
		if _, err := q.Play(m); err != nil {
			tb.Fatalf("move %d %s: %v", i+1, m, err)
		}
	}
	if !q.Won() {
		tb.Fatalf("%d moves do not win:\n%s", len(moves), q.FormatLayout())
	}
}

const (
	oneMove = `pile1: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S
pile2: AS
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S S S S S S
`
	// The ace covers the two; only a space lets it step aside.
	needSpace = `pile1: |2S AS
pile2: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S S S S S S
`
	// Three spade suits are left (1-suit game, five removed). Pile 1 holds
	// K-2 and wants an ace; the only aces in sight end the run 2S AS on
	// pile 2, and nothing else moves: no space, and no other bottom card
	// takes another pile's top card. The win needs the run split: AS alone
	// onto pile 1, which completes a suit and empties a pile. After that
	// the cards face down on pile 2 come out one by one through the space.
	needSplit = `pile1: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S
pile2: |AS |KS |QS |10S |8S |6S |4S |3S |2S |AS |KS |QS |10S |8S |6S |4S |3S 2S AS
pile3: JS
pile4: JS
pile5: 9S
pile6: 9S
pile7: 7S
pile8: 7S
pile9: 5S
pile10: 5S
completed: S S S S S
`
	// Only move: 10C onto JD, after which nothing moves.
	deadEnd = `pile1: |AD JD
pile2: |8D |AC 9C 2D
pile3: |5D 4C
pile4: KD
pile5: 3C 9D KC
pile6: |3D |6D 10C
pile7: 6C
pile8: 2C
pile9: QC 7C 10D 8C
pile10: JC 7D 5C QD 4D
completed: S H D C S H
`
	// Moves remain for a while, but every line jams.
	jams = `pile1: |4C 3D 9D
pile2: |KC 6C
pile3: |4D 3C 5C
pile4: |JC 5D 7C 10D
pile5: |8D |AC 9C
pile6: |JD |2C |2D KD QC
pile7: |7D QD
pile8: |AD 8C
pile9: 10C
pile10: 6D
completed: S H D C S H
`
)

func TestSolveKnown(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		suits  int
		want   Status
		nMoves int // -1: any
	}{
		{"one move", oneMove, 1, Solved, 1},
		{"needs a space", needSpace, 1, Solved, -1},
		{"needs a split run", needSplit, 1, Solved, -1},
		{"dead end", deadEnd, 4, Unsolvable, 0},
		{"jams", jams, 4, Unsolvable, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := layout(t, tc.text, tc.suits)
			r := Solve(context.Background(), p, Limits{Nodes: 5_000_000})
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s", r.Status, tc.want)
			}
			if tc.nMoves >= 0 && len(r.Moves) != tc.nMoves {
				t.Errorf("%d moves %v, want %d", len(r.Moves), r.Moves, tc.nMoves)
			}
			if r.Status == Solved {
				replay(t, p, r.Moves)
			}
			if tc.nMoves < 0 {
				return // too big for plain brute force: see TestSolveNeeds*
			}
			if win, ok := bruteWinnable(t, *p, 100_000); !ok || win != (tc.want == Solved) {
				t.Errorf("brute force says winnable=%v", win)
			}
		})
	}
}

// TestSolveNeedsSplit checks the position whose only wins split a run:
// the solver's line wins when replayed and splits a run, and brute force
// over every move except splits finds no win.
func TestSolveNeedsSplit(t *testing.T) {
	p := layout(t, needSplit, 1)
	r := Solve(context.Background(), p, Limits{Nodes: 5_000_000})
	if r.Status != Solved {
		t.Fatalf("status %s after %d nodes, want solved", r.Status, r.Nodes)
	}
	replay(t, p, r.Moves)
	q, splits := *p, 0
	for _, m := range r.Moves {
		if isSplit(&q, m) {
			splits++
		}
		q.Do(m)
	}
	if splits == 0 {
		t.Errorf("the winning line %v splits no run", r.Moves)
	}
	win, ok := brute(*p, 100_000, isSplit)
	if !ok || win {
		t.Fatalf("brute force without splits: win %v, conclusive %v; want a proven loss", win, ok)
	}
}

// TestSolveNeedsSpace checks that needSpace's win passes through a space:
// the ace must step aside before the two can join the run.
func TestSolveNeedsSpace(t *testing.T) {
	p := layout(t, needSpace, 1)
	r := Solve(context.Background(), p, Limits{Nodes: 1_000_000})
	if r.Status != Solved {
		t.Fatalf("status %s, want solved", r.Status)
	}
	replay(t, p, r.Moves)
	q, used := *p, false
	for _, m := range r.Moves {
		if m.Kind == spider.MoveCards && q.Len(int(m.To)) == 0 {
			used = true
		}
		q.Do(m)
	}
	if !used {
		t.Errorf("the winning line %v never moves into a space", r.Moves)
	}
	noSpace := func(p *spider.Position, m spider.Move) bool {
		return m.Kind == spider.MoveCards && p.Len(int(m.To)) == 0
	}
	if win, ok := brute(*p, 100_000, noSpace); !ok || win {
		t.Fatalf("brute force without spaces: win %v, conclusive %v; want a proven loss", win, ok)
	}
}

func TestSolveOneMoveIsThatMove(t *testing.T) {
	r := Solve(context.Background(), layout(t, oneMove, 1), Limits{})
	if len(r.Moves) != 1 || r.Moves[0].String() != "move 2 1 1" {
		t.Fatalf("moves %v, want [move 2 1 1]", r.Moves)
	}
}

func TestSolveWonPosition(t *testing.T) {
	text := strings.Replace(oneMove, "pile1: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S\npile2: AS", "pile1: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS\npile2:", 1)
	r := Solve(context.Background(), layout(t, text, 1), Limits{})
	if r.Status != Solved || len(r.Moves) != 0 || r.StoppedBy != NoLimit {
		t.Fatalf("got %s (%s) with %d moves, want solved with none", r.Status, r.StoppedBy, len(r.Moves))
	}
}

// randomSmall lays out the 26 diamonds and clubs at random, with the other
// six suits removed, for comparing the solver with brute force.
func randomSmall(r *rand.Rand) string {
	var cards []string
	for _, su := range "DC" {
		for _, rk := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"} {
			cards = append(cards, rk+string(su))
		}
	}
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	piles := make([][]string, spider.Piles)
	for _, c := range cards {
		k := r.IntN(spider.Piles)
		piles[k] = append(piles[k], c)
	}
	var b strings.Builder
	for k, pl := range piles {
		fmt.Fprintf(&b, "pile%d:", k+1)
		nd := max(len(pl)-1, 0) // mostly face down: deadlocks are common
		if nd > 0 && r.IntN(2) == 0 {
			nd = r.IntN(len(pl))
		}
		for j, c := range pl {
			if j < nd {
				b.WriteString(" |" + c)
			} else {
				b.WriteString(" " + c)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("completed: S H D C S H\n")
	return b.String()
}

// TestSolveAgreesWithBruteForce checks Solve's verdicts on small random
// positions: every win replays, and every loss is confirmed by an
// independent exhaustive search without the solver's simplifications.
func TestSolveAgreesWithBruteForce(t *testing.T) { solveAgreesWithBruteForce(t, 100) }

// TestLongSolveAgreesWithBruteForce is TestSolveAgreesWithBruteForce over
// 400 positions, where losses must be among the outcomes too.
func TestLongSolveAgreesWithBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	solveAgreesWithBruteForce(t, 400)
}

func solveAgreesWithBruteForce(t *testing.T, n int) {
	r := rand.New(rand.NewPCG(7, 11))
	var solved, lost, inconclusive int
	for i := range n {
		text := randomSmall(r)
		p := layout(t, text, 4)
		// The verdict is the first search's (the further searches for a
		// shorter line have their own tests), so this skips them.
		res := solveShort(context.Background(), p, Limits{Nodes: 2_000_000}, false)
		switch res.Status {
		case Solved:
			solved++
			replay(t, p, res.Moves) // the line is the proof
		case Unsolvable:
			// A loss needs the exhaustive check.
			win, ok := bruteWinnable(t, *p, 200_000)
			if !ok {
				inconclusive++
				continue
			}
			lost++
			if win {
				t.Fatalf("position %d: solver says unsolvable, brute force wins:\n%s", i, text)
			}
		default:
			t.Fatalf("position %d: %s after %d nodes:\n%s", i, res.Status, res.Nodes, text)
		}
	}
	t.Logf("%d solved, %d lost, %d losses too big for brute force", solved, lost, inconclusive)
	if solved == 0 || (lost == 0 && n >= 400) {
		t.Errorf("want both outcomes among the samples: %d solved, %d lost", solved, lost)
	}
}

// TestSolutionsReplay solves whole deals and replays every line with the
// engine's checked moves.
func TestSolutionsReplay(t *testing.T) { solutionsReplay(t, true) }

// TestLongSolutionsReplay is TestSolutionsReplay over every deal listed.
func TestLongSolutionsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	solutionsReplay(t, false)
}

func solutionsReplay(t *testing.T, short bool) {
	deals := []struct {
		suits    int
		from, to uint64
	}{
		{1, 1, 8},
		{2, 1, 3},
	}
	if short {
		// Two deals: Solve's further searches for a short line
		// cost several times its search at 1 suit.
		deals = deals[:1]
		deals[0].to = 2
	}
	for _, d := range deals {
		for n := d.from; n <= d.to; n++ {
			for _, v := range []spider.Variant{spider.Arachnid, spider.Spider} {
				t.Run(fmt.Sprintf("%d-suit/deal%d/%s", d.suits, n, v), func(t *testing.T) {
					p, err := spider.NewDeal(n, v, spider.Rules{Suits: d.suits})
					if err != nil {
						t.Fatal(err)
					}
					r := Solve(context.Background(), p, Limits{Nodes: 20_000_000})
					if r.Status != Solved {
						t.Fatalf("%s after %d nodes", r.Status, r.Nodes)
					}
					replay(t, p, r.Moves)
				})
			}
		}
	}
}

func TestSolveDeterministic(t *testing.T) {
	p, _ := spider.NewDeal(3, spider.Arachnid, spider.Rules{Suits: 2})
	a := Solve(context.Background(), p, Limits{Nodes: 3_000_000})
	b := Solve(context.Background(), p, Limits{Nodes: 3_000_000})
	if a.Status != b.Status || a.Nodes != b.Nodes || fmt.Sprint(a.Moves) != fmt.Sprint(b.Moves) {
		t.Fatalf("two runs differ: %s %d nodes %d moves, then %s %d nodes %d moves",
			a.Status, a.Nodes, len(a.Moves), b.Status, b.Nodes, len(b.Moves))
	}
}

func TestSolveLimits(t *testing.T) {
	p, _ := spider.NewDeal(13, spider.Arachnid, spider.Rules{Suits: 4})
	t.Run("nodes", func(t *testing.T) {
		r := Solve(context.Background(), p, Limits{Nodes: 5000})
		if r.Status != Unknown || r.Nodes > 5000 || r.StoppedBy != NodeLimit {
			t.Fatalf("%s (%s) after %d nodes, want unknown by the node limit within 5000", r.Status, r.StoppedBy, r.Nodes)
		}
	})
	t.Run("time", func(t *testing.T) {
		r := Solve(context.Background(), p, Limits{Time: time.Nanosecond})
		if r.Status != Unknown || r.StoppedBy != TimeLimit {
			t.Fatalf("%s (%s), want unknown by the time limit", r.Status, r.StoppedBy)
		}
	})
	t.Run("memory", func(t *testing.T) {
		r := Solve(context.Background(), p, Limits{MemoryBytes: 64 << 10})
		if r.Status != Unknown || r.StoppedBy != MemoryLimit {
			t.Fatalf("%s (%s), want unknown by the memory limit", r.Status, r.StoppedBy)
		}
		if r.PeakBytes < 64<<10 {
			t.Fatalf("peak %d bytes: the limit should have been crossed to stop", r.PeakBytes)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := Solve(ctx, p, Limits{})
		if r.Status != Unknown || r.Nodes > 2048 || r.StoppedBy != Cancelled {
			t.Fatalf("%s (%s) after %d nodes, want unknown at once, cancelled", r.Status, r.StoppedBy, r.Nodes)
		}
	})
	t.Run("cancelled during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result)
		go func() { done <- Solve(ctx, p, Limits{Nodes: 500_000_000}) }()
		cancel()
		r := <-done
		if r.Status != Unknown || r.Nodes >= 500_000_000 || r.StoppedBy != Cancelled {
			t.Fatalf("%s (%s) after %d nodes, want unknown before the node limit, cancelled", r.Status, r.StoppedBy, r.Nodes)
		}
	})
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{Solved: "solved", Unsolvable: "unsolvable", Unknown: "unknown"} {
		if s.String() != want {
			t.Errorf("%d: %q, want %q", s, s.String(), want)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p, _ := spider.NewDeal(1, spider.Arachnid, spider.Rules{Suits: 4})
	for b.Loop() {
		evaluate(p)
	}
}

func BenchmarkHash(b *testing.B) {
	p, _ := spider.NewDeal(1, spider.Arachnid, spider.Rules{Suits: 4})
	for b.Loop() {
		hashPos(p)
	}
}

func BenchmarkSolve(b *testing.B) {
	for _, bc := range []struct {
		name  string
		deal  uint64
		suits int
	}{{"1suit", 2, 1}, {"4suit", 1, 4}} {
		b.Run(bc.name, func(b *testing.B) {
			p, _ := spider.NewDeal(bc.deal, spider.Arachnid, spider.Rules{Suits: bc.suits})
			var nodes int64
			for b.Loop() {
				nodes += Solve(context.Background(), p, Limits{}).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// TestIncrementalHash checks that the per-pile updates the search makes
// agree with hashing and evaluating from scratch, with the default weights
// and with every weight set of the heuristic passes.
func TestIncrementalHash(t *testing.T) {
	sets := append([]evalWeights{weights}, weightSets...)
	p, _ := spider.NewDeal(9, spider.Arachnid, spider.Rules{Suits: 4})
	r := rand.New(rand.NewPCG(1, 1))
	var buf [256]spider.Move
	for step := range 300 {
		moves := p.Legal(buf[:0])
		if len(moves) == 0 {
			break
		}
		var sumT uint64
		sumE := make([]int32, len(sets))
		for k := range spider.Piles {
			sumT += pileTerm(p, k)
			for j := range sets {
				sumE[j] += pileEvalW(p, k, &sets[j])
			}
		}
		m := moves[r.IntN(len(moves))]
		if m.Kind == spider.Deal {
			p.Do(m)
			continue
		}
		before := *p
		p.Do(m)
		f, to := int(m.From), int(m.To)
		hs := sumT - pileTerm(&before, f) + pileTerm(p, f)
		if m.Kind == spider.MoveCards {
			hs += pileTerm(p, to) - pileTerm(&before, to)
		}
		if mix(hs+hashBase(p)) != hashPos(p) {
			t.Fatalf("step %d %s: incremental hash differs", step, m)
		}
		for j := range sets {
			w := &sets[j]
			es := sumE[j] - pileEvalW(&before, f, w) + pileEvalW(p, f, w)
			if m.Kind == spider.MoveCards {
				es += pileEvalW(p, to, w) - pileEvalW(&before, to, w)
			}
			if es+int32(p.NumRemoved())*w.removed != evaluateW(p, w) {
				t.Fatalf("step %d %s: incremental evaluation (set %d) differs", step, m, j)
			}
		}
	}
	if evaluateW(p, &weights) != evaluate(p) {
		t.Fatal("evaluate is not evaluateW with the default weights")
	}
}

// TestEvalTerms checks each evaluation term on piles built for it.
func TestEvalTerms(t *testing.T) {
	w := evalWeights{faceDown: 100, downPile: 1000, breakSuit: 10000, breakRank: 100000, space: 3, kingBlock: 1_000_000, upOnDown: 10_000_000}
	for _, c := range []struct {
		pile string
		want int32
	}{
		{"", 3},
		{"KS QS JS", 0}, // one run, nothing face down
		{"|5S KS", -100 - 1000 - 1_000_000 - 1e7}, // a king on a face-down card
		{"|5S |6S QS JH 9S", -200 - 1000 - 100000 - 10000 - 3e7},
		{"KH 3S", -10000}, // a king with nothing face down under it is fine
	} {
		// The rest of the two decks go on pile 2.
		left := map[string]int{}
		for _, s := range []string{"S", "H", "D", "C"} {
			for _, r := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"} {
				left[r+s] = 2
			}
		}
		for _, f := range strings.Fields(c.pile) {
			left[strings.TrimPrefix(f, "|")]--
		}
		var rest []string
		for name, n := range left {
			for range n {
				rest = append(rest, name)
			}
		}
		slices.Sort(rest)
		text := "pile1: " + c.pile + "\npile2: " + strings.Join(rest, " ") + "\npile3:\npile4:\npile5:\npile6:\npile7:\npile8:\npile9:\npile10:\n"
		p := layout(t, text, 4)
		if got := pileEvalW(p, 0, &w); got != c.want {
			t.Errorf("%q: %d, want %d", c.pile, got, c.want)
		}
	}
}
