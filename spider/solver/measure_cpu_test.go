//go:build measure

package solver

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"cardtable/spider"
)

var measureCPU = flag.Duration("cpu", 30*time.Second, "CPU time a deal may take")

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestMeasureSolveCPU solves the deals of -deals one at a time with Solve
// and stops each once the process has used -cpu of CPU time for it, so
// that a loaded machine stretches the run but not the verdicts: run it
// with GOMAXPROCS=1 (docs/benchmarks.md, "Deals 1-1000").
//
//	GOMAXPROCS=1 go test -tags measure -run TestMeasureSolveCPU -timeout 0 -v ./spider/solver -args -deals 1-1000 -suits 4
func TestMeasureSolveCPU(t *testing.T) {
	var unknown []uint64
	var cpus, verdicts []time.Duration
	lost := 0
	for _, d := range measureRange(t) {
		p, err := spider.NewDeal(d, spider.Spider, spider.Rules{Suits: *measureSuits})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		c0 := cpuTime()
		done := make(chan struct{})
		go func() { // exits when the solve is done or the CPU time is up
			tk := time.NewTicker(10 * time.Millisecond)
			defer tk.Stop()
			for {
				select {
				case <-done:
					return
				case <-tk.C:
					if cpuTime()-c0 >= *measureCPU {
						cancel()
						return
					}
				}
			}
		}()
		r := Solve(ctx, p, Limits{MemoryBytes: 1 << 30})
		close(done)
		cancel()
		cpu := cpuTime() - c0
		// The CPU time to the verdict, in proportion to the wall clock.
		vcpu := cpu
		if r.Elapsed > 0 {
			vcpu = time.Duration(float64(cpu) * float64(r.Verdict) / float64(r.Elapsed))
		}
		switch r.Status {
		case Solved:
			replay(t, p, r.Moves)
			cpus = append(cpus, cpu)
			verdicts = append(verdicts, vcpu)
		case Unsolvable:
			lost++
			verdicts = append(verdicts, vcpu)
		default:
			unknown = append(unknown, d)
		}
		fmt.Printf("deal %d: %s CPU %.3fs (verdict about %.3fs) wall %.3fs %d nodes %d moves\n",
			d, r.Status, cpu.Seconds(), vcpu.Seconds(), r.Elapsed.Seconds(), r.Nodes, len(r.Moves))
	}
	med := func(ds []time.Duration) float64 {
		if len(ds) == 0 {
			return 0
		}
		slices.Sort(ds)
		return ds[len(ds)/2].Seconds()
	}
	fmt.Printf("deals %s, %d suits: %d solved, %d unsolvable, %d unknown %v; verdict CPU median about %.3fs; solve with its line CPU median %.3fs\n",
		*measureDeals, *measureSuits, len(cpus), lost, len(unknown), unknown, med(verdicts), med(cpus))
}
