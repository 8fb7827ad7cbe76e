// Package solver searches Spider positions: a full-information solver that
// proves deals winnable (Solve), a fair hint that sees only what the player
// sees (Hint), a fair autoplayer built on it (Autoplay) and a cache of deal
// numbers proven winnable (WinnableDeal).
//
// Every move the solver makes comes from the engine (spider.Position.Legal,
// Do, Undo): the rules live only in package spider.
package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// Status is the outcome of a search.
type Status uint8

// Statuses.
const (
	// Unknown: a limit ran out (time, nodes, memory or the context) first.
	Unknown Status = iota
	// Solved: Result.Moves wins.
	Solved
	// Unsolvable: the search was exhaustive and found no win.
	Unsolvable
)

func (s Status) String() string {
	switch s {
	case Solved:
		return "solved"
	case Unsolvable:
		return "unsolvable"
	}
	return "unknown"
}

// Limit names what stopped a search that ended Unknown.
type Limit uint8

// Limits that stop a search.
const (
	NoLimit     Limit = iota // the search was not stopped
	TimeLimit                // Limits.Time ran out
	NodeLimit                // Limits.Nodes ran out
	MemoryLimit              // the tables grew past Limits.MemoryBytes
	Cancelled                // the context was cancelled or timed out
)

func (l Limit) String() string {
	switch l {
	case TimeLimit:
		return "time limit"
	case NodeLimit:
		return "node limit"
	case MemoryLimit:
		return "memory limit"
	case Cancelled:
		return "cancelled"
	}
	return "none"
}

// Limits bound a search. A zero field means no limit of that kind.
type Limits struct {
	Time        time.Duration
	Nodes       int64
	MemoryBytes int64
}

// Result is what Solve found.
type Result struct {
	Status Status
	// Moves is the winning line from the position given, when Solved.
	Moves []spider.Move
	// Found is the length of the line as the search found it, before
	// Solve shortened it into Moves.
	Found int
	// StoppedBy is the limit that ended an Unknown search, NoLimit
	// otherwise.
	StoppedBy Limit
	Nodes     int64
	Elapsed   time.Duration
	// Verdict is the time the search took to its verdict, before any
	// further search for a shorter line (Elapsed counts those too).
	Verdict time.Duration
	// PeakBytes is the most memory the search's own tables held at once
	// (node arrays, hash sets, queues), counted from their capacities.
	PeakBytes int64
}

// Solve searches p with every card known for a winning line. It returns
// Unsolvable only when the search was exhaustive (see docs/solver.md for
// the one standing simplification: complete runs are removed at once).
// It is deterministic for the same position and limits, except where the
// time limit or ctx cuts it short.
//
// Solve looks for lines a person can follow (docs/solver.md, "Shorter
// lines"): its search prefers positions reached in fewer moves, and the
// line found is shortened (see shorten) before it is returned;
// Result.Found is its length as found.
//
// Once it has a win, Solve spends a small multiple of the search's nodes
// on further searches for a shorter line (shorter); Result.Nodes counts
// them too. They never change the verdict.
func Solve(ctx context.Context, p *spider.Position, lim Limits) Result {
	return solveShort(ctx, p, lim, true)
}

// solveShort is Solve; with again false it skips the further searches
// for a shorter line, for callers that want only a verdict (the pool) or
// shorten one line of many themselves (Analyze).
func solveShort(ctx context.Context, p *spider.Position, lim Limits, again bool) Result {
	return solveMode(ctx, p, lim, again, false)
}

// solveMode is solveShort; with exhOnly every pass is unpruned, for the
// analysis's probes of points believed lost (search.exhOnly).
func solveMode(ctx context.Context, p *spider.Position, lim Limits, again, exhOnly bool) Result {
	start := time.Now()
	orig := lim
	var first Result // the line's beam, when it ran first and lost
	if again && !exhOnly && p.Suits() >= wideSuits {
		// A solve that shows its line starts with the beam that finds
		// short lines: where it wins, the verdict and a short line come
		// at once (lines.go).
		var won bool
		if first, won = firstBeam(ctx, p, lim, start); won {
			first.Verdict = time.Since(start)
			first.Moves, first.Nodes = improve(ctx, p, lim, start, first.Moves, first.Nodes, -1)
			first.Elapsed = time.Since(start)
			return first
		}
		lim = lessBy(lim, first.Nodes, start)
	}
	s := newSearch(ctx, p, lim)
	s.exhOnly = exhOnly
	s.portfolio = weightSets
	s.depthPen = depthPenalty
	s.wide = p.Suits() >= wideSuits
	r := s.run()
	r.Nodes += first.Nodes
	r.PeakBytes = max(r.PeakBytes, first.PeakBytes)
	r.Elapsed = time.Since(start)
	r.Verdict = r.Elapsed
	if r.Status == Solved {
		r.Found = len(r.Moves)
		r.Moves = shorten(p, r.Moves, shortenLimit(r.Nodes))
		if again {
			skip := 0
			if first.Nodes > 0 {
				skip = 1 // the line's first beam lost already
			}
			r.Moves, r.Nodes = improve(ctx, p, orig, start, r.Moves, r.Nodes, skip)
		}
		r.Elapsed = time.Since(start)
	}
	return r
}

