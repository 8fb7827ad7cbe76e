package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// maxValueDeals bounds each range of value-train, whose results are
// held a slot a deal (and a deal's labels take about a minute).
const maxValueDeals = 100_000

// maxValueLine bounds a line of --data-in: writeValueData writes a deal,
// 0 or 1 and the features in at most about 500 bytes.
const maxValueLine = 1 << 10

// spider value-train: the maintenance command that trains the fair
// player's learned value again (docs/solver.md, "The learned value").
// It is for whoever changes the model.

// valueTrainFlags are the flags of spider value-train.
type valueTrainFlags struct {
	suits            int
	deals, held      string
	nodes, lineNodes int64
	l2               float64
	out              string
	dataOut, dataIn  string
	jobs             int
	fair             *solver.FairOptions
}

func runSpiderValueTrain(fs *pflag.FlagSet) runFunc {
	var f valueTrainFlags
	fs.IntVar(&f.suits, "suits", 4, "suits in play: 1, 2 or 4")
	fs.StringVar(&f.deals, "deals", "1001-1040", "training deals, A-B (never the measured deals 1-400)")
	fs.StringVar(&f.held, "held", "3001-3010", "held-out deals, A-B: scored, not trained on")
	fs.Int64Var(&f.nodes, "label-nodes", 100_000, "search nodes of the full-information solve that labels a position")
	fs.Int64Var(&f.lineNodes, "line-nodes", 2_000_000, "search nodes to solve each deal; its winning line's positions are labelled too (0: the fair player's games only)")
	fs.Float64Var(&f.l2, "l2", 1, "L2 penalty on the weights")
	fs.StringVar(&f.out, "out", "", "write the model to this `file` (spider/solver/value.txt)")
	fs.StringVar(&f.dataOut, "data-out", "", "append every labelled position to this `file`, a line each, as it is made")
	fs.StringVar(&f.dataIn, "data-in", "", "read labelled positions from these comma-separated `files` (as --data-out writes them) instead of playing; --deals and --held pick the sets")
	fs.IntVar(&f.jobs, "jobs", 1, "deals labelled at once (one core each)")
	f.fair = fairFlags(fs, " (the player whose games are labelled)")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("spider value-train: unexpected argument %q", pos[0])
		}
		ranges, err := f.check()
		if err != nil {
			return err
		}
		return valueTrain(ctx, env, &f, ranges)
	}
}

// check refuses bad flags and returns the --deals and --held ranges. The
// ranges and --out are checked here, before any work, so that a bad one
// costs nothing and leaves no --data-out file behind.
func (f *valueTrainFlags) check() ([2][2]uint64, error) {
	var ranges [2][2]uint64
	if err := card.CheckSuits(f.suits); err != nil {
		return ranges, flagErr("--suits: %w", err)
	}
	if err := checkFair(f.fair, "spider value-train"); err != nil {
		return ranges, err
	}
	if err := firstBroken("spider value-train",
		flagRule{"label-nodes", f.nodes, f.nodes < 1, "at least 1"},
		flagRule{"line-nodes", f.lineNodes, f.lineNodes < 0, "at least 0"},
		flagRule{"l2", f.l2, f.l2 < 0, "at least 0"}); err != nil {
		return ranges, err
	}
	if f.jobs < 1 || f.jobs > maxJobs {
		return ranges, flagErr("%s: want 1 to %d", flagValue("jobs", f.jobs), maxJobs)
	}
	for i, r := range []struct{ flag, val string }{{"deals", f.deals}, {"held", f.held}} {
		from, to, err := parseRange(r.val)
		if err != nil {
			return ranges, flagErr("--%s: %w", r.flag, err)
		}
		if from <= 400 {
			return ranges, flagErr("%s: deals 1-400 are the measured deals; train on others", flagValue(r.flag, r.val))
		}
		if to-from >= maxValueDeals {
			return ranges, flagErr("%s: at most %d deals at a time", flagValue(r.flag, r.val), maxValueDeals)
		}
		ranges[i] = [2]uint64{from, to}
	}
	if f.out != "" {
		if fi, err := os.Stat(filepath.Dir(f.out)); err != nil || !fi.IsDir() {
			return ranges, usageErr("%s: no such directory %s", flagValue("out", f.out), filepath.Dir(f.out))
		}
	}
	return ranges, nil
}

