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
	proofs  map[int]int // the calls as a point believed lost
	nodes   int64       // what each solve reports
}

func (o *oracle) solve(_ context.Context, k int, l Limits, lost bool) Result {
	o.calls[k]++
	if lost && o.proofs != nil {
		o.proofs[k]++
	}
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
				o = &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}, proofs: map[int]int{}}
				for k := last + 1; k <= min(n-1, last+1+n/10); k++ {
					o.unknown[k] = true
				}
				for range n / 20 {
					o.unknown[rng.IntN(n+1)] = true
				}
				a = analyze(ctx, n, o.solve, lim)
				checkAnalysis(t, a, n, last)
				// Unknown points are probed again in each deepening
				// round (the oracle never decides them), at most once
				// by the winnable frontier; the lost frontier carries
				// its proof on after each of those probes (the prover
				// resumes: no work is repeated). The others once.
				for k, c := range o.calls {
					if c > 1 && !o.unknown[k] {
						t.Errorf("point %d, decidable, solved %d times", k, c)
					}
					if w := c - o.proofs[k]; w > 1+maxRounds {
						t.Errorf("point %d solved %d times by the winnable frontier, more than once in each of 1+%d rounds", k, w, maxRounds)
					}
					if p := o.proofs[k]; p > (1+maxRounds)*(1+logBound(n)) {
						t.Errorf("point %d proved %d times, more than after each winnable probe in 1+%d rounds", k, p, maxRounds)
					}
				}
				if bound := (1 + maxRounds) * 2 * logBound(n); a.Solves > bound {
					t.Errorf("%d solves with unknowns, want at most %d", a.Solves, bound)
				}
				if a.Exact() != a.Complete() {
					t.Errorf("exact %v, complete %v", a.Exact(), a.Complete())
				}
				if a.Exact() && (a.LastWinnable != last) {
					t.Errorf("exact, with last winnable %d, truth %d", a.LastWinnable, last)
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

// ladder is a made-up game of n+1 points whose answer needs larger
// budgets near the boundary, as real games do: points up to last are
// winnable, and a solve finds the win only with at least win(k) nodes;
// the others are lost, proven only with at least lose(k) nodes (never
// when lose(k) is 0). It counts each point's solves and the nodes given.
type ladder struct {
	last      int
	win, lose func(k int) int64
	calls     map[int]int
}

func (o *ladder) solve(_ context.Context, k int, l Limits, _ bool) Result {
	o.calls[k]++
	need := o.win(k)
	st := Solved
	if k > o.last {
		need, st = o.lose(k), Unsolvable
	}
	if need == 0 || l.Nodes < need {
		return Result{Status: Unknown, StoppedBy: NodeLimit, Nodes: l.Nodes}
	}
	r := Result{Status: st, Nodes: need}
	if st == Solved {
		r.Moves = []spider.Move{spider.DealMove}
	}
	return r
}

// TestAnalyzeDeepens: a band that the first round leaves unknown, and
// larger limits decide, is decided within the total; exact is claimed
// only with a proven winnable point next to a proven lost one, and the
// band is the points between them otherwise.
func TestAnalyzeDeepens(t *testing.T) {
	const n, last = 80, 40
	ctx := context.Background()
	pos := AnalyzeLimits{Position: Limits{Nodes: 1000}}
	// Winnable points up to 20 take 500 nodes, then twice as many every
	// 4 points: point 40 needs 16 000 (round 4). Lost points need 16 000
	// next to the boundary, halving every 4 points.
	win := func(k int) int64 { return 500 << max(0, (k-17)/4) }
	lose := func(k int) int64 { return 16_000 >> min(6, (k-last-1)/4) }
	t.Run("decided by deepening", func(t *testing.T) {
		o := &ladder{last: last, win: win, lose: lose, calls: map[int]int{}}
		lim := pos
		lim.Total.Nodes = 5_000_000
		a := analyze(ctx, n, o.solve, lim)
		checkAnalysis(t, a, n, last)
		if !a.Exact() || a.LastWinnable != last || a.FirstLost() != last+1 || a.StoppedBy != NoLimit {
			t.Fatalf("exact %v, last winnable %d, first lost %d, stopped by %s; want exact at %d/%d", a.Exact(), a.LastWinnable, a.FirstLost(), a.StoppedBy, last, last+1)
		}
		if a.Rounds < 4 || a.Nodes > lim.Total.Nodes {
			t.Errorf("%d rounds, %d nodes: want the 4 doublings point 40 needs, within %d nodes", a.Rounds, a.Nodes, lim.Total.Nodes)
		}
		// The first round could not prove point 40: deepening did.
		if a.Points[last].Solve == nil || a.Points[last].Solve.Nodes != win(last) || win(last) <= pos.Position.Nodes {
			t.Errorf("point %d solved %d times, last %+v", last, o.calls[last], a.Points[last].Solve)
		}
	})
	t.Run("total too small", func(t *testing.T) {
		o := &ladder{last: last, win: win, lose: lose, calls: map[int]int{}}
		lim := pos
		lim.Total.Nodes = 60_000
		a := analyze(ctx, n, o.solve, lim)
		checkAnalysis(t, a, n, last)
		from, to := a.Band()
		if a.Exact() || a.StoppedBy != NodeLimit || from != a.LastWinnable+1 || to != a.FirstLost()-1 || from > to {
			t.Fatalf("exact %v, band %d-%d, last winnable %d, first lost %d, stopped by %s", a.Exact(), from, to, a.LastWinnable, a.FirstLost(), a.StoppedBy)
		}
		if from > last+1 || to < last {
			t.Errorf("band %d-%d misses the boundary %d/%d", from, to, last, last+1)
		}
	})
	t.Run("lost side never proven", func(t *testing.T) {
		// The winnable side is found; no loss is provable: no exact
		// answer, whatever the budget, and the band runs to the end.
		o := &ladder{last: last, win: win, lose: func(int) int64 { return 0 }, calls: map[int]int{}}
		a := analyze(ctx, n, o.solve, pos)
		checkAnalysis(t, a, n, last)
		from, to := a.Band()
		if a.Exact() || a.Complete() || a.LastWinnable != last || from != last+1 || to != n || a.Rounds != maxRounds {
			t.Fatalf("exact %v, last winnable %d, band %d-%d, %d rounds; want not exact, %d, band %d-%d after %d rounds",
				a.Exact(), a.LastWinnable, from, to, a.Rounds, last, last+1, n, maxRounds)
		}
	})
	t.Run("winnable side never proven", func(t *testing.T) {
		// Losses are proven; the win at the boundary needs more than the
		// last round gives: not exact, the last winnable below the truth.
		o := &ladder{last: last, win: func(k int) int64 { return map[bool]int64{true: 500, false: 1 << 40}[k < 30] }, lose: lose, calls: map[int]int{}}
		a := analyze(ctx, n, o.solve, pos)
		checkAnalysis(t, a, n, last)
		from, to := a.Band()
		if a.Exact() || a.LastWinnable != 29 || a.FirstLost() != last+1 || from != 30 || to != last {
			t.Fatalf("exact %v, last winnable %d, first lost %d, band %d-%d; want a band 30-40", a.Exact(), a.LastWinnable, a.FirstLost(), from, to)
		}
	})
	t.Run("a hard point next to the winnable side", func(t *testing.T) {
		// Point 30 is never solved; the points above it are, with more
		// nodes than the first round gives: the deepening rounds step
		// past it, and point 30 is then implied winnable.
		hard := func(k int) int64 {
			switch {
			case k < 30:
				return 500
			case k == 30:
				return 1 << 40
			}
			return 4000
		}
		o := &ladder{last: last, win: hard, lose: lose, calls: map[int]int{}}
		// The lost frontier's search finds no win here, as the prover
		// seldom does at 4 suits: the winnable side must be found by the
		// winnable frontier.
		solve := func(ctx context.Context, k int, l Limits, prove bool) Result {
			if prove && k <= last {
				return Result{Status: Unknown, StoppedBy: NodeLimit, Nodes: l.Nodes}
			}
			return o.solve(ctx, k, l, prove)
		}
		a := analyze(ctx, n, solve, pos)
		checkAnalysis(t, a, n, last)
		if !a.Exact() || a.LastWinnable != last || a.Points[30].Basis != Implied {
			t.Fatalf("exact %v, last winnable %d, point 30 %s (%s); want exact at %d, point 30 implied", a.Exact(), a.LastWinnable, a.Points[30].Verdict, a.Points[30].Basis, last)
		}
	})
	t.Run("memory", func(t *testing.T) {
		// A solve that ran out of memory is not tried again: more nodes
		// would not change it.
		calls := map[int]int{}
		solve := func(_ context.Context, k int, l Limits, _ bool) Result {
			calls[k]++
			if k == n {
				return Result{Status: Unsolvable, Nodes: 10}
			}
			if k == 0 {
				return Result{Status: Solved, Moves: []spider.Move{spider.DealMove}, Nodes: 10}
			}
			return Result{Status: Unknown, StoppedBy: MemoryLimit, Nodes: 10}
		}
		a := analyze(ctx, n, solve, pos)
		for k, c := range calls {
			if c > 1 {
				t.Errorf("point %d solved %d times after running out of memory", k, c)
			}
		}
		if a.Exact() {
			t.Error("exact with unknown points")
		}
	})
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
		solve := func(_ context.Context, k int, l Limits, _ bool) Result {
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
		solve := func(_ context.Context, k int, l Limits, _ bool) Result {
			got = append(got, l.Time)
			return Result{Status: Unknown, StoppedBy: TimeLimit}
		}
		a := analyze(context.Background(), 10, solve, AnalyzeLimits{Position: Limits{Time: time.Hour}, Total: Limits{Time: time.Minute}})
		// The total less a fortieth, kept for a search's late time checks.
		if len(got) == 0 || got[0] > time.Minute-time.Minute/40 || got[0] < 58*time.Second {
			t.Fatalf("first budget %v, want the total's minute less 1.5 s", got)
		}
		if a.StoppedBy != NoLimit {
			t.Errorf("stopped by %s before a minute passed", a.StoppedBy)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		o := &oracle{last: last, unknown: map[int]bool{}, calls: map[int]int{}}
		solve := func(ctx context.Context, k int, l Limits, _ bool) Result {
			if len(o.calls) == 3 {
				cancel()
				return Result{Status: Unknown, StoppedBy: Cancelled, Nodes: 7}
			}
			return o.solve(ctx, k, l, false)
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
