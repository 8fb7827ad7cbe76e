package solver

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"

	"cardtable/spider"
)

// oracle is a made-up game of n+1 points for analyze: points up to last
// are winnable, the rest lost, and a solve of a point in unknown ends
// unknown. It counts the solves of each point.
type oracle struct {
	last    int
	unknown map[int]bool
	calls   map[int]int
	nodes   int64 // what each solve reports
}

func (o *oracle) solve(_ context.Context, k int, l Limits) Result {
	o.calls[k]++
	r := Result{Nodes: o.nodes}
	switch {
	case o.unknown[k]:
		r.Status, r.StoppedBy = Unknown, NodeLimit
		if l.Nodes > 0 {
			r.Nodes = l.Nodes
		}
	case k <= o.last:
		r.Status, r.Moves = Solved, []spider.Move{spider.Cards(0, 1, k%13+1)}
	default:
		r.Status = Unsolvable
	}
	return r
}

// checkAnalysis checks a's verdicts against the truth (points up to last
// winnable): every decided point is right, solved points carry their
// solve's verdict, and implied points follow from a solved one.
func checkAnalysis(tb testing.TB, a *Analysis, n, last int) {
	tb.Helper()
	if len(a.Points) != n+1 || a.Moves != n {
		tb.Fatalf("%d points for %d moves, want %d", len(a.Points), a.Moves, n+1)
	}
	for k, p := range a.Points {
		if p.Move != k {
			tb.Fatalf("point %d says move %d", k, p.Move)
		}
		switch {
		case p.Verdict == Winnable && k > last, p.Verdict == Lost && k <= last:
			tb.Fatalf("point %d: %s, but the truth is the other way (last winnable %d)", k, p.Verdict, last)
		case p.Basis == BySolve && (p.Solve == nil || p.Verdict.String() != map[Status]string{Solved: "winnable", Unsolvable: "lost", Unknown: "unknown"}[p.Solve.Status]):
			tb.Fatalf("point %d: solved, but verdict %s with solve %+v", k, p.Verdict, p.Solve)
		case p.Basis == Implied && p.Verdict == Winnable && (a.LastWinnable < k):
			tb.Fatalf("point %d: implied winnable above the last winnable %d", k, a.LastWinnable)
		case p.Basis == NotSolved && p.Verdict != Undecided:
			tb.Fatalf("point %d: %s without a basis", k, p.Verdict)
		case p.Verdict == Undecided && (k <= a.LastWinnable || (a.FirstLost() >= 0 && k >= a.FirstLost())):
			tb.Fatalf("point %d: unknown inside a decided range (last winnable %d, first lost %d)", k, a.LastWinnable, a.FirstLost())
		}
	}
	if a.LastWinnable >= 0 && a.Points[a.LastWinnable].Basis != BySolve {
		tb.Fatalf("last winnable %d was not solved", a.LastWinnable)
	}
}

// logBound is how many solves an analysis of n+1 points may take with no
// unknown point: the last one, then a binary search.
func logBound(n int) int { return 2 + bits.Len(uint(n+1)) }

// TestAnalyzeOrder checks the probing order on made-up games: without
// unknown points the answer is exact in about log2(n) solves; with them
// every verdict given is still right, and unknown points stay unknown.
func TestAnalyzeOrder(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(24, 1))
	lim := AnalyzeLimits{Position: Limits{Nodes: 1000}}
	for _, n := range []int{0, 1, 2, 3, 7, 50, 333, 5000} {
		lasts := []int{-1, 0, n / 3, n - 1, n}
		for range 5 {
			lasts = append(lasts, rng.IntN(n+2)-1)
		}
		for _, last := range lasts {
			t.Run(fmt.Sprintf("n=%d/last=%d", n, last), func(t *testing.T) {
				o := &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}}
				a := analyze(ctx, n, o.solve, lim)
				checkAnalysis(t, a, n, last)
				if a.LastWinnable != last || !a.Complete() || a.StoppedBy != NoLimit {
					t.Fatalf("last winnable %d complete %v stopped %s, want %d, complete", a.LastWinnable, a.Complete(), a.StoppedBy, last)
				}
				if a.Solves > logBound(n) || a.Solves != len(o.calls) {
					t.Errorf("%d solves (%d points), want at most %d", a.Solves, len(o.calls), logBound(n))
				}
				if last == n && a.Solves != 1 {
					t.Errorf("a winnable end took %d solves, want 1", a.Solves)
				}
				if last >= 0 && (len(a.Line) != 1 || int(a.Line[0].Count) != last%13+1) {
					t.Errorf("line %v is not the solve of point %d", a.Line, last)
				}
				// A band of unknown points just after the last winnable
				// one (lost positions too big to prove), and random
				// unknowns elsewhere.
				o = &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}}
				for k := last + 1; k <= min(n-1, last+1+n/10); k++ {
					o.unknown[k] = true
				}
				for range n / 20 {
					o.unknown[rng.IntN(n+1)] = true
				}
				a = analyze(ctx, n, o.solve, lim)
				checkAnalysis(t, a, n, last)
				for k, c := range o.calls {
					if c > 1 && k != 0 {
						t.Errorf("point %d solved %d times", k, c)
					}
				}
				if o.calls[0] > 1+maxBoosts {
					t.Errorf("opening solved %d times", o.calls[0])
				}
				if bound := 2*logBound(n) + maxBoosts; a.Solves > bound {
					t.Errorf("%d solves with unknowns, want at most %d", a.Solves, bound)
				}
				for k := range n + 1 {
					if !o.unknown[k] && o.calls[k] > 0 && a.Points[k].Verdict == Undecided {
						t.Errorf("point %d solved and decided, reported unknown", k)
					}
				}
			})
		}
	}
}

