package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// Looking for a shorter line once Solve has a win (docs/solver.md,
// "Shorter lines"). The staged search decides whether a deal is won; once
// it has a line, two more searches look for a shorter one, each bounded by
// a multiple of the nodes the search took, so that they cost a small
// multiple of the solve and never change its verdict:
//
//   - beam searches over the whole game with the full-information
//     evaluation and a beam for each number of rows dealt (beam.go,
//     beam4.go), whose lines are short where they win;
//   - the staged search again with a stronger preference for short lines
//     (againPenalty), which finds shorter lines at 4 suits but solves
//     fewer deals within a budget, so it cannot be the first search.
//
// Every line is shortened (shorten) and replayed with the engine's checked
// moves; the shortest that wins is kept. Last, at 4 suits, shortcuts
// through the neighbourhood of that line (neighbor.go).

// A beam of the portfolio: its width and the weight of a face-down card.
type beamConf struct {
	width    int
	faceDown int32
}

// Knobs of the passes, variables so that experiments can vary them.
var (
	// beams are the beam searches of 1 and 2 suits with the evaluation
	// of the search, run in turn; each may generate beamFactor times the
	// search's nodes, within [beamMin, beamMax]. Since 26 November 04:55
	// none run: the full-information beam (fullBeamsFew) gives shorter
	// lines at 1 and 2 suits for fewer nodes than both of these
	// (docs/solver.md, "Shorter lines", 6).
	beams      []beamConf
	beamFactor int64 = 2
	beamMin    int64 = 300_000
	beamMax    int64 = 1_500_000

	// fullBeams (4 suits) and fullBeamsFew (1 and 2 suits) are the widths
	// of the beams with the full-information evaluation and a beam for
	// each number of rows dealt (beam4.go), run in turn; each may
	// generate fullFactor times the search's nodes, within [fullMin,
	// fullMax] ([fullMinFew, fullMax] at 1 and 2 suits).
	//
	// Every beam stops once it is as long as the line to beat, and when a
	// beam shortens the line the second staged search is skipped:
	// measured, it then rarely shortens it further (on deals 1-100 at 1
	// and at 2 suits, one line came out longer: 2 suits, deal 58, 137 → 144).
	fullBeams          = []int{200, 300}
	fullBeamsFew       = []int{100}
	fullFactor   int64 = 3
	fullMin      int64 = 3_000_000
	fullMinFew   int64 = 1_500_000
	fullMax      int64 = 4_000_000

	// againPenalty is the second staged search's depth penalty,
	// againFactor its node budget, in nodes of the first, and againMin its
	// least: a deal the first search solved quickly often needs several
	// times its nodes with the stronger preference, and such a budget is
	// still cheap.
	againPenalty int32 = 4
	againFactor  int64 = 2
	againMin     int64 = 1_000_000

	// nbShare is the budget of the shortcut pass through the line's
	// neighbourhood (neighbor.go), in nodes of the first search: a
	// nbShare-th of them, within [nbMin, nbMax]. Its tables are counted
	// as nbBytes bytes a position generated (measured: about 20 at their
	// peak), within Limits.MemoryBytes. It
	// runs with nbSuits suits or more: at 1 and 2 suits it shortened
	// lines by 0.2 moves a deal for 5-6% more nodes (docs/solver.md).
	nbShare int64 = 2
	nbMin   int64 = 100_000
	nbMax   int64 = 4_000_000
	nbBytes int64 = 64
	nbSuits       = 4
)

// shorter looks for a winning line from p shorter than line, which the
// search found in nodes nodes under lim (started at start). It returns
// the shortest line found and the nodes it generated. It stays within
// what lim leaves (nodes, time, ctx).
func shorter(ctx context.Context, p *spider.Position, lim Limits, start time.Time, line []spider.Move, nodes int64) ([]spider.Move, int64) {
	var spent int64
	// The shortcut pass at the end is the cheapest for what it finds: under
	// a node limit the searches before it leave it its share (the
	// analysis gives a position a million nodes, which a beam at 4 suits
	// would spend in vain).
	var reserve int64
	if p.Suits() >= nbSuits {
		reserve = min(max(nodes/nbShare, nbMin), nbMax)
	}
	room := func(want int64) int64 {
		if lim.Nodes > 0 {
			want = min(want, lim.Nodes-nodes-spent-reserve)
		}
		return want
	}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = start.Add(lim.Time)
	}
	out := func() bool {
		return ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline)
	}
	keep := func(cand []spider.Move, limit int64) {
		// A line as found is long: only shortened can it be compared.
		if len(cand) == 0 || out() {
			return
		}
		cand = shorten(p, cand, shortenLimit(limit))
		if len(cand) < len(line) && wins(p, cand) {
			line = cand
		}
	}
	beamWon := false
	for _, c := range beams {
		if p.Suits() >= 4 {
			// Measured: at 4 suits this beam wins no deal (it deals
			// into dead ends, or wanders without dealing).
			break
		}
		n := room(min(max(beamFactor*nodes, beamMin), beamMax))
		if n <= 0 || out() {
			break
		}
		w := weightSets[0]
		w.faceDown = c.faceDown
		b := &beamer{ctx: ctx, deadline: deadline, w: &w, stock: beamStock}
		b.maxLevels = len(line)
		cand, ok := b.run(p, c.width, int(n))
		spent += int64(b.gen)
		if ok {
			was := len(line)
			keep(cand, int64(b.gen))
			beamWon = beamWon || len(line) < was
		}
	}
	widths, least := fullBeams, fullMin
	if p.Suits() < 4 {
		widths, least = fullBeamsFew, fullMinFew
	}
	fullBeam := func(width int, w *fullWeights) {
		n := room(min(max(fullFactor*nodes, least), fullMax))
		if n <= 0 || out() {
			return
		}
		b := &beamer{ctx: ctx, deadline: deadline, fw: w, perStage: true, maxLevels: len(line)}
		cand, ok := b.run(p, width, int(n))
		spent += int64(b.gen)
		if ok {
			was := len(line)
			keep(cand, int64(b.gen))
			beamWon = beamWon || len(line) < was
		}
	}
	for _, width := range widths {
		fullBeam(width, &full4)
	}
	if !beamWon && p.Suits() > 1 {
		// None won: the former weights, which win some deals full4 does
		// not (at 1 suit no card lies on another suit's card, so they
		// are the same weights).
		fullBeam(widths[len(widths)-1], &fullBuild)
	}
	if n := room(max(againFactor*nodes, againMin)); n > 0 && !out() && !beamWon {
		l := lim
		l.Nodes = n
		if lim.Time > 0 {
			l.Time = lim.Time - time.Since(start)
		}
		if lim.Time == 0 || l.Time > 0 {
			s := newSearch(ctx, p, l)
			s.portfolio = weightSets
			s.depthPen = againPenalty
			r := s.run()
			spent += r.Nodes
			if r.Status == Solved {
				keep(r.Moves, r.Nodes)
			}
		}
	}
	// Last, on the best line only: shortcuts through its neighbourhood.
	n := reserve
	reserve = 0
	n = room(n)
	if lim.MemoryBytes > 0 {
		n = min(n, lim.MemoryBytes/nbBytes)
	}
	if n > 0 && !out() {
		cand, gen := neighbors(ctx, deadline, p, line, int(n))
		spent += gen
		if len(cand) < len(line) && wins(p, cand) {
			line = cand
		}
	}
	return line, spent
}
