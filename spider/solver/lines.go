package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// A solve that shows its line (Solve) at 4 suits starts with the beam
// that finds short lines (docs/solver.md, "The line's beam first"): the
// first of the line's beams, width 200 with full4. On most deals it wins
// in about a million positions, a fraction of a second, and then the
// verdict and a short line come together, where the staged search's line
// needed the beams after it. Where it loses it dies out or stops early
// (firstLevels), and the staged search runs as before with what is left
// of the limits; the beam is not run again after it.

// Knobs of the first beam.
var (
	// firstLimit is the most positions the first beam generates.
	firstLimit int64 = 3_000_000
	// firstLevels ends the first beam after so many levels: the staged
	// search's lines are about 200 moves long after cutting, which is
	// what its beams had to beat.
	firstLevels = 250
	// firstLong: once the first beam has won, the portfolio's other
	// beams look for a shorter line only where its line (shortened) has
	// more moves than this (the second staged search never does). On
	// 4-suit deals 1-25 (20 won by the first beam) they took the lines
	// from 2740 moves in all to 2696 but the median solve from 0.32 to
	// 0.60 s of CPU; 28 of those 44 moves came from the 5 lines longer
	// than 140.
	firstLong = 140
)

// firstBeam runs the line's first beam from p within lim (started at
// start). It returns the beam's Result: Solved with its line, or the
// positions it spent, and whether it won.
func firstBeam(ctx context.Context, p *spider.Position, lim Limits, start time.Time) (Result, bool) {
	limit := firstLimit
	if lim.Nodes > 0 {
		limit = min(limit, lim.Nodes/2)
	}
	c := fullBeams[0]
	if limit <= 0 || lim.MemoryBytes > 0 && int64(c.width)*wideBytes > lim.MemoryBytes {
		return Result{}, false
	}
	b := &beamer{ctx: ctx, fw: c.w, perStage: true, maxLevels: firstLevels}
	if lim.Time > 0 {
		b.deadline = start.Add(lim.Time)
	}
	line, ok := b.run(p, c.width, int(limit))
	r := Result{Nodes: int64(b.gen), PeakBytes: b.bytes()}
	if !ok {
		return r, false
	}
	r.Status, r.Found = Solved, len(line)
	r.Moves = shorten(p, line, shortenLimit(r.Nodes))
	return r, true
}

// lessBy is lim less nodes already spent and the time since start.
func lessBy(lim Limits, nodes int64, start time.Time) Limits {
	if lim.Nodes > 0 {
		lim.Nodes = max(lim.Nodes-nodes, 1)
	}
	if lim.Time > 0 {
		lim.Time = max(lim.Time-time.Since(start), time.Nanosecond)
	}
	return lim
}

// improve runs the further searches for a shorter line than line (found
// in nodes nodes from p under lim, started at start), leaving out the
// first skip beams (-1: every beam), and returns the best line and the
// nodes in all.
func improve(ctx context.Context, p *spider.Position, lim Limits, start time.Time, line []spider.Move, nodes int64, skip int) ([]spider.Move, int64) {
	line, extra := shorterSkip(ctx, p, lim, start, line, nodes, skip)
	return line, nodes + extra
}
