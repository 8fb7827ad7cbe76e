package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// analyzeFlags are the limits of an analysis (docs/analysis.md).
type analyzeFlags struct {
	total    time.Duration
	posNodes int64
	posTime  time.Duration
	memory   int64
	// the duration flags' values, whose String is the text typed
	totalFlag, posTimeFlag *durationValue
}

func (af *analyzeFlags) register(fs interface {
	Var(pflag.Value, string, string)
	Int64Var(*int64, string, int64, string)
}) {
	af.totalFlag = durationVar(fs, &af.total, "time", time.Minute, "time limit for the whole analysis (0: none)")
	fs.Int64Var(&af.posNodes, "position-nodes", 1_000_000, "node limit for each position's solve (0: none)")
	af.posTimeFlag = durationVar(fs, &af.posTime, "position-time", 0, "time limit for each position's solve (0: none)")
	fs.Int64Var(&af.memory, "memory", 1<<30, "memory limit for each solve's search tables, in bytes (0: none)")
}

func (af *analyzeFlags) limits(cmd string) (solver.AnalyzeLimits, error) {
	if err := firstBroken(cmd,
		flagRule{"time", af.totalFlag, af.total < 0, noLimitWant},
		flagRule{"position-nodes", af.posNodes, af.posNodes < 0, noLimitWant},
		flagRule{"position-time", af.posTimeFlag, af.posTime < 0, noLimitWant},
		flagRule{"memory", af.memory, af.memory < 0, noLimitWant}); err != nil {
		return solver.AnalyzeLimits{}, err
	}
	return solver.AnalyzeLimits{
		Position: solver.Limits{Nodes: af.posNodes, Time: af.posTime, MemoryBytes: af.memory},
		Total:    solver.Limits{Time: af.total},
	}, nil
}

// runSpiderAnalyze is `spider analyze --load FILE` and `spider analyze
// bench`.
func runSpiderAnalyze(fs *pflag.FlagSet) runFunc {
	load := fs.String("load", "", "the saved game to analyse, `file`: a save of spider play, or the page's export (required)")
	jsonOut := fs.Bool("json", false, "print JSON")
	var af analyzeFlags
	af.register(fs)
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider analyze: unexpected argument %q (a saved game is read with --load FILE)", pos[0])
		}
		if *load == "" {
			return flagErr("spider analyze: --load FILE is required (or `spider analyze bench`)")
		}
		lim, err := af.limits("spider analyze")
		if err != nil {
			return err
		}
		g, err := loadSpider(*load) // a file it refuses is bad input already (errUsage)
		if err != nil {
			return err
		}
		a := solver.Analyze(ctx, g, lim)
		if a.StoppedBy == solver.Cancelled && ctx.Err() != nil {
			return ctx.Err()
		}
		line := playable(g, a.Line)
		if *jsonOut {
			return writeJSON(env.Stdout, analysisJSON(g, a, line))
		}
		writeAnalysis(env.Stdout, g, a, line, af.total)
		return nil
	}
}

// pointJSON is one point of the JSON output.
type pointJSON struct {
	Move   int    `json:"move"`
	Result string `json:"result"`
	// Basis: "solve" (this position was solved), "implied" (it follows
	// from another point) or "none" (not solved, nothing implies it).
	Basis string `json:"basis"`
	// The solve of this position, when it was solved.
	Nodes     int64   `json:"nodes,omitempty"`
	Seconds   float64 `json:"seconds,omitempty"`
	StoppedBy string  `json:"stoppedBy,omitempty"`
}

