package solver

import (
	"context"
	"time"

	"cardtable/spider"
)

// Analysis of a finished game (docs/analysis.md): the real
// position after each of the game's moves is solved with every card known,
// to find the last move after which the game could still be won and a
// winning line from there. Like Trace it reads the hidden cards, so it is
// for games that are over; the fair player never calls it.

// Verdict is what the analysis says of one position of a game.
type Verdict uint8

// Verdicts.
const (
	// Undecided: no solve decided the position and none is implied.
	Undecided Verdict = iota
	// Winnable: a winning line exists from the position.
	Winnable
	// Lost: no winning line exists (proven, or implied by a proof).
	Lost
)

func (v Verdict) String() string {
	switch v {
	case Winnable:
		return "winnable"
	case Lost:
		return "lost"
	}
	return "unknown"
}

// Basis says where a point's verdict comes from.
type Basis uint8

// Bases.
const (
	// NotSolved: the position was never solved and nothing implies its
	// verdict (it lies between two undecided points, or the analysis was
	// stopped first).
	NotSolved Basis = iota
	// BySolve: the position itself was solved (its verdict may still be
	// unknown, when the solve hit its limits).
	BySolve
	// Implied: the verdict follows from another point's: a position before
	// a winnable one is winnable, one after a lost one is lost.
	Implied
)

func (b Basis) String() string {
	switch b {
	case BySolve:
		return "solve"
	case Implied:
		return "implied"
	}
	return "none"
}

// Point is the analysis of the position after the game's first Move moves
// (0: the opening).
type Point struct {
	Move    int
	Verdict Verdict
	Basis   Basis
	// Solve is the result of solving this position, when it was solved
	// (its Status, StoppedBy, Nodes and Elapsed; the line is kept only for
	// the last winnable point, in Analysis.Line).
	Solve *Result
}

// AnalyzeLimits bound an analysis. Position bounds each solve, as Limits
// bound Solve; Total bounds the whole analysis (its Time and Nodes; its
// MemoryBytes is not used, as solves run one at a time and Position's
// bounds each). A zero field means no limit of that kind.
type AnalyzeLimits struct {
	Position Limits
	Total    Limits
}

// Analysis is the result of Analyze.
type Analysis struct {
	// Points holds one point a move, Points[k] for the position after k
	// moves, from 0 (the opening) to Moves (the game's last position).
	Points []Point
	// Moves is the number of moves of the game analysed: its steps played
	// (docs/analysis.md: what counts as a move).
	Moves int
	// LastWinnable is the largest k whose position is proven winnable, or
	// -1 when none is.
	LastWinnable int
	// Line is a winning line from the position after LastWinnable moves:
	// it replays with Game.Play (or as play commands) on the game taken
	// back to that point. Removals the game makes by itself (auto-remove)
	// are left out. Empty when LastWinnable is -1, or the game is won.
	Line []spider.Move
	// Solves is the number of positions solved; Nodes and Elapsed the
	// nodes and time of the whole analysis.
	Solves  int
	Nodes   int64
	Elapsed time.Duration
	// StoppedBy is the total limit (TimeLimit, NodeLimit) or Cancelled
	// when one stopped the analysis before it had tried every position it
	// meant to, NoLimit otherwise.
	StoppedBy Limit
}

// Complete reports whether every point is decided: winnable or lost.
func (a *Analysis) Complete() bool {
	for _, p := range a.Points {
		if p.Verdict == Undecided {
			return false
		}
	}
	return true
}

// FirstLost is the smallest k whose position is lost (proven or implied),
// or -1 when none is.
func (a *Analysis) FirstLost() int {
	for _, p := range a.Points {
		if p.Verdict == Lost {
			return p.Move
		}
	}
	return -1
}

// Analyze analyses g's game: the steps played from its start to its
// current position (the steps undone that could be redone are not part
// of it). It works on a copy of g and never changes g. It takes few
// solves (see probeOrder); ctx cancels it, and the Analysis then holds
// what was found so far with StoppedBy Cancelled.
func Analyze(ctx context.Context, g *spider.Game, lim AnalyzeLimits) *Analysis {
	w := &walker{g: g.Clone()}
	n := g.MovesPlayed()
	// The probes want verdicts; only the line of the last winnable point
	// is shown, so only it gets the further searches for a shorter line.
	solve := func(ctx context.Context, k int, l Limits) Result {
		return solveShort(ctx, w.at(k), l, false)
	}
	a := analyze(ctx, n, solve, lim)
	if k := a.LastWinnable; k >= 0 && len(a.Line) > 0 && a.Points[k].Solve != nil {
		probe := a.Points[k].Solve.Nodes
		if l, ok := lineLimits(lim, a, probe); ok {
			t := time.Now()
			var extra int64
			a.Line, extra = shorter(ctx, w.at(k), l, t, a.Line, probe)
			a.Nodes += extra
			a.Elapsed += time.Since(t)
		}
	}
	if a.LastWinnable >= 0 && g.Options().AutoRemove {
		a.Line = withoutRemovals(a.Line)
	}
	return a
}

