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
// have spent wideStart nodes, beams of growing width take turns with
// them while the beams have spent less than wideShare times the passes'
// nodes.

// Knobs of the wide beams, variables so that experiments can vary them.
var (
	// wideStart is the staged search's nodes before the first beam: the
	// median deal is solved in about a million, so those deals never pay
	// for a beam.
	wideStart int64 = 3_000_000
	// wideWidth is the first beam's width; each next one is twice as
	// wide, and after the one of wideMaxWidth no beam runs: on the
	// hardest deals measured every beam that won was at most 2000 wide,
	// and where none wins (deal 2: 1.2, 2.7 and 9.7 million positions at
	// 500, 1000 and 2000, each to its level limit) the staged search
	// keeps the rest of the time.
	wideWidth    = 500
	wideMaxWidth = 2000
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

// wideBeam runs the k-th wide beam (k from 0) and reports whether it won
// (the line in s.win). Its positions count as the search's nodes. When
// the limits leave no room for it, no beam runs again in this search.
func (s *search) wideBeam(k int) bool {
	width := min(wideWidth<<min(k, 20), wideMaxWidth)
	last := width >= wideMaxWidth
	if s.lim.MemoryBytes > 0 {
		for width > wideWidth && int64(width)*wideBytes > s.lim.MemoryBytes {
			width /= 2
			last = true // as wide as the memory allows
		}
	}
	limit := widePer * int64(width)
	if s.lim.Nodes > 0 {
		limit = min(limit, s.lim.Nodes-s.nodes-s.staged)
	}
	if limit <= 0 || s.lim.MemoryBytes > 0 && int64(width)*wideBytes > s.lim.MemoryBytes {
		s.wide = false
		return false
	}
	if last {
		s.wide = false
	}
	b := &beamer{ctx: s.ctx, deadline: s.deadline, fw: &full4, perStage: true, maxLevels: wideLevels}
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
