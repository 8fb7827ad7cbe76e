package solver

import (
	"time"
	"unsafe"

	"cardtable/spider"
)

// Wide beams as a second strategy of the full-information search at 4
// suits (docs/solver.md, "Wide beams beside the staged passes"). The staged search gives up on deals where every line it
// keeps deals too early: its stages keep a few hundred positions each and
// deal from the best few, so a position that must be reached through a
// long plateau of moves that look no better is pruned in every pass. A
// beam with every card known and a beam for each number of rows dealt
// (beam4.go) keeps thousands of positions a level for the whole game and
// wins there (Spider layout, 4 suits, deal 96: about 60 million nodes of
// the staged search, 25-30 s of a free core; a beam of width 500 wins in
// 3.5 million positions). A beam proves nothing when it fails, so it runs
// beside the staged search, not instead of it: once the staged passes
// have spent wideStart nodes, the beams of wideBeams (growing widths,
// then other evaluations) take turns with them while the beams have spent
// less than wideShare times the passes' nodes.

// Knobs of the wide beams, variables so that experiments can vary them.
var (
	// wideStart is the staged search's nodes before the first beam: the
	// median deal is solved in about a million, so those deals never pay
	// for a beam.
	wideStart int64 = 3_000_000
	// wideBeams are the wide beams in turn: full4 at growing widths,
	// then two other evaluations at width 1000. On the hardest deals
	// measured every full4 beam that won was at most 2000 wide, and where
	// none wins (deal 2: 1.2, 2.7 and 9.7 million positions at 500, 1000
	// and 2000, each to its level limit) the staged search keeps the rest
	// of the time. The last two use evaluations that win deals the others
	// lose at the same width (Spider layout: 210, which no full4 beam of
	// width 500-8000 wins, with fullBuild in 3.5 million positions) and
	// cost little where they lose (deal 2: 2.6 and 3.7 million). They
	// come after the full4 beams, so a deal decided before the third beam
	// has ended is searched exactly as before they were added.
	wideBeams = []fullBeam{{500, &full4}, {1000, &full4}, {2000, &full4}, {1000, &fullBuild}, {1000, &full1}}
	// widePer is a beam's budget in positions for each unit of width:
	// a beam that wins needs about 50 a level for some 150 levels
	// (deal 96 at width 500: 3.5 million over 148 levels).
	widePer int64 = 12_500
	// wideShare: the beams may spend wideShare times the staged
	// passes' nodes (a beam generates positions about three times as
	// fast as the staged search, so this is about 40% of the time).
	wideShare int64 = 2
	// wideLevels ends a beam that has not won after so many levels: the
	// winning lines of 4-suit deals are 130-250 moves long, and a beam
	// past that wanders on a plateau (deal 2 at width 500: 4 876 levels
	// in 12 million positions, no win).
	wideLevels = 400
	// wideBytes is a beam's memory for each unit of width, measured
	// from its tables' capacities (wideMem), to bound the width by
	// Limits.MemoryBytes before the beam starts.
	wideBytes int64 = 100_000
	// wideSuits: the beams run at this many suits or more; at 1 and 2
	// suits the staged search solves every deal measured within a
	// second.
	wideSuits = 4
)

// wideDue reports whether the next beam should run, the staged passes
// having spent staged nodes and the beams beamed.
func (s *search) wideDue(staged, beamed int64) bool {
	return s.wide && !s.exhOnly && staged >= wideStart && staged*wideShare >= beamed
}

// wideBeam runs the k-th wide beam (k from 0, wideBeams[k]) and reports
// whether it won (the line in s.win). Its positions count as the
// search's nodes. A beam wider than the memory limit holds is skipped;
// when the limits leave no room for any more, or the last has run, no
// beam runs again in this search.
func (s *search) wideBeam(k int) bool {
	if k >= len(wideBeams)-1 {
		s.wide = false
	}
	if k >= len(wideBeams) {
		return false
	}
	width, w := wideBeams[k].width, wideBeams[k].w
	if s.lim.MemoryBytes > 0 && int64(width)*wideBytes > s.lim.MemoryBytes {
		return false
	}
	limit := widePer * int64(width)
	if s.lim.Nodes > 0 {
		limit = min(limit, s.lim.Nodes-s.nodes-s.staged)
	}
	if limit <= 0 {
		s.wide = false
		return false
	}
	b := &beamer{ctx: s.ctx, deadline: s.deadline, fw: w, perStage: true, maxLevels: wideLevels}
	line, ok := b.run(&s.root, width, int(limit))
	s.nodes += int64(b.gen)
	s.peak = max(s.peak, b.bytes()+s.seen.bytes()+s.roots.bytes())
	if ok {
		s.win = line
		return true
	}
	switch {
	case s.ctx.Err() != nil:
		s.halt(Cancelled)
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		s.halt(TimeLimit)
	case s.lim.Nodes > 0 && s.nodes+s.staged >= s.lim.Nodes:
		s.halt(NodeLimit)
	}
	return false
}

// bytes is the memory b's tables hold, from their capacities.
func (b *beamer) bytes() int64 {
	pos := int64(unsafe.Sizeof(spider.Position{}))
	n := int64(cap(b.cur)+cap(b.next)) * (pos + int64(unsafe.Sizeof([spider.Piles]uint64{})+unsafe.Sizeof([spider.Piles]int32{})))
	n += int64(cap(b.cands)) * int64(unsafe.Sizeof(bcand{})+unsafe.Sizeof([2]uint64{})+4+4+8)
	for _, lv := range b.levels {
		n += int64(cap(lv)) * int64(unsafe.Sizeof(bnode{}))
	}
	return n + b.seen.bytes()
}