// solve is the search as the fair player knows it: without the
// preference for short lines and without shortening, for the searches
// that want only a verdict or the first moves of a line. The fair
// player's figures (README) were measured with it; keeping it apart
// keeps them true.
func solve(ctx context.Context, p *spider.Position, lim Limits) Result {
	s := newSearch(ctx, p, lim)
	s.portfolio = weightSets
	return s.run()
}

// attempt is one pass of the staged search with its widths.
type attempt struct {
	local int // nodes expanded per stage's local search
	cands int // deal candidates tried per stage
	total int64
	prune bool // skip moves that only swap a run between equal parents
	seed  uint64
	noise int32 // random spread added to evaluations
	look  int   // expansions of the lookahead judging each deal candidate
	// w are the evaluation weights of the pass; nil means weights.
	w *evalWeights
}

// weightsOf is the evaluation weights of a pass.
func (a *attempt) weightsOf() *evalWeights {
	if a.w == nil {
		return &weights
	}
	return a.w
}

// nextAttempt is the i-th heuristic pass (i from 1): many short randomized
// restarts, since the runs of a staged search have a heavy tail and many
// short tries beat one long one. The passes alternate the lookahead's
// length (lookSched): deals that one length misjudges the other often
// solves.
func nextAttempt(i int) attempt {
	return attempt{local: baseLocal + baseLocal*i/8, cands: 2 + i/32, total: baseTotal + baseTotal*int64(i)/10,
		prune: true, seed: uint64(i), noise: noiseAmp, look: lookSched[i%len(lookSched)]}
}

// passWeights is the evaluation weights of heuristic pass i: the
// portfolio's sets in turn, one set for each round of lookahead lengths;
// the default weights when the search has no portfolio.
func (s *search) passWeights(i int) *evalWeights {
	if len(s.portfolio) == 0 {
		return nil
	}
	return &s.portfolio[(i/len(lookSched))%len(s.portfolio)]
}

// exhaustive is the k-th unpruned pass (k from 0), without noise and twice
// as wide as the last, so that a search left to run long enough is
// exhaustive.
func exhaustive(k int) attempt {
	sh := min(k, 30)
	return attempt{local: 300 << sh, cands: 2 << sh, total: 20_000 << sh, look: lookaheadNodes}
}

// dealCredit is what each card dealt adds to a position's progress when
// the fair player compares lines that deal different numbers of rows.
var dealCredit int64 = 6

// Knobs of the schedule, variables so that experiments can vary them.
var (
	// depthPenalty is what each card move from a stage's start takes off
	// a position's evaluation in Solve's searches (docs/solver.md,
	// "Shorter lines"): among positions that look alike the search
	// prefers the one reached in fewer moves, so its lines are shorter.
	depthPenalty   int32 = 2
	baseLocal            = 300
	baseTotal      int64 = 10_000
	noiseAmp       int32 = 6
	lookaheadNodes       = 30 // expansions judging each deal candidate
	finalFactor          = 10 // the last stage's local budget, in local budgets
	// The heuristic passes' lookahead lengths, in turn.
	lookSched = []int{30, 100}
	// The unpruned passes get at most one node in exhRatio+1 of the
	// search: they only ever finish on small positions, where they prove
	// a loss, and on a hard deal the heuristic passes are what wins.
	exhRatio int64 = 7
	// stageCost is what opening a stage counts against a node limit.
	stageCost int64 = 64
	// fillCands is how many positions with spaces a stage fills and deals
	// from when too few positions may deal (local.candidates).
	fillCands = 4
	// The heuristic passes' evaluation weights in Solve, in turn (a pair
	// of passes, one of each lookahead length, per set): a portfolio,
	// since each set alone leaves deals unsolved that another solves at
	// once. A search made by newSearch alone (the fair player's) keeps the
	// default weights.
	weightSets = []evalWeights{
		{faceDown: 12, downPile: 4, breakSuit: 10, breakRank: 4, space: 14, removed: 60, kingBlock: 8},
		{faceDown: 12, downPile: 4, breakSuit: 10, breakRank: 4, space: 14, removed: 60, kingBlock: 8, upOnDown: 2},
		{faceDown: 12, downPile: 4, breakSuit: 10, breakRank: 6, space: 14, removed: 60, kingBlock: 8, upOnDown: 1},
	}
)

