package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// solveFlags are what solve and autoplay add to the game flags: where the
// position comes from besides a deal number.
type solveFlags struct {
	gameFlags
	load   string
	layout string
}

func (sf *solveFlags) register(fs *flag.FlagSet) {
	sf.gameFlags.register(fs)
	fs.StringVar(&sf.load, "load", "", "start from a saved game (its current position)")
	fs.StringVar(&sf.layout, "layout", "", "start from a position file in the layout format (docs/formats.md)")
}

// game builds the game to work on: a save, a layout or a deal.
func (sf *solveFlags) game() (*spider.Game, error) {
	n := 0
	for _, s := range []string{sf.deal, sf.load, sf.layout} {
		if s != "" {
			n++
		}
	}
	if n > 1 || n == 1 && sf.winnable {
		return nil, usageErr("give only one of --deal, --winnable, --load and --layout")
	}
	switch {
	case sf.load != "":
		return loadSpider(sf.load)
	case sf.layout != "":
		o, err := sf.options()
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(sf.layout)
		if err != nil {
			return nil, err
		}
		p, err := spider.ParseLayout(string(b), spider.Rules{Suits: o.Suits, Relaxed: o.Relaxed})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sf.layout, err)
		}
		return spider.NewGameAt(p, o)
	}
	return sf.newGame()
}

// describe names the game for summaries.
func describe(g *spider.Game) string {
	o := g.Options()
	what := "custom position"
	if g.Deal() != 0 {
		what = fmt.Sprintf("deal %d", g.Deal())
	}
	return fmt.Sprintf("%s (%s, %d suit(s))", what, o.Variant, o.Suits)
}

// playable drops removals when the game removes complete suits by itself,
// so that the lines replay in `cardtable spider play` with the same options.
func playable(g *spider.Game, moves []spider.Move) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		if m.Kind == spider.Remove && g.Options().AutoRemove {
			continue
		}
		out = append(out, m.String())
	}
	return out
}

func runSpiderSolve(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "spider solve")
	var sf solveFlags
	sf.register(fs)
	limit := fs.Duration("time", 30*time.Second, "time limit (0: none)")
	nodes := fs.Int64("nodes", 0, "node limit (0: none)")
	mem := fs.Int64("memory", 1<<30, "memory limit for the search tables, in bytes (0: none)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("spider solve: unexpected argument %q", pos[0])
	}
	if *limit < 0 || *nodes < 0 || *mem < 0 {
		return usageErr("spider solve: --time, --nodes and --memory must be at least 0 (0: no limit)")
	}
	g, err := sf.game()
	if err != nil {
		return err
	}
	r := solver.Solve(ctx, g.Pos(), solver.Limits{Time: *limit, Nodes: *nodes, MemoryBytes: *mem})
	moves := playable(g, r.Moves)
	if sf.json {
		return writeJSON(env.Stdout, map[string]any{
			"deal":      g.Deal(),
			"variant":   g.Options().Variant.String(),
			"suits":     g.Options().Suits,
			"result":    r.Status.String(),
			"stoppedBy": stoppedBy(r),
			"moves":     moves,
			"found":     r.Found,
			"nodes":     r.Nodes,
			"seconds":   r.Elapsed.Seconds(),
			"peakBytes": r.PeakBytes,
		})
	}
	// Summary lines start with '#', which `cardtable spider play` skips, so
	// the output can be fed to it as it is.
	fmt.Fprintf(env.Stdout, "# %s: %s in %.2fs, %d nodes, peak %s, %d moves\n",
		describe(g), statusText(r), r.Elapsed.Seconds(), r.Nodes, mib(r.PeakBytes), len(moves))
	for _, m := range moves {
		fmt.Fprintln(env.Stdout, m)
	}
	return nil
}

// statusText is a search's outcome for people: "unknown" says which
// limit stopped the search, so that the user knows what to raise.
func statusText(r solver.Result) string {
	switch r.StoppedBy {
	case solver.NoLimit:
		return r.Status.String()
	case solver.Cancelled:
		return r.Status.String() + " (cancelled)"
	}
	return fmt.Sprintf("%s (stopped by the %s)", r.Status, r.StoppedBy)
}

// stoppedBy is the JSON value for the limit that stopped a search: "time",
// "nodes", "memory", "cancelled", or "" when none did.
func stoppedBy(r solver.Result) string {
	switch r.StoppedBy {
	case solver.TimeLimit:
		return "time"
	case solver.NodeLimit:
		return "nodes"
	case solver.MemoryLimit:
		return "memory"
	case solver.Cancelled:
		return "cancelled"
	}
	return ""
}