// analysisJSON is the object `spider analyze --json` prints
// (docs/analysis.md).
func analysisJSON(g *spider.Game, a *solver.Analysis, line []string) map[string]any {
	pts := make([]pointJSON, len(a.Points))
	for i, p := range a.Points {
		pj := pointJSON{Move: p.Move, Result: p.Verdict.String(), Basis: p.Basis.String()}
		if p.Solve != nil {
			pj.Nodes, pj.Seconds, pj.StoppedBy = p.Solve.Nodes, p.Solve.Elapsed.Seconds(), stoppedBy(*p.Solve)
		}
		pts[i] = pj
	}
	opt := func(k int) any {
		if k < 0 {
			return nil
		}
		return k
	}
	stopped := ""
	if a.StoppedBy != solver.NoLimit {
		stopped = stoppedBy(solver.Result{StoppedBy: a.StoppedBy})
	}
	var band any
	if !a.Exact() {
		from, to := a.Band()
		band = map[string]int{"from": from, "to": to}
	}
	return map[string]any{
		"deal":         g.Deal(),
		"variant":      g.Options().Variant.String(),
		"suits":        g.Options().Suits,
		"moves":        a.Moves,
		"points":       pts,
		"lastWinnable": opt(a.LastWinnable),
		"firstLost":    opt(a.FirstLost()),
		"line":         line,
		"complete":     a.Complete(),
		"exact":        a.Exact(),
		"band":         band,
		"rounds":       a.Rounds,
		"solves":       a.Solves,
		"nodes":        a.Nodes,
		"seconds":      a.Elapsed.Seconds(),
		"stoppedBy":    stopped,
	}
}

// timeline is one letter a point: W winnable, L lost, ? unknown.
func timeline(a *solver.Analysis) string {
	var b strings.Builder
	for _, p := range a.Points {
		b.WriteByte(map[solver.Verdict]byte{solver.Winnable: 'W', solver.Lost: 'L', solver.Undecided: '?'}[p.Verdict])
	}
	return b.String()
}

// writeAnalysis prints the summary for people. Its lines start with '#'
// except the winning line, preceded by the undo that takes the saved game
// back to its point, so that the output replays as it is in
// `cardtable spider play --load FILE`. total is the analysis's time
// limit, named when it left the answer open.
func writeAnalysis(w io.Writer, g *spider.Game, a *solver.Analysis, line []string, total time.Duration) {
	fmt.Fprintf(w, "# %s, %s: %s solved, %d nodes, %.1fs\n",
		describe(g), plural(a.Moves, "move"), plural(a.Solves, "position"), a.Nodes, a.Elapsed.Seconds())
	fmt.Fprintf(w, "# timeline from move 0: %s (W winnable, L lost, ? unknown)\n", timeline(a))
	if a.StoppedBy != solver.NoLimit {
		fmt.Fprintf(w, "# the analysis was stopped by its %s before it was done\n", a.StoppedBy)
	}
	if g.Won() {
		fmt.Fprintln(w, "# The game was won.")
		return
	}
	fmt.Fprintf(w, "# %s\n", boundaryText(a, total))
	if a.LastWinnable < 0 {
		return
	}
	back := a.Moves - a.LastWinnable
	fmt.Fprintf(w, "# A winning line from move %d, %s", a.LastWinnable, plural(len(line), "move"))
	if back > 0 {
		fmt.Fprintf(w, " (in `cardtable spider play --load FILE`: undo %d, then these):\n", back)
		fmt.Fprintf(w, "undo %d\n", back)
	} else {
		fmt.Fprintln(w, ":")
	}
	for _, m := range line {
		fmt.Fprintln(w, m)
	}
}

// boundaryText says where the game was lost and how sure that is: exact
// when a proven winnable point is next to a proven lost one, otherwise
// the band the search left open and why (docs/analysis.md).
func boundaryText(a *solver.Analysis, total time.Duration) string {
	k, lost := a.LastWinnable, a.FirstLost()
	if a.Exact() {
		switch {
		case k == a.Moves:
			return fmt.Sprintf("The game can still be won from its last position (move %d) (exact).", a.Moves)
		case k < 0:
			return "The deal cannot be won: its opening is proven lost (exact)."
		}
		return fmt.Sprintf("Lost at move %d (exact): the game could still be won after move %d, and from move %d no line wins.", lost, k, lost)
	}
	within := "within its limits"
	if a.StoppedBy == solver.TimeLimit && total > 0 {
		within = "within " + shortDur(total)
	}
	from, to := a.Band()
	unknown := span(from, to) + " unknown"
	after := fmt.Sprintf("move %d", k)
	if k < 0 {
		after = "the start"
	}
	if lost < 0 {
		return fmt.Sprintf("Lost somewhere after %s, if at all: the search could not decide %s (%s).", after, within, unknown)
	}
	if k < 0 {
		return fmt.Sprintf("Lost somewhere between the start and move %d: the search could not decide %s (%s; nothing was proven winnable).", lost, within, unknown)
	}
	return fmt.Sprintf("Lost somewhere between moves %d and %d: the search could not decide %s (%s).", k, lost, within, unknown)
}