// lineLimits are the limits of the further searches for the shown line,
// made after the probes (a) of which the last winnable point's took probe
// nodes, or false when the total leaves them nothing. They get a
// position's node limit of their own rather than what the probe left of
// it: on the server (a million nodes a position) a 4-suit probe often
// left the beams no room at all. The total still bounds them: its nodes
// and time left.
func lineLimits(lim AnalyzeLimits, a *Analysis, probe int64) (Limits, bool) {
	l := lim.Position
	allowed := l.Nodes
	if tn := lim.Total.Nodes; tn > 0 {
		left := tn - a.Nodes
		if left <= 0 {
			return l, false
		}
		if allowed == 0 || left < allowed {
			allowed = left
		}
	}
	if allowed > 0 {
		// shorter counts the probe's nodes against the limit.
		l.Nodes = probe + allowed
	}
	if tt := lim.Total.Time; tt > 0 {
		left := tt - a.Elapsed
		if left <= 0 {
			return l, false
		}
		if l.Time == 0 || left < l.Time {
			l.Time = left
		}
	}
	return l, true
}

// withoutRemovals drops the removals from a line, for a game that makes
// them by itself: there a removal the solver makes at once is made by
// the game after the same move.
func withoutRemovals(line []spider.Move) []spider.Move {
	out := make([]spider.Move, 0, len(line))
	for _, m := range line {
		if m.Kind != spider.Remove {
			out = append(out, m)
		}
	}
	return out
}

// walker moves a copy of the game to the position after k steps with
// Undo and Redo, so that no position needs to be stored: going from one
// probe to the next costs the steps between them.
type walker struct{ g *spider.Game }

func (w *walker) at(k int) *spider.Position {
	for w.g.MovesPlayed() > k {
		if w.g.Undo() != nil {
			break
		}
	}
	for w.g.MovesPlayed() < k {
		if w.g.Redo() != nil {
			break
		}
	}
	return w.g.Pos()
}

// solveFunc solves the position after k moves within l.
type solveFunc func(ctx context.Context, k int, l Limits) Result

// analysis is the state of analyze's search over points 0..n.
type analysis struct {
	n      int
	res    []*Result // res[k]: the solve of point k, nil if not solved
	lo, hi int       // largest proven winnable (-1: none), smallest proven lost (n+1: none)
	boosts int       // escalations of the opening done (next)
}

// analyze finds the verdicts of points 0..n with solve, probing them in
// probeOrder until it has nothing left to probe or a limit stops it.
func analyze(ctx context.Context, n int, solve solveFunc, lim AnalyzeLimits) *Analysis {
	start := time.Now()
	s := &analysis{n: n, res: make([]*Result, n+1), lo: -1, hi: n + 1}
	a := &Analysis{Moves: n}
	for {
		k, scale := s.next()
		if k < 0 {
			break
		}
		l, stop := s.budget(lim, scale, time.Since(start), a.Nodes)
		if stop != NoLimit {
			a.StoppedBy = stop
			break
		}
		if ctx.Err() != nil {
			a.StoppedBy = Cancelled
			break
		}
		r := solve(ctx, k, l)
		a.Nodes += r.Nodes
		if r.StoppedBy == Cancelled {
			// A solve cut by the context says nothing of its position:
			// it stays not solved.
			a.StoppedBy = Cancelled
			break
		}
		a.Solves++
		s.note(k, r)
	}
	a.Elapsed = time.Since(start)
	s.fill(a)
	return a
}

// budget is the limits of the next solve: Position's times scale, cut to
// what is left of Total. It reports the total limit that has run out, if
// one has.
func (s *analysis) budget(lim AnalyzeLimits, scale float64, spent time.Duration, nodes int64) (Limits, Limit) {
	l := lim.Position
	l.Time = time.Duration(float64(l.Time) * scale)
	l.Nodes = int64(float64(l.Nodes) * scale)
	if t := lim.Total.Time; t > 0 {
		left := t - spent
		if left <= 0 {
			return l, TimeLimit
		}
		if l.Time == 0 || left < l.Time {
			l.Time = left
		}
	}
	if t := lim.Total.Nodes; t > 0 {
		left := t - nodes
		if left <= 0 {
			return l, NodeLimit
		}
		if l.Nodes == 0 || left < l.Nodes {
			l.Nodes = left
		}
	}
	return l, NoLimit
}

