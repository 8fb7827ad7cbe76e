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
	// Rounds is the number of deepening rounds made: the last solves had
	// up to 2^Rounds times the position limits.
	Rounds int
}

// Exact reports whether the boundary is proven on both sides: the last
// winnable point is proven winnable and the next one proven lost (or the
// game's edge: the opening proven lost, the last position winnable). It
// is Complete said of the boundary: with verdicts monotone along the
// game, both hold together.
func (a *Analysis) Exact() bool {
	lost := a.FirstLost()
	if lost < 0 {
		lost = a.Moves + 1
	}
	return lost == a.LastWinnable+1
}

// Band is the points still unknown when the boundary is not exact: from
// LastWinnable+1 to FirstLost-1 (to the last point, Moves, when none is
// proven lost). The move that lost the game is one of moves from to
// to+1 (move k leads from point k-1 to point k).
func (a *Analysis) Band() (from, to int) {
	to = a.FirstLost() - 1
	if to < 0 {
		to = a.Moves
	}
	return a.LastWinnable + 1, to
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
	pf := newProofs(w, n, lim.Position.MemoryBytes)
	a := analyzeWith(ctx, n, pf.solve, pf.extend, lim)
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
		left := tt - tt/timeSlack - a.Elapsed
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