func mib(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// fairFlags registers the fair player's options on fs, defaulting to
// solver.AutoplayOptions; note ends each flag's help.
func fairFlags(fs *flag.FlagSet, note string) *solver.FairOptions {
	o := solver.AutoplayOptions
	fs.IntVar(&o.Samples, "samples", o.Samples, "possible worlds sampled per decision"+note)
	fs.Int64Var(&o.Nodes, "nodes", o.Nodes, "search nodes per sampled world"+note)
	fs.Int64Var(&o.JudgeNodes, "judge-nodes", o.JudgeNodes, "search nodes per candidate line and world when judging candidates (0: no judge)"+note)
	fs.BoolVar(&o.Rollouts, "rollouts", o.Rollouts, "score candidates by fair rollouts in the sampled worlds (false: by the position they leave from; with --judge-nodes 0, rollouts alone, as hints do)"+note)
	fs.IntVar(&o.EndgameWorlds, "endgame-worlds", o.EndgameWorlds, "once the stock is empty, worlds the judge samples (0: --samples; both endgame flags 0: no endgame judge)"+note)
	fs.Int64Var(&o.EndgameNodes, "endgame-nodes", o.EndgameNodes, "once the stock is empty, search nodes per candidate line and world when judging (0: --judge-nodes)"+note)
	fs.IntVar(&o.DeepCands, "deep-cands", o.DeepCands, "once the stock is empty, the judge's best candidates judged one decision deeper (0: no deep judge)"+note)
	fs.IntVar(&o.DeepWorlds, "deep-worlds", o.DeepWorlds, "worlds the deep judge samples for the decision after a line (0: --samples)"+note)
	fs.Int64Var(&o.DeepNodes, "deep-nodes", o.DeepNodes, "search nodes per line and world in the deep judge (0: --judge-nodes)"+note)
	fs.IntVar(&o.DeepDown, "deep-down", o.DeepDown, "the deep judge only with at most this many cards face down (0: any number)"+note)
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "sampling seed: the same seed, deal and options give the same game"+note)
	return &o
}

// checkFair rejects fair-player options that cannot play.
func checkFair(o *solver.FairOptions, cmd string) error {
	if o.Samples < 1 || o.Nodes < 1 || o.JudgeNodes < 0 || o.EndgameWorlds < 0 || o.EndgameNodes < 0 ||
		o.DeepCands < 0 || o.DeepWorlds < 0 || o.DeepNodes < 0 || o.DeepDown < 0 {
		return usageErr("%s: --samples and --nodes must be at least 1, --judge-nodes, --endgame-worlds, --endgame-nodes and the --deep flags at least 0", cmd)
	}
	return nil
}

func runSpiderAutoplay(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "spider autoplay")
	var sf solveFlags
	sf.register(fs)
	o := fairFlags(fs, "")
	trace := fs.Bool("trace", false, traceHelp)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("spider autoplay: unexpected argument %q", pos[0])
	}
	if err := checkFair(o, "spider autoplay"); err != nil {
		return err
	}
	g, err := sf.game()
	if err != nil {
		return err
	}
	begin := g.Position()
	start := time.Now()
	won, played, err := solver.Autoplay(ctx, g, *o)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	var tr string
	if *trace {
		if tr, err = traceGame(ctx, &begin, g.Options(), played); err != nil {
			return err
		}
	}
	moves := playable(g, played)
	per := 0.0
	if len(played) > 0 {
		per = secs / float64(len(played))
	}
	if sf.json {
		out := map[string]any{
			"deal":           g.Deal(),
			"variant":        g.Options().Variant.String(),
			"suits":          g.Options().Suits,
			"won":            won,
			"moves":          moves,
			"seconds":        secs,
			"secondsPerMove": per,
			"completed":      suitsDone(g),
		}
		if *trace {
			out["trace"] = tr
		}
		return writeJSON(env.Stdout, out)
	}
	result := "lost"
	if won {
		result = "won"
	}
	fmt.Fprintf(env.Stdout, "# %s: %s in %d moves, %.1fs (%.3fs a move), %d of 8 suits complete\n",
		describe(g), result, len(moves), secs, per, suitsDone(g))
	if *trace {
		fmt.Fprintf(env.Stdout, "# trace: %s\n", tr)
	}
	for _, m := range moves {
		fmt.Fprintln(env.Stdout, m)
	}
	return nil
}