// note records the solve of point k and moves the frontiers.
func (s *analysis) note(k int, r Result) {
	s.res[k] = &r
	switch r.Status {
	case Solved:
		s.lo = max(s.lo, k)
	case Unsolvable:
		s.hi = min(s.hi, k)
	}
}

// Escalation: when no point is proven winnable once both frontiers are
// done, the opening is solved again with boostFactor times the last
// budget, up to maxBoosts times (within the total limits): an analysis
// that finds nothing winnable tells the player nothing, and if any point
// is winnable the opening is. Other unknown points are not solved again,
// as most of them are lost positions no budget would decide.
//
// The lost frontier's probes get lostShare of Position's limits: a loss
// is proven only by an exhaustive search, which finishes quickly on the
// small positions near a game's end or not at all (on six lost 4-suit
// games every loss proven took at most about 200 000 nodes, while the
// unknown probes each spent the whole million they had).
const (
	boostFactor = 4
	maxBoosts   = 3
	lostShare   = 0.25
)

// next is the point to probe next and the factor of Position's limits to
// solve it with, or -1 when there is none (probeOrder).
func (s *analysis) next() (int, float64) {
	if k, lost := s.probe(); k >= 0 {
		if lost {
			return k, lostShare
		}
		return k, 1
	}
	if s.lo < 0 && s.hi > 0 && s.boosts < maxBoosts && s.res[0] != nil && s.res[0].Status == Unknown {
		s.boosts++
		scale := 1.0
		for range s.boosts {
			scale *= boostFactor
		}
		return 0, scale
	}
	return -1, 0
}

// probe is the point to probe next at the normal budget, or -1; lost
// reports a probe of the lost frontier.
func (s *analysis) probe() (k int, lost bool) {
	// probeOrder: along a game the positions winnable form a prefix
	// 0..t (a position one move before a winnable one is winnable), so
	// the points are probed as in a binary search for t, with two
	// frontiers because a solve can end unknown:
	//
	//  1. The last position first: if it is winnable (the game was won,
	//     or abandoned still winnable) one solve decides every point.
	//  2. The winnable frontier: between lo (the largest point proven
	//     winnable, -1 for none) and b, the smallest point above it that
	//     was solved and is unknown or lost (hi when none is), probe the
	//     middle. An unknown point counts as lost here: most unknowns
	//     are lost positions whose loss is too large to prove.
	//  3. The lost frontier: once 2 has nothing left, between a, the
	//     largest point below hi solved unknown, and hi, probe the
	//     middle; an unknown counts as winnable here. This narrows the
	//     band of points left unknown from above.
	//
	// A winnable point found in 3 moves lo above the unknowns below it
	// (they are then implied winnable) and 2 resumes from there. Each
	// frontier takes about log2 of its interval in solves. The search
	// stops when both have nothing left; points strictly between the two
	// bands of unknowns may stay not solved, and are reported unknown.
	if s.res[s.n] == nil {
		return s.n, false
	}
	b := s.hi
	for k := s.lo + 1; k < s.hi; k++ {
		if s.res[k] != nil {
			b = k
			break
		}
	}
	if b-s.lo >= 2 {
		return (s.lo + b) / 2, false // lo >= -1 and b > lo+1: the sum is at least 0
	}
	a := -1
	for k := s.hi - 1; k > s.lo; k-- {
		if s.res[k] != nil {
			a = k
			break
		}
	}
	if a >= 0 && s.hi-a >= 2 {
		return (a + s.hi) / 2, true
	}
	return -1, false
}

// fill writes the points: each solved one with its verdict, the others
// implied where a solve implies them.
func (s *analysis) fill(a *Analysis) {
	a.Points = make([]Point, s.n+1)
	a.LastWinnable = s.lo
	for k := range a.Points {
		p := Point{Move: k, Solve: s.res[k]}
		if p.Solve != nil {
			p.Basis = BySolve
			if k == s.lo {
				a.Line = p.Solve.Moves
			}
			r := *p.Solve
			r.Moves = nil
			p.Solve = &r
		}
		switch {
		case k <= s.lo:
			p.Verdict = Winnable
		case k >= s.hi:
			p.Verdict = Lost
		}
		if p.Verdict != Undecided && (p.Solve == nil || p.Solve.Status == Unknown) {
			p.Basis = Implied
		}
		a.Points[k] = p
	}
}