// analyzeBenchFlags are the flags of spider analyze bench.
type analyzeBenchFlags struct {
	suits                  int
	variant, deals, player string
	maxMoves               int
	fair                   *solver.FairOptions
	af                     analyzeFlags
}

// analyzeBenchPlan is what the checked flags of spider analyze bench ask
// for: the games' options, the deals from to to, each analysis's limits.
type analyzeBenchPlan struct {
	opts     spider.Options
	from, to uint64
	lim      solver.AnalyzeLimits
}

// runAnalyzeBench analyses the games of a player (solver.PlayGreedy, or
// the fair player's solver.Autoplay) on a range of deals and prints each
// one's time and a summary (median, p90, how many lost games ended exact).
func runAnalyzeBench(fs *pflag.FlagSet) runFunc {
	var f analyzeBenchFlags
	fs.IntVar(&f.suits, "suits", 4, "suits in play: 1, 2 or 4")
	fs.StringVar(&f.variant, "variant", "arachnid", "arachnid or spider")
	fs.StringVar(&f.deals, "deals", "1-20", "deal numbers, A-B")
	fs.StringVar(&f.player, "player", "greedy", "who plays the games analysed: greedy (quick, loses early) or fair (autoplay's player: slower, loses later)")
	fs.IntVar(&f.maxMoves, "max-moves", 2000, "most moves the greedy player makes in a game")
	f.fair = fairFlags(fs, " (--player fair)")
	f.af.register(fs)
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("spider analyze bench: unexpected argument %q", pos[0])
		}
		p, err := f.check()
		if err != nil {
			return err
		}
		if b, err := os.ReadFile("/proc/loadavg"); err == nil {
			fmt.Fprintf(env.Stdout, "# load average at the start: %s\n", strings.Join(strings.Fields(string(b))[:3], " "))
		}
		var t analyzeTally
		for n := p.from; n <= p.to; n++ {
			g, a, err := f.analyzeDeal(ctx, n, p)
			if err != nil {
				return err
			}
			sure := t.add(g, a)
			fmt.Fprintf(env.Stdout, "deal %d: %d moves, %s, last winnable %s, %s, %d solves, %d rounds, %d nodes, %.2fs\n",
				n, a.Moves, map[bool]string{true: "won", false: "not won"}[g.Won()], orNone(a.LastWinnable), sure, a.Solves, a.Rounds, a.Nodes, a.Elapsed.Seconds())
		}
		t.print(env.Stdout)
		return nil
	}
}

// check refuses bad flags, in the order they are listed, and returns
// what they ask for.
func (f *analyzeBenchFlags) check() (analyzeBenchPlan, error) {
	var p analyzeBenchPlan
	if err := card.CheckSuits(f.suits); err != nil {
		return p, flagErr("--suits: %w", err)
	}
	v, err := spider.ParseVariant(f.variant)
	if err != nil {
		return p, flagErr("--variant: %w", err)
	}
	p.opts = spider.Options{Variant: v, Suits: f.suits}
	if p.from, p.to, err = parseRange(f.deals); err != nil {
		return p, flagErr("--deals: %w", err)
	}
	if p.to-p.from >= 100_000 {
		return p, flagErr("%s: at most 100 000 deals at a time", flagValue("deals", f.deals))
	}
	if f.player != "greedy" && f.player != "fair" {
		return p, flagErr("%s: want greedy or fair", flagValue("player", f.player))
	}
	if f.maxMoves < 1 || f.maxMoves > spider.MaxSteps {
		return p, flagErr("%s: want 1 to %d", flagValue("max-moves", f.maxMoves), spider.MaxSteps)
	}
	if err := checkFair(f.fair, "spider analyze bench"); err != nil {
		return p, err
	}
	if err := checkValue(f.fair, f.suits, "spider analyze bench"); err != nil {
		return p, err
	}
	p.lim, err = f.af.limits("spider analyze bench")
	return p, err
}