// TestAnalyzeBoostsOpening: when nothing is proven winnable the opening is
// solved again with a growing budget, and one that succeeds gives the
// line.
func TestAnalyzeBoostsOpening(t *testing.T) {
	var budgets []int64
	solve := func(_ context.Context, k int, l Limits) Result {
		if k == 0 {
			budgets = append(budgets, l.Nodes)
			if l.Nodes >= 16_000 {
				return Result{Status: Solved, Moves: []spider.Move{spider.DealMove}, Nodes: 10_000}
			}
		}
		return Result{Status: Unknown, StoppedBy: NodeLimit, Nodes: l.Nodes}
	}
	a := analyze(context.Background(), 30, solve, AnalyzeLimits{Position: Limits{Nodes: 1000}})
	if want := []int64{1000, 4000, 16_000}; fmt.Sprint(budgets) != fmt.Sprint(want) {
		t.Errorf("the opening's budgets %v, want %v", budgets, want)
	}
	if a.LastWinnable != 0 || len(a.Line) != 1 || a.Points[0].Verdict != Winnable {
		t.Errorf("last winnable %d, line %v, want 0 with the boosted solve's line", a.LastWinnable, a.Line)
	}
}

// TestAnalyzeLimits: the total limits and the context stop an analysis;
// what it found so far stays right, and the points it never reached are
// unknown, not solved.
func TestAnalyzeLimits(t *testing.T) {
	const n, last = 1000, 400
	t.Run("total nodes", func(t *testing.T) {
		o := &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}, nodes: 100}
		a := analyze(context.Background(), n, o.solve, AnalyzeLimits{Position: Limits{Nodes: 1000}, Total: Limits{Nodes: 350}})
		checkAnalysis(t, a, n, last)
		if a.Solves != 4 || a.StoppedBy != NodeLimit || a.Nodes != 400 {
			t.Fatalf("%d solves, %d nodes, stopped by %s; want 4 solves of 100 nodes then the node limit", a.Solves, a.Nodes, a.StoppedBy)
		}
		if a.Complete() {
			t.Error("complete after 4 solves of 1001 points")
		}
	})
	t.Run("total nodes cut the last solve", func(t *testing.T) {
		var got []int64
		solve := func(_ context.Context, k int, l Limits) Result {
			got = append(got, l.Nodes)
			return Result{Status: Unknown, StoppedBy: NodeLimit, Nodes: l.Nodes}
		}
		a := analyze(context.Background(), 10, solve, AnalyzeLimits{Position: Limits{Nodes: 1000}, Total: Limits{Nodes: 2500}})
		if fmt.Sprint(got) != "[1000 1000 500]" || a.StoppedBy != NodeLimit {
			t.Fatalf("budgets %v, stopped by %s; want [1000 1000 500] then the node limit", got, a.StoppedBy)
		}
	})
	t.Run("total time", func(t *testing.T) {
		var got []time.Duration
		solve := func(_ context.Context, k int, l Limits) Result {
			got = append(got, l.Time)
			return Result{Status: Unknown, StoppedBy: TimeLimit}
		}
		a := analyze(context.Background(), 10, solve, AnalyzeLimits{Position: Limits{Time: time.Hour}, Total: Limits{Time: time.Minute}})
		if len(got) == 0 || got[0] > time.Minute || got[0] < 59*time.Second {
			t.Fatalf("first budget %v, want the total's minute", got)
		}
		if a.StoppedBy != NoLimit {
			t.Errorf("stopped by %s before a minute passed", a.StoppedBy)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		o := &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}}
		solve := func(ctx context.Context, k int, l Limits) Result {
			if len(o.calls) == 3 {
				cancel()
				return Result{Status: Unknown, StoppedBy: Cancelled, Nodes: 7}
			}
			return o.solve(ctx, k, l)
		}
		a := analyze(ctx, n, solve, AnalyzeLimits{})
		checkAnalysis(t, a, n, last)
		if a.StoppedBy != Cancelled || a.Solves != 3 || a.Nodes != 7 {
			t.Fatalf("stopped by %s after %d solves and %d nodes, want cancelled after 3", a.StoppedBy, a.Solves, a.Nodes)
		}
		solved := 0
		for _, p := range a.Points {
			if p.Basis == BySolve {
				solved++
			}
		}
		if solved != 3 {
			t.Errorf("%d points solved, want the 3 solves that finished", solved)
		}
	})
}