// valueTrain gathers the labelled positions of the training and held-out
// deals (played here, or read from --data-in), fits the value to the
// first, scores it on both and prints the model (and writes it to --out).
func valueTrain(ctx context.Context, env *Env, f *valueTrainFlags, ranges [2][2]uint64) error {
	var dataW io.Writer
	if f.dataOut != "" {
		fl, err := os.OpenFile(f.dataOut, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer fl.Close()
		dataW = fl
	}
	var loaded []solver.ValueSample
	if f.dataIn != "" {
		for _, name := range strings.Split(f.dataIn, ",") {
			s, err := readValueData(name)
			if err != nil {
				return err
			}
			loaded = append(loaded, s...)
		}
	}
	collect := func(r [2]uint64) ([]solver.ValueSample, error) {
		if f.dataIn != "" {
			return samplesOfDeals(loaded, r[0], r[1]), nil
		}
		return labelDeals(ctx, env, f, r[0], r[1], dataW)
	}
	train, err := collect(ranges[0])
	if err != nil {
		return err
	}
	test, err := collect(ranges[1])
	if err != nil {
		return err
	}
	fit, err := solver.FitValue(train, f.l2)
	if err != nil {
		return err
	}
	text := solver.FormatValue(valueReport(f, fit, train, test), map[int]*solver.ValueFit{f.suits: fit})
	fmt.Fprint(env.Stdout, text)
	if f.out != "" {
		return saveFile(f.out, text)
	}
	return nil
}

// samplesOfDeals is the samples of the deals from to to, in their order.
func samplesOfDeals(all []solver.ValueSample, from, to uint64) []solver.ValueSample {
	var in []solver.ValueSample
	for _, x := range all {
		if x.Deal >= from && x.Deal <= to {
			in = append(in, x)
		}
	}
	return in
}

// labelDeals labels the positions of the deals from to to, --jobs deals at
// once, printing a line as each deal is done and appending its samples to
// dataW (if not nil) then, so that a long run interrupted keeps what it
// made. The samples come back in deal order; the first deal's error, if
// any, is returned instead.
func labelDeals(ctx context.Context, env *Env, f *valueTrainFlags, from, to uint64, dataW io.Writer) ([]solver.ValueSample, error) {
	so := spider.Options{Variant: spider.Arachnid, Suits: f.suits}
	got := make([][]solver.ValueSample, to-from+1)
	errs := make([]error, len(got))
	next := make(chan int)
	var mu sync.Mutex // the workers' writes to dataW and standard output
	var wg sync.WaitGroup
	for range f.jobs {
		wg.Add(1)
		go func() { // exits when next is closed
			defer wg.Done()
			for i := range next {
				start := time.Now()
				got[i], errs[i] = solver.ValueData(ctx, from+uint64(i), so, f.nodes, f.lineNodes, *f.fair)
				mu.Lock()
				if dataW != nil && errs[i] == nil {
					// A lost write would silently drop labelled positions.
					if err := writeValueData(dataW, got[i]); err != nil {
						errs[i] = fmt.Errorf("--data-out: %w", err)
					}
				}
				fmt.Fprintf(env.Stdout, "deal %d: %d positions, %.0f%% won, %.1fs\n", from+uint64(i), len(got[i]), 100*wonShare(got[i]), time.Since(start).Seconds())
				mu.Unlock()
			}
		}()
	}
	for i := range got {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []solver.ValueSample
	for i := range got {
		if errs[i] != nil {
			return nil, errs[i]
		}
		all = append(all, got[i]...)
	}
	return all, nil
}

// valueReport is the model's header: how it was trained, so that it can
// be made again, and how well it does on the training and held-out sets.
func valueReport(f *valueTrainFlags, fit *solver.ValueFit, train, test []solver.ValueSample) []string {
	o := f.fair
	how := fmt.Sprintf("--label-nodes %d --line-nodes %d, the labelled player: --samples %d --nodes %d --judge-nodes %d --rollouts=%v",
		f.nodes, f.lineNodes, o.Samples, o.Nodes, o.JudgeNodes, o.Rollouts)
	if f.dataIn != "" {
		how = "--data-in " + f.dataIn
	}
	report := []string{
		fmt.Sprintf("trained by: cardtable spider value-train --suits %d --deals %s --held %s --l2 %g %s", f.suits, f.deals, f.held, f.l2, how),
	}
	for _, set := range []struct {
		name string
		s    []solver.ValueSample
	}{{"train", train}, {"held-out", test}} {
		ll, acc := fit.Score(set.s)
		report = append(report, fmt.Sprintf("%s: %d positions, %.1f%% won, log-loss %.4f, accuracy %.1f%% (base rate %.1f%%)",
			set.name, len(set.s), 100*wonShare(set.s), ll, 100*acc, 100*max(wonShare(set.s), 1-wonShare(set.s))))
	}
	return report
}

// writeValueData writes samples a line each: deal, 1 if won else 0, and
// the features.
func writeValueData(w io.Writer, samples []solver.ValueSample) error {
	var b strings.Builder
	for _, x := range samples {
		won := 0
		if x.Won {
			won = 1
		}
		fmt.Fprintf(&b, "%d %d", x.Deal, won)
		for _, v := range x.X {
			fmt.Fprintf(&b, " %g", v)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// readValueData reads what writeValueData wrote, as every file a command
// reads (readInputFile: a regular file of at most maxValueData bytes);
// a file that is not value data is bad input too.
func readValueData(name string) ([]solver.ValueSample, error) {
	b, err := readInputFile(name, maxValueData, "a value data file")
	if err != nil {
		return nil, err
	}
	s, err := parseValueData(name, string(b))
	if err != nil {
		return nil, badInput(err)
	}
	return s, nil
}

// parseValueData reads the lines writeValueData writes, from the file
// name; a line that is not one (a hand edit, a file cut short, a line
// over maxValueLine) is an error naming the file and line.
func parseValueData(name, text string) ([]solver.ValueSample, error) {
	var out []solver.ValueSample
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if len(line) > maxValueLine {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes, the limit", name, i+1, maxValueLine)
		}
		fs := strings.Fields(line)
		var x solver.ValueSample
		if len(fs) != 2+len(x.X) {
			return nil, fmt.Errorf("%s:%d: want %d fields (deal, won 0 or 1, %d features)", name, i+1, 2+len(x.X), len(x.X))
		}
		var err error
		if x.Deal, err = strconv.ParseUint(fs[0], 10, 64); err != nil || x.Deal == 0 {
			return nil, fmt.Errorf("%s:%d: bad deal %q", name, i+1, fs[0])
		}
		if fs[1] != "0" && fs[1] != "1" {
			return nil, fmt.Errorf("%s:%d: won is %q, want 0 or 1", name, i+1, fs[1])
		}
		x.Won = fs[1] == "1"
		for j := range x.X {
			x.X[j], err = strconv.ParseFloat(fs[2+j], 64)
			if err != nil || math.IsNaN(x.X[j]) || math.IsInf(x.X[j], 0) {
				return nil, fmt.Errorf("%s:%d: bad feature %q", name, i+1, fs[2+j])
			}
		}
		out = append(out, x)
	}
	return out, nil
}

func wonShare(s []solver.ValueSample) float64 {
	if len(s) == 0 {
		return 0
	}
	n := 0
	for _, x := range s {
		if x.Won {
			n++
		}
	}
	return float64(n) / float64(len(s))
}
