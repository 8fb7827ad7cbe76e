package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

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

func (sf *solveFlags) register(fs *pflag.FlagSet) {
	sf.gameFlags.register(fs)
	fs.StringVar(&sf.load, "load", "", "start from the game saved in `file` (its current position)")
	fs.StringVar(&sf.layout, "layout", "", "start from a position `file` in the layout format (docs/formats.md)")
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
		return nil, flagErr("give only one of --deal, --winnable, --load and --layout")
	}
	switch {
	case sf.load != "":
		return loadSpider(sf.load)
	case sf.layout != "":
		o, err := sf.options()
		if err != nil {
			return nil, err
		}
		p, err := readLayout(sf.layout, o)
		if err != nil {
			return nil, err
		}
		return spider.NewGameAt(p, o)
	}
	return sf.newGame()
}

// inWords lists names as a sentence does: "a, b and c".
func inWords(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// describe names the game for summaries.
func describe(g *spider.Game) string {
	o := g.Options()
	what := "custom position"
	if g.Deal() != 0 {
		what = fmt.Sprintf("deal %d", g.Deal())
	}
	return fmt.Sprintf("%s (%s, %s)", what, o.Variant, plural(o.Suits, "suit"))
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

func runSpiderSolve(fs *pflag.FlagSet) runFunc {
	var sf solveFlags
	sf.register(fs)
	var limit time.Duration
	limitFlag := durationVar(fs, &limit, "time", 30*time.Second, "time limit (0: none)")
	nodes := fs.Int64("nodes", 0, "node limit (0: none)")
	mem := fs.Int64("memory", 1<<30, "memory limit for the search tables, in bytes (0: none)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider solve: unexpected argument %q (a saved game is read with --load FILE)", pos[0])
		}
		if err := firstBroken("spider solve",
			flagRule{"time", limitFlag, limit < 0, noLimitWant},
			flagRule{"nodes", *nodes, *nodes < 0, noLimitWant},
			flagRule{"memory", *mem, *mem < 0, noLimitWant}); err != nil {
			return err
		}
		g, err := sf.game()
		if err != nil {
			return err
		}
		r := solver.Solve(ctx, g.Pos(), solver.Limits{Time: limit, Nodes: *nodes, MemoryBytes: *mem})
		moves := playable(g, r.Moves)
		if sf.json {
			return writeJSON(env.Stdout, map[string]any{
				"deal":           g.Deal(),
				"variant":        g.Options().Variant.String(),
				"suits":          g.Options().Suits,
				"result":         r.Status.String(),
				"stoppedBy":      stoppedBy(r),
				"moves":          moves,
				"found":          r.Found,
				"nodes":          r.Nodes,
				"seconds":        r.Elapsed.Seconds(),
				"verdictSeconds": r.Verdict.Seconds(),
				"peakBytes":      r.PeakBytes,
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
func fairFlags(fs *pflag.FlagSet, note string) *solver.FairOptions {
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
	fs.BoolVar(&o.Value, "value", o.Value, "choose by the learned value in the sampled worlds instead of the judge and rollouts"+note)
	fs.IntVar(&o.ValueAhead, "value-ahead", o.ValueAhead, "with --value, how far each world looks past a line: 0 the position it reaches, 1 the best before the next card turns, 2 the best at the end of a fair rollout to the next deal"+note)
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "sampling seed: the same seed, deal and options give the same game"+note)
	return &o
}

// checkFair rejects fair-player options that cannot play.
func checkFair(o *solver.FairOptions, cmd string) error {
	return firstBroken(cmd,
		flagRule{"samples", o.Samples, o.Samples < 1, "at least 1"},
		flagRule{"nodes", o.Nodes, o.Nodes < 1, "at least 1"},
		flagRule{"judge-nodes", o.JudgeNodes, o.JudgeNodes < 0, "at least 0"},
		flagRule{"endgame-worlds", o.EndgameWorlds, o.EndgameWorlds < 0, "at least 0"},
		flagRule{"endgame-nodes", o.EndgameNodes, o.EndgameNodes < 0, "at least 0"},
		flagRule{"deep-cands", o.DeepCands, o.DeepCands < 0, "at least 0"},
		flagRule{"deep-worlds", o.DeepWorlds, o.DeepWorlds < 0, "at least 0"},
		flagRule{"deep-nodes", o.DeepNodes, o.DeepNodes < 0, "at least 0"},
		flagRule{"deep-down", o.DeepDown, o.DeepDown < 0, "at least 0"},
		flagRule{"value-ahead", o.ValueAhead, o.ValueAhead < 0 || o.ValueAhead > 2, "0 to 2"})
}

// checkValue refuses --value for a suit count with no learned value,
// which would otherwise play the usual player unannounced.
func checkValue(o *solver.FairOptions, suits int, cmd string) error {
	if o.Value && !solver.HasValueModel(suits) {
		return flagErr("%s: --value: no learned value for %s (see docs/solver.md, \"The learned value\")", cmd, flagValue("suits", suits))
	}
	return nil
}

func runSpiderAutoplay(fs *pflag.FlagSet) runFunc {
	var sf solveFlags
	sf.register(fs)
	o := fairFlags(fs, "")
	trace := fs.Bool("trace", false, traceHelp)
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider autoplay: unexpected argument %q (a saved game is read with --load FILE)", pos[0])
		}
		if err := checkFair(o, "spider autoplay"); err != nil {
			return err
		}
		g, err := sf.game()
		if err != nil {
			return err
		}
		if err := checkValue(o, g.Options().Suits, "spider autoplay"); err != nil {
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

// The terminal-play hint command.
func init() { spiderExtraCommands["hint"] = hintLine }

// errNoHint is what the hint command reports when nothing can be played.
var errNoHint = errors.New("no move to suggest: the game is won or stuck")

// playHints keeps the lines of the terminal's hints (solver.Hinter), so
// that following them does not go back and forth; one player, so a few.
var playHints = solver.NewHinter(16)

// hintLine returns the hint for the terminal: the move in play notation.
func hintLine(ctx context.Context, g *spider.Game) (string, error) {
	m, err := playHints.Hint(ctx, g)
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
		return 0, fmt.Errorf("no proven-winnable %s deals with %s are cached", o.Variant, plural(o.Suits, "suit"))
	}
	return n, nil
}
