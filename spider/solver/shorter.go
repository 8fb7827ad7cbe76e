package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// Looking for a shorter line once Solve has a win (docs/solver.md,
// "Shorter lines"). The staged search decides whether a deal is won; once
// it has a line, more searches look for a shorter one, each bounded by a
// multiple of the nodes the search took, so that they cost a small
// multiple of the solve and never change its verdict:
//
//   - beam searches over the whole game with the full-information
//     evaluation and a beam for each number of rows dealt (beam.go,
//     beam4.go), whose lines are short where they win;
//   - the staged search again with a stronger preference for short lines
//     (againPenalty), which finds shorter lines at 4 suits but solves
//     fewer deals within a budget, so it cannot be the first search;
//   - last, at 4 suits, shortcuts through the neighbourhood of the best
//     line (neighbor.go).
//
// Every line is shortened (shorten) and replayed with the engine's checked
// moves; the shortest that wins is kept.

// fullBeam is a beam of the portfolio: its width and its weights.
type fullBeam struct {
	width int
	w     *fullWeights
}

// Knobs of the passes, variables so that experiments can vary them.
var (
	// fullBeams (4 suits), fullBeamsFew (2 suits) and fullBeamsOne are the beams
	// with the full-information evaluation and a beam for each number of
	// rows dealt (beam4.go), run in turn; each may generate fullFactor
	// times the search's nodes, within [fullMin, fullMax] ([fullMinFew,
	// fullMax] at 1 and 2 suits). When none of them wins, one more runs
	// with fullBuild, as wide as the last.
	//
	// Every beam stops once it is as long as the line to beat, and when a
	// beam shortens the line the second staged search is skipped:
	// measured, it then rarely shortens it further (on deals 1-100 at 1
	// and at 2 suits, one line came out longer: 2 suits, deal 58, 137 → 144).
	fullBeams          = []fullBeam{{200, &full4}, {300, &full4Strict}}
	fullBeamsFew       = []fullBeam{{100, &full4}}
	fullBeamsOne       = []fullBeam{{100, &full1}}
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

// improver holds what the further searches share: the position, the
// limits and what is left of them, and the best line so far.
type improver struct {
	ctx      context.Context
	p        *spider.Position
	lim      Limits
	start    time.Time
	deadline time.Time // zero: none
	nodes    int64     // the first search's
	spent    int64     // the further searches'
	// reserve is kept out of what the searches before the shortcut pass
	// may spend, so that under a node limit the pass has its share.
	reserve int64
	line    []spider.Move
	// skip is how many of the portfolio's first beams to leave out (they
	// ran before and lost); -1 leaves out every beam and the second
	// staged search (the first beam won: its line is short already).
	skip int
}

// shorter looks for a winning line from p shorter than line, which the
// search found in nodes nodes under lim (started at start). It returns
// the shortest line found and the nodes it generated. It stays within
// what lim leaves (nodes, time, ctx).
func shorter(ctx context.Context, p *spider.Position, lim Limits, start time.Time, line []spider.Move, nodes int64) ([]spider.Move, int64) {
	return shorterSkip(ctx, p, lim, start, line, nodes, 0)
}

// shorterSkip is shorter with the improver's skip.
func shorterSkip(ctx context.Context, p *spider.Position, lim Limits, start time.Time, line []spider.Move, nodes int64, skip int) ([]spider.Move, int64) {
	im := &improver{ctx: ctx, p: p, lim: lim, start: start, nodes: nodes, line: line, skip: skip}
	if lim.Time > 0 {
		im.deadline = start.Add(lim.Time)
	}
	if p.Suits() >= nbSuits {
		// The shortcut pass is the cheapest for what it finds: the
		// analysis gives a position a million nodes, which a beam at 4
		// suits would spend in vain.
		im.reserve = min(max(nodes/nbShare, nbMin), nbMax)
	}
	if !im.beams() && im.skip >= 0 {
		im.again()
	}
	im.shortcut()
	return im.line, im.spent
}

// room is want cut to what the node limit leaves.
func (im *improver) room(want int64) int64 {
	if im.lim.Nodes > 0 {
		want = min(want, im.lim.Nodes-im.nodes-im.spent-im.reserve)
	}
	return want
}

// out reports whether the context or the time limit has ended the search.
func (im *improver) out() bool {
	return im.ctx.Err() != nil || !im.deadline.IsZero() && time.Now().After(im.deadline)
}

// keep makes cand the best line if, shortened, it is shorter and wins.
// limit sizes the shortening's work.
func (im *improver) keep(cand []spider.Move, limit int64) bool {
	// A line as found is long: only shortened can it be compared.
	if len(cand) == 0 || im.out() {
		return false
	}
	cand = shorten(im.p, cand, shortenLimit(limit))
	if len(cand) < len(im.line) && wins(im.p, cand) {
		im.line = cand
		return true
	}
	return false
}

// beams runs the full-information beams and reports whether one of them
// shortened the line.
func (im *improver) beams() bool {
	portfolio, least := fullBeams, fullMin
	switch {
	case im.p.Suits() == 1:
		portfolio, least = fullBeamsOne, fullMinFew
	case im.p.Suits() < 4:
		portfolio, least = fullBeamsFew, fullMinFew
	}
	run := func(width int, w *fullWeights) bool {
		n := im.room(min(max(fullFactor*im.nodes, least), fullMax))
		if n <= 0 || im.out() {
			return false
		}
		b := &beamer{ctx: im.ctx, deadline: im.deadline, fw: w, perStage: true, maxLevels: len(im.line)}
		cand, ok := b.run(im.p, width, int(n))
		im.spent += int64(b.gen)
		return ok && im.keep(cand, int64(b.gen))
	}
	from, won := im.skip, false
	if im.skip < 0 {
		// The first beam won: the others compete with its line only
		// where it is long (firstLong), and the fallback is not needed.
		from, won = len(portfolio), true
		if len(im.line) > firstLong {
			from = 1
		}
	}
	for _, c := range portfolio[min(from, len(portfolio)):] {
		won = run(c.width, c.w) || won
	}
	if !won {
		// None won: the former weights, which win some deals the
		// others do not (at 1 suit no card lies on another suit's card,
		// so they are full1 without the landing credit; 1-suit deal 2:
		// the beam with full1 dies out, this one wins).
		won = run(portfolio[len(portfolio)-1].width, &fullBuild)
	}
	return won
}

// again runs the staged search again with a stronger preference for short
// lines.
func (im *improver) again() {
	n := im.room(max(againFactor*im.nodes, againMin))
	if n <= 0 || im.out() {
		return
	}
	l := im.lim
	l.Nodes = n
	if im.lim.Time > 0 {
		l.Time = im.lim.Time - time.Since(im.start)
		if l.Time <= 0 {
			return
		}
	}
	s := newSearch(im.ctx, im.p, l)
	s.portfolio = weightSets
	s.depthPen = againPenalty
	r := s.run()
	im.spent += r.Nodes
	if r.Status == Solved {
		im.keep(r.Moves, r.Nodes)
	}
}

// shortcut runs the shortcut pass through the best line's neighbourhood,
// with the reserve the searches before it left.
func (im *improver) shortcut() {
	n := im.reserve
	im.reserve = 0
	n = im.room(n)
	if im.lim.MemoryBytes > 0 {
		n = min(n, im.lim.MemoryBytes/nbBytes)
	}
	if n <= 0 || im.out() {
		return
	}
	cand, gen := neighbors(im.ctx, im.deadline, im.p, im.line, int(n))
	im.spent += gen
	if len(cand) < len(im.line) && wins(im.p, cand) {
		im.line = cand
	}
}