// TestAnalyzeLeavesGameAlone: the game analysed keeps its position, its
// steps to redo and its scoring state.
func TestAnalyzeLeavesGameAlone(t *testing.T) {
	g, err := spider.NewGame(3, spider.Options{Suits: 1, Variant: spider.Spider})
	if err != nil {
		t.Fatal(err)
	}
	PlayGreedy(g, 30)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	g2 := g.Clone()
	before := g.Save()
	a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 200_000}})
	if g.Save() != before || !g.Pos().Equal(g2.Pos()) {
		t.Fatal("the analysis changed the game")
	}
	if a.Moves != g.MovesPlayed() {
		t.Errorf("analysed %d moves, the game has %d played", a.Moves, g.MovesPlayed())
	}
}

// BenchmarkAnalyze analyses the lost 4-suit game PlayGreedy makes of
// deal 1 with the command line's default limits (`spider analyze bench`
// gives the median and p90 over many games).
func BenchmarkAnalyze(b *testing.B) {
	g, err := spider.NewGame(1, spider.Options{Suits: 4})
	if err != nil {
		b.Fatal(err)
	}
	PlayGreedy(g, 2000)
	var solves int
	for b.Loop() {
		a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 1_000_000}, Total: Limits{Time: time.Minute}})
		solves = a.Solves
	}
	b.ReportMetric(float64(solves), "solves")
}

// TestAnalyzeLineSearchesBounded: the further searches for the shown line
// get a position's node limit of their own, their nodes count in the
// analysis's, and the total bounds them.
func TestAnalyzeLineSearchesBounded(t *testing.T) {
	g, err := spider.NewGame(3, spider.Options{Suits: 1, Variant: spider.Spider})
	if err != nil {
		t.Fatal(err)
	}
	PlayGreedy(g, 30)
	const pos = 200_000
	a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: pos}})
	k := a.LastWinnable
	if k < 0 || len(a.Line) == 0 {
		t.Fatalf("no winnable point: %+v", a.Points)
	}
	var probes int64
	for _, pt := range a.Points {
		if pt.Solve != nil {
			probes += pt.Solve.Nodes
		}
	}
	extra := a.Nodes - probes
	if extra <= 0 || extra > pos {
		t.Errorf("further searches: %d nodes, want some and at most a position's %d", extra, pos)
	}
	// The total leaves them 20 000 nodes: the probes are the same (no
	// probe's limit binds), the further searches stay within the rest.
	total := probes + 20_000
	b := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: pos}, Total: Limits{Nodes: total}})
	if b.LastWinnable != k {
		t.Fatalf("last winnable %d, then %d", k, b.LastWinnable)
	}
	if b.Nodes <= probes || b.Nodes > total {
		t.Errorf("with a total of %d: %d nodes (probes %d)", total, b.Nodes, probes)
	}
	// A total the probes spend leaves them nothing (the last probe's
	// limit binds then, so its nodes may differ).
	c := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: pos}, Total: Limits{Nodes: probes}})
	if c.Nodes > probes {
		t.Errorf("with a total of %d: %d nodes", probes, c.Nodes)
	}
}