// parseRange reads "A-B" or "N".
func parseRange(s string) (from, to uint64, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	if from, err = card.ParseDeal(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	if to, err = card.ParseDeal(strings.TrimSpace(b)); err != nil {
		return 0, 0, err
	}
	if to < from {
		return 0, 0, fmt.Errorf("%w: range %q runs backwards", card.ErrBadDeal, s)
	}
	return from, to, nil
}

// benchResult is one deal's line in a benchmark.
type benchResult struct {
	deal   uint64
	ok     bool // solved or won
	status string
	secs   float64
	nodes  int64
	peak   int64
	moves  int
	found  int // solve: the line's length as the search found it, before shortening
	// byHand is what a player makes of the line on a page that removes
	// complete suits itself (the default): its card moves and deals.
	byHand  int
	perMove float64
	// completed counts the suits removed or complete at the end (autoplay):
	// a measure of how far a lost game got, steadier than won or lost.
	completed int
	trace     string // autoplay --trace
	err       error
}

// byHand counts the moves of line a player makes when complete suits are
// removed for them: every move but the removals.
func byHand(line []spider.Move) int {
	n := 0
	for _, m := range line {
		if m.Kind != spider.Remove {
			n++
		}
	}
	return n
}

// suitsDone counts g's suits removed or standing complete.
func suitsDone(g *spider.Game) int { return g.Pos().NumRemoved() + g.Pos().CompleteRuns() }

// traceHelp is the --trace flag's help.
const traceHelp = "after the game, solve the real position (hidden cards known) after every card turned and row dealt, " +
	"and print one letter each: W winnable, L lost, ? unknown, | a row dealt"

// traceNodes bounds each of a trace's solves: about a second at 4 suits.
const traceNodes = 3_000_000

// traceGame is the trace of a game played from start, as a string.
func traceGame(ctx context.Context, start *spider.Position, o spider.Options, moves []spider.Move) (string, error) {
	cps, err := solver.Trace(ctx, start, o, moves, solver.Limits{Nodes: traceNodes})
	if err != nil {
		return "", err
	}
	return solver.TraceString(cps), nil
}

func runSpiderBench(ctx context.Context, env *Env, args []string) error {
	b, err := parseBench(env, args)
	if err != nil {
		return err
	}
	var rec io.Writer
	if b.record != "" {
		f, err := os.OpenFile(b.record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		rec = f
	}
	var firstErr error
	results := runDeals(ctx, b.from, int(b.to-b.from+1), b.jobs, func(n uint64) benchResult { return b.one(ctx, n) },
		func(r benchResult) {
			if r.err != nil {
				fmt.Fprintf(env.Stdout, "deal %d: error: %v\n", r.deal, r.err)
				firstErr = cmpErr(firstErr, r.err)
				return
			}
			b.print(env.Stdout, r)
			if rec != nil && b.mode == "solve" && r.ok {
				if _, err := fmt.Fprintf(rec, "%s %d %d\n", b.opts.Variant, b.opts.Suits, r.deal); err != nil {
					firstErr = cmpErr(firstErr, err)
				}
			}
		})
	fmt.Fprintln(env.Stdout, summarize(b.mode, results, b.jobs))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return firstErr
}

// bench is a `spider bench` run as its flags set it.
type bench struct {
	mode     string
	opts     spider.Options
	from, to uint64
	limit    time.Duration
	mem      int64
	jobs     int
	record   string
	trace    bool
	fair     *solver.FairOptions
}

// parseBench reads and checks `spider bench`'s flags.
func parseBench(env *Env, args []string) (*bench, error) {
	fs := newFlags(env, "spider bench")
	mode := fs.String("mode", "solve", "solve (full information) or autoplay (fair play)")
	suits := fs.Int("suits", 4, "suits in play: 1, 2 or 4")
	variant := fs.String("variant", "arachnid", "arachnid or spider")
	deals := fs.String("deals", "1-10", "deal numbers, A-B")
	limit := fs.Duration("time", 30*time.Second, "time limit per deal (solve)")
	mem := fs.Int64("memory", 1<<30, "memory limit per deal's search tables, bytes (solve)")
	jobs := fs.Int("jobs", 1, "deals run at once (one core each)")
	record := fs.String("record", "", "append the deals proven winnable to this file as 'VARIANT SUITS DEAL' lines")
	trace := fs.Bool("trace", false, traceHelp+" (autoplay)")
	o := fairFlags(fs, " (autoplay)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, usageErr("spider bench: unexpected argument %q", pos[0])
	}
	if *mode != "solve" && *mode != "autoplay" {
		return nil, usageErr("spider bench: --mode must be solve or autoplay, not %q", *mode)
	}
	if err := card.CheckSuits(*suits); err != nil {
		return nil, usageErr("--suits: %v", err)
	}
	v, err := spider.ParseVariant(*variant)
	if err != nil {
		return nil, usageErr("--variant: %v", err)
	}
	from, to, err := parseRange(*deals)
	if err != nil {
		return nil, usageErr("--deals: %v", err)
	}
	if to-from >= 1_000_000 {
		return nil, usageErr("--deals: at most a million deals at a time")
	}
	if *jobs < 1 {
		return nil, usageErr("--jobs must be at least 1")
	}
	if *limit < 0 || *mem < 0 {
		return nil, usageErr("spider bench: --time and --memory must be at least 0 (0: no limit)")
	}
	if err := checkFair(o, "spider bench"); err != nil {
		return nil, err
	}
	return &bench{mode: *mode, opts: spider.Options{Variant: v, Suits: *suits}, from: from, to: to,
		limit: *limit, mem: *mem, jobs: *jobs, record: *record, trace: *trace, fair: o}, nil
}

// one runs deal n.
func (b *bench) one(ctx context.Context, n uint64) benchResult {
	g, err := spider.NewGame(n, b.opts)
	if err != nil {
		return benchResult{deal: n, err: err}
	}
	if b.mode == "solve" {
		r := solver.Solve(ctx, g.Pos(), solver.Limits{Time: b.limit, MemoryBytes: b.mem})
		res := benchResult{deal: n, ok: r.Status == solver.Solved, status: statusText(r),
			secs: r.Elapsed.Seconds(), nodes: r.Nodes, peak: r.PeakBytes, moves: len(r.Moves), found: r.Found, byHand: byHand(r.Moves)}
		if res.ok {
			// Every line is replayed with the engine's checked moves.
			for _, m := range r.Moves {
				if err := g.Play(m); err != nil {
					res.err = fmt.Errorf("solution does not replay: %s: %w", m, err)
					return res
				}
			}
			if !g.Won() {
				res.err = errors.New("solution does not win")
			}
		}
		return res
	}
	begin := g.Position()
	start := time.Now()
	won, moves, err := solver.Autoplay(ctx, g, *b.fair)
	res := benchResult{deal: n, ok: won, status: "lost", secs: time.Since(start).Seconds(), moves: len(moves), err: err,
		completed: suitsDone(g)}
	if won {
		res.status = "won"
	}
	if b.trace && err == nil {
		res.trace, res.err = traceGame(ctx, &begin, b.opts, moves)
	}
	if len(moves) > 0 {
		res.perMove = res.secs / float64(len(moves))
	}
	return res
}

// print writes a deal's line.
func (b *bench) print(w io.Writer, r benchResult) {
	if b.mode == "solve" {
		fmt.Fprintf(w, "deal %d: %s %.3fs %d nodes %.0f nodes/s peak %s %d moves",
			r.deal, r.status, r.secs, r.nodes, float64(r.nodes)/max(r.secs, 1e-9), mib(r.peak), r.moves)
		if r.ok {
			fmt.Fprintf(w, " (found %d, %d by hand)", r.found, r.byHand)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "deal %d: %s %d moves %.1fs %.3fs/move %d/8 suits", r.deal, r.status, r.moves, r.secs, r.perMove, r.completed)
	if b.trace {
		fmt.Fprintf(w, " trace %s", r.trace)
	}
	fmt.Fprintln(w)
}

// runDeals runs one on deals from, from+1, ... (total of them), jobs at
// once, and hands each result to done in deal order as soon as it and
// those before it are in. It returns the results handed over: all, or
// those before a cancellation.
func runDeals(ctx context.Context, from uint64, total, jobs int, one func(uint64) benchResult, done func(benchResult)) []benchResult {
	results := make([]benchResult, total)
	ready := make([]chan struct{}, total)
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, total) {
		wg.Add(1)
		go func() { // exits when next is closed
			defer wg.Done()
			for i := range next {
				results[i] = one(from + uint64(i))
				close(ready[i])
			}
		}()
	}
	go func() { // exits after handing out every deal or on cancellation
		defer close(next)
		for i := range total {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	handed := 0
	for i := range total {
		select {
		case <-ready[i]:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		done(results[i])
		handed++
	}
	wg.Wait()
	return results[:handed]
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// summarize prints the counts and the time distribution of a benchmark.
func summarize(mode string, rs []benchResult, jobs int) string {
	var ok int
	var secs []float64
	var moves, found, hand []int // solve: the lines of the deals solved
	var nodes int64
	var nodeSecs, peak, perMove, completed float64
	for _, r := range rs {
		if r.err != nil {
			continue
		}
		if r.ok {
			ok++
			moves = append(moves, r.moves)
			found = append(found, r.found)
			hand = append(hand, r.byHand)
		}
		secs = append(secs, r.secs)
		nodes += r.nodes
		nodeSecs += r.secs
		peak = max(peak, float64(r.peak))
		perMove += r.perMove
		completed += float64(r.completed)
	}
	slices.Sort(secs)
	q := func(f float64) float64 {
		if len(secs) == 0 {
			return 0
		}
		return secs[min(len(secs)-1, int(f*float64(len(secs))))]
	}
	word := "solved"
	if mode == "autoplay" {
		word = "won"
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	pct := 0.0
	if len(secs) > 0 {
		pct = 100 * float64(ok) / float64(len(secs))
	}
	rate := fmt.Sprintf("%.1f%%", pct)
	if mode == "autoplay" && len(secs) > 0 {
		// A fair game's result depends on the sampling seed as well as the
		// deal, so a win rate is an estimate; the interval says how rough.
		lo, hi := wilson(ok, len(secs))
		rate += fmt.Sprintf(", 95%% interval %.1f-%.1f%%", 100*lo, 100*hi)
	}
	s := fmt.Sprintf("%s %d/%d (%s), time median %.3fs p90 %.3fs max %.3fs, %d job(s)",
		word, ok, len(secs), rate, q(0.5), q(0.9), q(1), jobs)
	if mode == "solve" {
		if len(moves) > 0 {
			// Lines count every move: card moves, deals and removals; "by
			// hand" leaves out the removals, which the page makes itself.
			slices.Sort(moves)
			slices.Sort(found)
			slices.Sort(hand)
			s += fmt.Sprintf(", line median %d moves p90 %d (as found: median %d; by hand: median %d p90 %d)",
				moves[len(moves)/2], moves[min(len(moves)-1, int(0.9*float64(len(moves))))], found[len(found)/2],
				hand[len(hand)/2], hand[min(len(hand)-1, int(0.9*float64(len(hand))))])
		}
		s += fmt.Sprintf(", %.0f nodes/s, peak search tables %s, process memory %s",
			float64(nodes)/max(nodeSecs, 1e-9), mib(int64(peak)), mib(int64(ms.Sys)))
	} else if len(secs) > 0 {
		s += fmt.Sprintf(", %.3fs a move on average, %.2f of 8 suits completed on average", perMove/float64(len(secs)), completed/float64(len(secs)))
	}
	return s
}

// wilson is the 95% Wilson score interval for k successes in n trials
// (n > 0). Unlike p ± 1.96·se it stays inside [0, 1] and is not empty at
// 0 or n wins, which matters for rates near 0% and 100%.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.96
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / d
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, mid-half), min(1, mid+half)
}

// The terminal-play hint command.
func init() { spiderExtraCommands["hint"] = hintLine }

// errNoHint is what the hint command reports when nothing can be played.
var errNoHint = errors.New("no move to suggest: the game is won or stuck")

// hintLine returns the hint for the terminal: the move in play notation.
func hintLine(ctx context.Context, g *spider.Game) (string, error) {
	m, err := solver.Hint(ctx, g)
	if errors.Is(err, solver.ErrNoMove) {
		return "", errNoHint
	}
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// winnableDeal picks a deal proven winnable from the cache for the options.
func winnableDeal(o spider.Options, pick uint64) (uint64, error) {
	n, ok := solver.WinnableDeal(o.Variant, o.Suits, pick)
	if !ok {
		return 0, fmt.Errorf("no proven-winnable %s deals with %d suit(s) are cached", o.Variant, o.Suits)
	}
	return n, nil
}
