package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// runSpiderPool proves deals spread over the whole deal range and prints
// the winnable ones as "VARIANT SUITS DEAL" lines, the format of
// spider/solver/winnable.txt (docs/solver.md, "The winnable pool"). The
// deals tried are solver.PoolCandidate(seed, variant, suits, i) for i from
// --from on, so the same flags print the same deals and a later run with
// --from at the last run's end appends new ones.
func runSpiderPool(fs *pflag.FlagSet) runFunc {
	suits := fs.Int("suits", 4, "suits in play: 1, 2 or 4")
	variant := fs.String("variant", "arachnid", "arachnid or spider")
	count := fs.Int("count", 2000, "stop after this many deals proven winnable")
	seed := fs.Uint64("seed", 24, "seed of the deal numbers tried")
	from := fs.Uint64("from", 0, "index of the first deal number tried (a later run continues where one ended)")
	nodes := fs.Int64("nodes", 6_000_000, "node limit per deal (0: none); unlike --time it gives the same result on any machine")
	var limit time.Duration
	limitFlag := durationVar(fs, &limit, "time", 0, "time limit per deal (0: none)")
	mem := fs.Int64("memory", 1<<30, "memory limit per deal's search tables, bytes (0: none)")
	jobs := fs.Int("jobs", 1, "deals solved at once (one core each)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider pool: unexpected argument %q", pos[0])
		}
		if err := card.CheckSuits(*suits); err != nil {
			return flagErr("--suits: %w", err)
		}
		v, err := spider.ParseVariant(*variant)
		if err != nil {
			return flagErr("--variant: %w", err)
		}
		if *count < 1 || *count > 1_000_000 {
			return flagErr("%s: want 1 to 1000000", flagValue("count", *count))
		}
		if *jobs < 1 || *jobs > maxJobs {
			return flagErr("%s: want 1 to %d", flagValue("jobs", *jobs), maxJobs)
		}
		if err := firstBroken("spider pool",
			flagRule{"nodes", *nodes, *nodes < 0, noLimitWant},
			flagRule{"time", limitFlag, limit < 0, noLimitWant},
			flagRule{"memory", *mem, *mem < 0, noLimitWant}); err != nil {
			return err
		}
		lim := solver.Limits{Nodes: *nodes, Time: limit, MemoryBytes: *mem}
		start := time.Now()
		proven, tried := 0, uint64(0)
		i := *from
		// Deals are solved in batches of --jobs and printed in index order, so
		// the output does not depend on --jobs.
		for proven < *count && ctx.Err() == nil {
			batch := make([]uint64, *jobs)
			ok := make([]bool, *jobs)
			done := make(chan int)
			for j := range batch {
				batch[j] = solver.PoolCandidate(*seed, v, *suits, i+uint64(j))
				go func() { // exits after one solve (ctx cuts it short)
					if batch[j] != 0 {
						_, ok[j] = solver.ProveWinnable(ctx, batch[j], v, *suits, lim)
					}
					done <- j
				}()
			}
			for range batch {
				<-done
			}
			if ctx.Err() != nil {
				break
			}
			for j, n := range batch {
				tried++
				i++
				if ok[j] {
					proven++
					fmt.Fprintf(env.Stdout, "%s %d %d\n", v, *suits, n)
					if proven == *count {
						break
					}
				}
			}
		}
		fmt.Fprintf(env.Stdout, "# spider pool --variant %s --suits %d --seed %d --nodes %d: indexes %d-%d, %d proven of %d tried, %.0fs (next: --from %d)\n",
			v, *suits, *seed, *nodes, *from, i-1, proven, tried, time.Since(start).Seconds(), i)
		return ctx.Err()
	}
}
