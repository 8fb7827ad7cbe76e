package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// spider value-train: the maintenance command that trains the fair
// player's learned value again (docs/solver.md, "The learned value").
// It is for whoever changes the model.

func runSpiderValueTrain(fs *pflag.FlagSet) runFunc {
	suits := fs.Int("suits", 4, "suits in play: 1, 2 or 4")
	deals := fs.String("deals", "1001-1040", "training deals, A-B (never the measured deals 1-400)")
	held := fs.String("held", "3001-3010", "held-out deals, A-B: scored, not trained on")
	nodes := fs.Int64("label-nodes", 100_000, "search nodes of the full-information solve that labels a position")
	lineNodes := fs.Int64("line-nodes", 2_000_000, "search nodes to solve each deal; its winning line's positions are labelled too (0: the fair player's games only)")
	l2 := fs.Float64("l2", 1, "L2 penalty on the weights")
	out := fs.String("out", "", "write the model to this `file` (spider/solver/value.txt)")
	dataOut := fs.String("data-out", "", "append every labelled position to this `file`, a line each, as it is made")
	dataIn := fs.String("data-in", "", "read labelled positions from these comma-separated `files` (as --data-out writes them) instead of playing; --deals and --held pick the sets")
	jobs := fs.Int("jobs", 1, "deals labelled at once (one core each)")
	o := fairFlags(fs, " (the player whose games are labelled)")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("spider value-train: unexpected argument %q", pos[0])
		}
		if err := card.CheckSuits(*suits); err != nil {
			return usageErr("--suits: %v", err)
		}
		if err := checkFair(o, "spider value-train"); err != nil {
			return err
		}
		if *nodes < 1 || *lineNodes < 0 || *l2 < 0 {
			return usageErr("spider value-train: --label-nodes must be at least 1, --line-nodes at least 0 and --l2 at least 0")
		}
		if *jobs < 1 {
			return usageErr("--jobs must be at least 1")
		}
		var mu sync.Mutex
		var dataW io.Writer
		if *dataOut != "" {
			f, err := os.OpenFile(*dataOut, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			dataW = f
		}
		var loaded []solver.ValueSample
		if *dataIn != "" {
			for _, name := range strings.Split(*dataIn, ",") {
				s, err := readValueData(name)
				if err != nil {
					return err
				}
				loaded = append(loaded, s...)
			}
		}
		so := spider.Options{Variant: spider.Arachnid, Suits: *suits}
		collect := func(r string) ([]solver.ValueSample, error) {
			from, to, err := parseRange(r)
			if err != nil {
				return nil, usageErr("%v", err)
			}
			if from <= 400 {
				return nil, usageErr("spider value-train: deals 1-400 are the measured deals; train on others")
			}
			if *dataIn != "" {
				var in []solver.ValueSample
				for _, x := range loaded {
					if x.Deal >= from && x.Deal <= to {
						in = append(in, x)
					}
				}
				return in, nil
			}
			got := make([][]solver.ValueSample, to-from+1)
			errs := make([]error, len(got))
			next := make(chan int)
			var wg sync.WaitGroup
			for range *jobs {
				wg.Add(1)
				go func() { // exits when next is closed
					defer wg.Done()
					for i := range next {
						start := time.Now()
						got[i], errs[i] = solver.ValueData(ctx, from+uint64(i), so, *nodes, *lineNodes, *o)
						mu.Lock()
						if dataW != nil {
							writeValueData(dataW, got[i])
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
		train, err := collect(*deals)
		if err != nil {
			return err
		}
		test, err := collect(*held)
		if err != nil {
			return err
		}
		fit, err := solver.FitValue(train, *l2)
		if err != nil {
			return err
		}
		how := fmt.Sprintf("--label-nodes %d --line-nodes %d, the labelled player: --samples %d --nodes %d --judge-nodes %d --rollouts=%v",
			*nodes, *lineNodes, o.Samples, o.Nodes, o.JudgeNodes, o.Rollouts)
		if *dataIn != "" {
			how = "--data-in " + *dataIn
		}
		report := []string{
			fmt.Sprintf("trained by: cardtable spider value-train --suits %d --deals %s --held %s --l2 %g %s", *suits, *deals, *held, *l2, how),
		}
		for _, set := range []struct {
			name string
			s    []solver.ValueSample
		}{{"train", train}, {"held-out", test}} {
			ll, acc := fit.Score(set.s)
			report = append(report, fmt.Sprintf("%s: %d positions, %.1f%% won, log-loss %.4f, accuracy %.1f%% (base rate %.1f%%)",
				set.name, len(set.s), 100*wonShare(set.s), ll, 100*acc, 100*max(wonShare(set.s), 1-wonShare(set.s))))
		}
		text := solver.FormatValue(report, map[int]*solver.ValueFit{*suits: fit})
		fmt.Fprint(env.Stdout, text)
		if *out != "" {
			return os.WriteFile(*out, []byte(text), 0o644)
		}
		return nil
	}
}

// writeValueData writes samples a line each: deal, 1 if won else 0, and
// the features.
func writeValueData(w io.Writer, samples []solver.ValueSample) {
	for _, x := range samples {
		won := 0
		if x.Won {
			won = 1
		}
		fmt.Fprintf(w, "%d %d", x.Deal, won)
		for _, v := range x.X {
			fmt.Fprintf(w, " %g", v)
		}
		fmt.Fprintln(w)
	}
}

// readValueData reads what writeValueData wrote.
func readValueData(name string) ([]solver.ValueSample, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []solver.ValueSample
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fs := strings.Fields(line)
		var x solver.ValueSample
		if len(fs) != 2+len(x.X) {
			return nil, fmt.Errorf("%s:%d: want %d fields", name, i+1, 2+len(x.X))
		}
		var err error
		if x.Deal, err = strconv.ParseUint(fs[0], 10, 64); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		x.Won = fs[1] == "1"
		for j := range x.X {
			if x.X[j], err = strconv.ParseFloat(fs[2+j], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
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