type search struct {
	ctx      context.Context
	root     spider.Position
	lim      Limits
	start    time.Time
	deadline time.Time
	nodes    int64
	staged   int64 // stage charges against the node limit (stageCost)
	stop     bool  // a limit ran out or ctx was cancelled
	stopBy   Limit // which one, for Result.StoppedBy
	peak     int64
	live     int64 // bytes held by live stage searches
	seen     hashSet
	roots    hashSet
	cut      bool // the current attempt cut something off
	att      attempt
	attNodes int64
	path     []spider.Move // moves from the root to the current stage root
	win      []spider.Move
	// progress tracking for the best line found (Hint uses it when nothing wins)
	bestScore int64
	bestLine  []spider.Move
	keepBest  bool
	// portfolio, when set, is the heuristic passes' weight sets in turn
	// (Solve sets weightSets); otherwise every pass uses weights.
	portfolio []evalWeights
	// depthPen is taken off a node's evaluation for each move from its
	// stage's start (Solve sets depthPenalty; 0 otherwise).
	depthPen int32
	// exhOnly makes every pass unpruned: the search that proves a loss
	// (analysis of a point believed lost) spends all its nodes on the
	// passes that can prove one.
	exhOnly bool
	// wide lets wide beams take turns with the staged passes (wide.go).
	wide bool
	// la and laLocal are the lookahead's search, kept between candidates.
	la      *search
	laLocal *local
}

func newSearch(ctx context.Context, p *spider.Position, lim Limits) *search {
	s := &search{ctx: ctx, root: *p, lim: lim, start: time.Now()}
	if lim.Time > 0 {
		s.deadline = s.start.Add(lim.Time)
	}
	s.bestScore = -1 << 62
	return s
}

func (s *search) result(st Status) Result {
	r := Result{Status: st, Nodes: s.nodes, Elapsed: time.Since(s.start), PeakBytes: s.peak}
	if st == Unknown {
		r.StoppedBy = s.stopBy
	}
	if st == Solved {
		r.Moves = s.win
	}
	return r
}

func (s *search) run() Result {
	if s.root.Won() {
		return s.result(Solved)
	}
	// The first pass is unpruned; after it an unpruned pass runs whenever
	// they have had less than their share of the nodes. Without limits
	// this ends: the unpruned passes double until one is exhaustive.
	var heur, exh, beamed int64 // nodes spent by each kind of pass and by the wide beams
	for i, k, b := 1, 0, 0; ; {
		if s.wideDue(heur+exh, beamed) {
			before := s.nodes
			won := s.wideBeam(b)
			b++
			beamed += s.nodes - before
			if won {
				return s.result(Solved)
			}
			if s.stop {
				return s.result(Unknown)
			}
			continue
		}
		if k == 0 || s.exhOnly || exh*exhRatio < heur {
			s.att = exhaustive(k)
			k++
		} else {
			s.att = nextAttempt(i)
			s.att.w = s.passWeights(i)
			i++
		}
		before := s.nodes
		s.attNodes = 0
		s.cut = false
		s.seen.reset()
		s.roots.reset()
		s.path = s.path[:0]
		p := s.root
		won := s.stage(&p)
		if s.att.prune {
			heur += s.nodes - before
		} else {
			exh += s.nodes - before
		}
		if won {
			return s.result(Solved)
		}
		if s.stop {
			return s.result(Unknown)
		}
		// Only an unpruned pass that was cut nowhere is a proof: the
		// pruned ones skip moves.
		if !s.cut && !s.att.prune {
			return s.result(Unsolvable)
		}
	}
}

// halt stops the search because of l; the first limit reached is the one
// reported.
func (s *search) halt(l Limit) {
	if !s.stop {
		s.stop, s.stopBy = true, l
	}
}

// tick counts a node and checks the limits every so often.
func (s *search) tick() bool {
	s.nodes++
	if s.lim.Nodes > 0 && s.nodes+s.staged >= s.lim.Nodes {
		s.halt(NodeLimit)
		return false
	}
	if s.nodes&1023 == 0 {
		if s.ctx.Err() != nil {
			s.halt(Cancelled)
			return false
		}
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.halt(TimeLimit)
			return false
		}
	}
	return true
}

func (s *search) account(delta int64) bool {
	s.live += delta
	tot := s.live + s.seen.bytes() + s.roots.bytes()
	if tot > s.peak {
		s.peak = tot
	}
	if s.lim.MemoryBytes > 0 && tot > s.lim.MemoryBytes {
		s.halt(MemoryLimit)
		return false
	}
	return true
}

// pointless reports a card move that only moves a run from one parent to
// another of the same rank without joining a suit, completing one,
// revealing a card or emptying a pile. The heuristic passes skip these;
// the unpruned ones do not.
func pointless(p *spider.Position, m spider.Move) bool {
	if m.Kind != spider.MoveCards {
		return false
	}
	from, to, n := int(m.From), int(m.To), int(m.Count)
	top := p.Len(from) - n
	if p.Len(to) == 0 {
		// Into a space: the first space serves as well as any other.
		for k := range to {
			if p.Len(k) == 0 {
				return true
			}
		}
		return false
	}
	if top <= p.Down(from) {
		return false // reveals a card or empties the pile
	}
	parent := p.Card(from, top-1)
	t := p.Card(from, top)
	if parent.Rank() != t.Rank()+1 {
		return false // leaves a break: moving mends it
	}
	if p.Bottom(to) == t+1 && (parent != t+1 || p.Run(to)+n >= 13) {
		return false // joins a suit it was not joined to, or completes one
	}
	return true
}
