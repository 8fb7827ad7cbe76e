package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// spider bench: deals solved or played one after another, jobs at once,
// a line each and a summary (README "Benchmarks", docs/solver.md).

// benchResult is one deal's line in a benchmark.
type benchResult struct {
	deal   uint64
	ok     bool // solved or won
	status string
	secs   float64
	// verdict is the seconds to the verdict (solve), before the searches
	// for a shorter line.
	verdict float64
	// cpu is the process's CPU seconds during the deal (solve; a measure
	// of the work when one deal runs at a time, --jobs 1).
	cpu   float64
	nodes int64
	peak  int64
	moves int
	found int // solve: the line's length as the search found it, before shortening
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

func runSpiderBench(fs *pflag.FlagSet) runFunc {
	parse := benchFlags(fs)
	return func(ctx context.Context, env *Env, pos []string) error {
		b, err := parse(pos)
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

// benchFlags registers `spider bench`'s flags on fs; the function it
// returns checks them.
func benchFlags(fs *pflag.FlagSet) func(pos []string) (*bench, error) {
	mode := fs.String("mode", "solve", "solve (full information) or autoplay (fair play)")
	suits := fs.Int("suits", 4, "suits in play: 1, 2 or 4")
	variant := fs.String("variant", "arachnid", "arachnid or spider")
	deals := fs.String("deals", "1-10", "deal numbers, A-B")
	var limit time.Duration
	limitFlag := durationVar(fs, &limit, "time", 30*time.Second, "time limit per deal (solve)")
	mem := fs.Int64("memory", 1<<30, "memory limit per deal's search tables, bytes (solve)")
	jobs := fs.Int("jobs", 1, "deals run at once (one core each)")
	record := fs.String("record", "", "append the deals proven winnable to this `file` as 'VARIANT SUITS DEAL' lines")
	trace := fs.Bool("trace", false, traceHelp+" (autoplay)")
	o := fairFlags(fs, " (autoplay)")
	return func(pos []string) (*bench, error) {
		if len(pos) > 0 {
			return nil, usageErr("spider bench: unexpected argument %q", pos[0])
		}
		if *mode != "solve" && *mode != "autoplay" {
			return nil, flagErr("spider bench: %s: want solve or autoplay", flagValue("mode", *mode))
		}
		if err := card.CheckSuits(*suits); err != nil {
			return nil, flagErr("--suits: %w", err)
		}
		v, err := spider.ParseVariant(*variant)
		if err != nil {
			return nil, flagErr("--variant: %w", err)
		}
		from, to, err := parseRange(*deals)
		if err != nil {
			return nil, flagErr("--deals: %w", err)
		}
		if to-from >= 1_000_000 {
			return nil, flagErr("%s: at most a million deals at a time", flagValue("deals", *deals))
		}
		if *jobs < 1 || *jobs > maxJobs {
			return nil, flagErr("%s: want 1 to %d", flagValue("jobs", *jobs), maxJobs)
		}
		if err := firstBroken("spider bench",
			flagRule{"time", limitFlag, limit < 0, noLimitWant},
			flagRule{"memory", *mem, *mem < 0, noLimitWant}); err != nil {
			return nil, err
		}
		if err := checkFair(o, "spider bench"); err != nil {
			return nil, err
		}
		if err := checkValue(o, *suits, "spider bench"); err != nil {
			return nil, err
		}
		return &bench{mode: *mode, opts: spider.Options{Variant: v, Suits: *suits}, from: from, to: to,
			limit: limit, mem: *mem, jobs: *jobs, record: *record, trace: *trace, fair: o}, nil
	}
}

// one runs deal n.
func (b *bench) one(ctx context.Context, n uint64) benchResult {
	g, err := spider.NewGame(n, b.opts)
	if err != nil {
		return benchResult{deal: n, err: err}
	}
	if b.mode == "solve" {
		cpu := cpuSeconds()
		r := solver.Solve(ctx, g.Pos(), solver.Limits{Time: b.limit, MemoryBytes: b.mem})
		res := benchResult{deal: n, ok: r.Status == solver.Solved, status: statusText(r),
			secs: r.Elapsed.Seconds(), verdict: r.Verdict.Seconds(), cpu: cpuSeconds() - cpu, nodes: r.Nodes, peak: r.PeakBytes, moves: len(r.Moves), found: r.Found, byHand: byHand(r.Moves)}
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
		fmt.Fprintf(w, "deal %d: %s %.3fs (verdict %.3fs, CPU %.3fs) %d nodes %.0f nodes/s peak %s %d moves",
			r.deal, r.status, r.secs, r.verdict, r.cpu, r.nodes, float64(r.nodes)/max(r.secs, 1e-9), mib(r.peak), r.moves)
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
	var secs, verdicts, cpus []float64
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
		verdicts = append(verdicts, r.verdict)
		cpus = append(cpus, r.cpu)
		nodes += r.nodes
		nodeSecs += r.secs
		peak = max(peak, float64(r.peak))
		perMove += r.perMove
		completed += float64(r.completed)
	}
	q := func(f float64) float64 { return quantile(secs, f) }
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
	s := fmt.Sprintf("%s %d/%d (%s), time median %.3fs p90 %.3fs max %.3fs, %s",
		word, ok, len(secs), rate, q(0.5), q(0.9), q(1), plural(jobs, "job"))
	if mode == "solve" {
		// The time to the verdict leaves out the searches for a shorter
		// line, which only the places that show a line pay for.
		// The CPU time says what the work costs on a shared machine.
		if len(verdicts) > 0 {
			s += fmt.Sprintf(", verdict median %.3fs p90 %.3fs, CPU median %.3fs p90 %.3fs",
				quantile(verdicts, 0.5), quantile(verdicts, 0.9), quantile(cpus, 0.5), quantile(cpus, 0.9))
		}
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

// quantile is the f-quantile of v (0 when v is empty); it sorts v.
func quantile(v []float64, f float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[min(len(v)-1, int(f*float64(len(v))))]
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