// analyzeDeal plays deal n as the player would, analyses the game and
// checks that the analysis's winning line replays and wins.
func (f *analyzeBenchFlags) analyzeDeal(ctx context.Context, n uint64, p analyzeBenchPlan) (*spider.Game, *solver.Analysis, error) {
	g, err := spider.NewGame(n, p.opts)
	if err != nil {
		return nil, nil, err
	}
	if err := playForBench(ctx, g, f.player, f.maxMoves, *f.fair); err != nil {
		return nil, nil, fmt.Errorf("deal %d: %w", n, err)
	}
	a := solver.Analyze(ctx, g, p.lim)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err := checkLine(g, a); err != nil {
		return nil, nil, fmt.Errorf("deal %d: %w", n, err)
	}
	return g, a, nil
}

// analyzeTally sums up the analyses of spider analyze bench.
type analyzeTally struct {
	secs                     []float64
	solves, lostGames, exact int
	widths                   []int // of the bands where not exact
}

// add counts the analysis a of game g and says how sure it is: "exact",
// or the band of moves it left open.
func (t *analyzeTally) add(g *spider.Game, a *solver.Analysis) (sure string) {
	t.secs = append(t.secs, a.Elapsed.Seconds())
	t.solves += a.Solves
	if !g.Won() {
		t.lostGames++
	}
	if a.Exact() {
		if !g.Won() {
			t.exact++
		}
		return "exact"
	}
	from, to := a.Band()
	t.widths = append(t.widths, to-from+1)
	return fmt.Sprintf("band %d-%d", from, to)
}

// print writes the summary lines: the times' median, p90 and max, and how
// many lost games ended exact.
func (t *analyzeTally) print(w io.Writer) {
	secs := t.secs
	slices.Sort(secs)
	q := func(f float64) float64 { return secs[min(len(secs)-1, int(f*float64(len(secs))))] }
	fmt.Fprintf(w, "# %d games (%d not won): median %.2fs, p90 %.2fs, max %.2fs, %.1f solves a game\n",
		len(secs), t.lostGames, q(0.5), q(0.9), secs[len(secs)-1], float64(t.solves)/float64(len(secs)))
	band := "-"
	if len(t.widths) > 0 {
		slices.Sort(t.widths)
		band = fmt.Sprint(t.widths[len(t.widths)/2])
	}
	fmt.Fprintf(w, "# exact in %d of %d lost games; median band width where not exact: %s points\n", t.exact, t.lostGames, band)
}

// playForBench plays g to its end as player ("greedy" or "fair", with
// fair's options) would.
func playForBench(ctx context.Context, g *spider.Game, player string, maxMoves int, fair solver.FairOptions) error {
	if player == "greedy" {
		solver.PlayGreedy(g, maxMoves)
		return nil
	}
	_, _, err := solver.Autoplay(ctx, g, fair)
	return err
}

// span names moves from to to: "move 8 is", "moves 8 to 40 are".
func span(from, to int) string {
	if from == to {
		return fmt.Sprintf("move %d is", from)
	}
	return fmt.Sprintf("moves %d to %d are", from, to)
}

func orNone(k int) string {
	if k < 0 {
		return "none"
	}
	return fmt.Sprint(k)
}

// checkLine replays an analysis's line on a copy of g taken back to its
// point, with the engine's checked moves: it must win.
func checkLine(g *spider.Game, a *solver.Analysis) error {
	if a.LastWinnable < 0 {
		return nil
	}
	c := g.Clone()
	for c.MovesPlayed() > a.LastWinnable {
		if err := c.Undo(); err != nil {
			return err
		}
	}
	for _, m := range a.Line {
		if err := c.Play(m); err != nil {
			return fmt.Errorf("the line from move %d does not replay: %s: %w", a.LastWinnable, m, err)
		}
	}
	if !c.Won() {
		return fmt.Errorf("the line from move %d does not win", a.LastWinnable)
	}
	return nil
}
