package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"cardtable/spider"
)

// Fair play sees only what a player sees. Every decision goes through
// scramble, which builds a position from the visible cards alone and fills
// the unseen places (face-down cards unless the game is open, and the
// stock) with the unseen cards in a random order. The decision code then
// works on such positions only: it cannot read the real hidden cards
// because it is never given them.

// ErrNoMove is returned when there is nothing to play: the game is won,
// stuck, or (in autoplay) no line leads to a card turned, a deal or a win.
var ErrNoMove = errors.New("no move to play")

// FairOptions tune the fair player: for each decision it samples Samples
// possible worlds (arrangements of the unseen cards) and solves each with
// the full solver for Nodes nodes (see plan).
type FairOptions struct {
	Samples int
	Nodes   int64
	// JudgeNodes, when positive, turns on the judge (see judgePlan): every
	// candidate line is played in every sampled world and solved for this
	// many nodes. It costs 1.3 to 2 times the thought and wins more
	// games at 1 and 2 suits; hints leave it off to stay fast.
	JudgeNodes int64
	// Rollouts scores each candidate (the sampled worlds' proposals and
	// the closure's card turns and deals, judgePlan) by where fair
	// rollouts from its line get in the sampled worlds (fairRollout)
	// instead of by the position it leaves from. With the judge it about
	// doubles the thought and wins more games at 2 suits; without it
	// (hints) it replaces the judge's solves by the rollouts alone.
	Rollouts bool
	// EndgameWorlds and EndgameNodes, once the stock is empty, give the
	// judge this many sampled worlds (0: Samples) and nodes a world (0:
	// JudgeNodes), and its judged wins then outweigh the rest of the score
	// (endgameWinWeight): with no row left to deal, which lines still win
	// in most arrangements of the face-down cards is nearly the whole
	// question, and a few decisions a game can afford a closer look. The
	// rollouts use the same worlds there. Both 0: no endgame judge.
	EndgameWorlds int
	EndgameNodes  int64
	// DeepCands, once the stock is empty and at most DeepDown cards are
	// face down (DeepDown 0: any number), has the judge's best DeepCands
	// candidates judged one decision deeper (deepen): for every card a
	// line's last move can turn, how often the best next line wins once
	// that card is seen. DeepWorlds (0: Samples) and DeepNodes (0:
	// JudgeNodes) are the worlds and nodes of that next decision. 0 turns
	// it off; it needs the judge (JudgeNodes).
	DeepCands  int
	DeepWorlds int
	DeepNodes  int64
	DeepDown   int
	// Value, when the embedded learned value has a model for the game's
	// suit count (value.txt), has valuePlan choose every decision with
	// something hidden: candidates valued by the model in the sampled
	// worlds instead of judged by solves and rollouts (JudgeNodes, Rollouts
	// and the endgame and deep options are then unused). ValueAhead is how
	// far each world looks past the line (valueModel.ahead): 0 the
	// position the line reaches, 1 the best before the next event, 2 the
	// best at the end of a fair rollout to the next deal.
	Value      bool
	ValueAhead int
	// MaxMoves ends an autoplayed game as lost after this many moves
	// (0: 1500). Every decision turns a card, deals or wins, so a game
	// has at most about 50 decisions: this is only a safety net.
	MaxMoves int
	// Seed varies the sampling; the same seed and game give the same play.
	Seed uint64
}

// Default options (measured in docs/solver.md, on the shared 2-core
// development machine): a hint with HintOptions takes 0.06-0.13 s;
// AutoplayOptions think 0.10 s a move at 1 suit, about 0.2 s at 2 suits
// and 0.22 s at 4 suits on deals 1-200 (one game a core).
var (
	HintOptions     = FairOptions{Samples: 6, Nodes: 30_000, Rollouts: true}
	AutoplayOptions = FairOptions{Samples: 8, Nodes: 200_000, JudgeNodes: 25_000, Rollouts: true, EndgameWorlds: 24, EndgameNodes: 100_000,
		DeepCands: 4, DeepWorlds: 8, DeepDown: 12}
)

// voteWeight is what each world proposing a line adds to its score, in
// evaluation points (a break in a run costs 10); a world the judge still
// wins after a line adds twice that, or endgameWinWeight once the stock is
// empty (FairOptions.EndgameWorlds), where rollout values differ by
// hundreds of points between lines that win nearly everywhere and lines
// that win in half the worlds.
const (
	voteWeight       = 25
	endgameWinWeight = 200
)

// plan returns the line the player plays from view. view must already be
// scrambled: plan reads none of the real hidden cards.
func plan(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error) {
	if view.Won() {
		return nil, ErrNoMove
	}
	samples := max(o.Samples, 1)
	if len(unseen(view, open)) == 0 {
		// Nothing is hidden any more: the game is a puzzle the full solver
		// settles, with the budget of all the samples. The player plays
		// the whole line, so it is shortened (its win is kept).
		if r := solve(ctx, view, Limits{Nodes: o.Nodes * int64(samples)}); r.Status == Solved {
			return Shorten(view, r.Moves), nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		samples = 0
	}
	if m := valueModels[view.Suits()]; o.Value && m != nil && samples > 0 {
		return valuePlan(ctx, view, open, o, m, rng)
	}
	if (o.JudgeNodes > 0 || o.Rollouts) && samples > 0 {
		return judgePlan(ctx, view, open, o, samples, rng)
	}
	var cs candidates
	if _, err := cs.propose(ctx, view, open, o, samples, rng); err != nil {
		return nil, err
	}
	best := cs.best()
	var cl *closureResult
	if best != nil && best.deals() {
		// Every world would deal: deal only if no card can be turned.
		c := newClosure(view)
		if slices.ContainsFunc(c.fr, func(f frontier) bool { return f.mv.Kind != spider.Deal }) {
			best, cl = nil, &c
		}
	}
	if best != nil {
		return best.line, nil
	}
	if cl == nil {
		c := newClosure(view)
		cl = &c
	}
	line, err := stagePlan(ctx, view, cl, open, o, rng)
	if errors.Is(err, ErrNoMove) && !view.Stuck() {
		return fallbackLine(ctx, view, open, o, rng)
	}
	return line, err
}

// judgePlan is plan with the judge or rollouts on. Its candidates are
// the sampled worlds' proposals (each with its votes) and the closure's
// candidate frontier moves (pickCandidates, no votes, scored with the
// evaluation of the closure position they leave from). When there are two
// or more and the judge is on, each candidate's line is played in every
// sampled world and the result solved for JudgeNodes nodes; a candidate
// scores 2×voteWeight for each world it wins there, voteWeight a vote and
// its evaluation, less dealPenalty for a deal. A proposal is a line that
// wins in the world that found it; the judge asks instead how many of the
// worlds each line still wins, which is closer to what a player who cannot
// see the cards needs to know, and the closure's candidates give it lines
// that no clairvoyant solver proposed. With o.Rollouts a candidate's
// evaluation is the mean of fair rollouts from its line in the sampled
// worlds instead; with rollouts and no judge (hints) the choice is by
// votes and that mean alone. Once the stock is empty the judge looks
// harder (judgeBudget).
func judgePlan(ctx context.Context, view *spider.Position, open bool, o FairOptions, samples int, rng *rand.Rand) ([]spider.Move, error) {
	nWorlds, nodes, winWeight := o.judgeBudget(view.StockLen(), samples)
	cs := candidates{winWeight: winWeight}
	worlds, err := cs.propose(ctx, view, open, o, samples, rng)
	if err != nil {
		return nil, err
	}
	if line, err := cs.addClosure(ctx, view, open, o, rng); line != nil || err != nil {
		return line, err
	}
	if o.JudgeNodes > 0 {
		// More worlds in the endgame, for the rollouts and the judge alike:
		// with the stock empty a rollout plays to the end of the game, and
		// its wins are the only judgement there that never sees a card
		// before it turns.
		if worlds, err = sample(worlds, view, open, nWorlds-len(worlds), rng); err != nil {
			return nil, err
		}
	}
	if o.Rollouts {
		var rc closer
		for _, c := range cs.list {
			var sum int64
			for wi := range worlds {
				q := after(worlds[wi], c.line)
				sum += fairRollout(&rc, &q)
			}
			c.eval = int32(sum / int64(len(worlds)))
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	best := cs.best()
	if o.JudgeNodes > 0 {
		best = cs.judge(len(worlds), func(c *candidate, wi int) bool {
			q := after(worlds[wi], c.line)
			return solve(ctx, &q, Limits{Nodes: nodes}).Status == Solved
		})
		if view.StockLen() == 0 && o.DeepCands > 0 && !open {
			if best, err = cs.deepen(ctx, view, o, best, rng); err != nil {
				return nil, err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return best.line, nil
}

// addClosure adds view's closure candidates to cs (pickCandidates, no
// votes, each with the evaluation of the position it leaves from). A
// line or an error is the decision made already: the closure reaches a
// win, there is no candidate at all (the fallback's line, or ErrNoMove
// when stuck), or only one.
func (cs *candidates) addClosure(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error) {
	cl := newClosure(view)
	if cl.win >= 0 {
		return linePath(cl.nodes, cl.win, spider.Move{}), nil
	}
	for _, f := range pickCandidates(cl.fr) {
		cs.add(linePath(cl.nodes, f.at, f.mv), cl.nodes[f.at].eval, 0)
	}
	switch len(cs.list) {
	case 0:
		if !view.Stuck() {
			return fallbackLine(ctx, view, open, o, rng)
		}
		return nil, ErrNoMove
	case 1:
		return cs.list[0].line, nil
	}
	return nil, nil
}

// judgeBudget is the judge's budget for a decision with stock cards left
// in the stock: how many sampled worlds, how many nodes a world, and what
// a judged win adds to a score. Once the stock is empty it is the
// endgame's, if the endgame options are set.
func (o FairOptions) judgeBudget(stock, samples int) (worlds int, nodes, winWeight int64) {
	if o.JudgeNodes > 0 && stock == 0 && (o.EndgameWorlds > 0 || o.EndgameNodes > 0) {
		return max(samples, o.EndgameWorlds), cmp.Or(o.EndgameNodes, o.JudgeNodes), endgameWinWeight
	}
	return samples, o.JudgeNodes, 2 * voteWeight
}

// after is the world w once line is played in it (a copy: w is unchanged).
// The line is legal there: it was found on a view that looks the same.
func after(w spider.Position, line []spider.Move) spider.Position {
	for _, m := range line {
		w.Do(m)
	}
	return w
}

// fallbackLine is the line to the most advanced position the solver
// reaches in one sampled world (most rows dealt, then evaluation), up to
// its first event. It keeps the player going where the closure search
// found nothing to turn and no way to deal.
func fallbackLine(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error) {
	w, err := scramble(view, open, rng)
	if err != nil {
		return nil, err
	}
	s := newSearch(ctx, &w, Limits{Nodes: max(o.Nodes, 10_000)})
	s.keepBest = true
	var line []spider.Move
	if r := s.run(); r.Status == Solved {
		line = r.Moves
	} else {
		line = s.bestLine
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Only a line that learns something (turns a card or deals) or wins is
	// progress; anything else would circle.
	q := w
	for i, m := range line {
		if u := q.Do(m); u.Flipped() || m.Kind == spider.Deal || q.Won() {
			return line[:i+1], nil
		}
	}
	return nil, ErrNoMove
}

// Hint returns the move the fair player would make in g now, from what the
// player can see only. It is deterministic for the same visible position.
func Hint(ctx context.Context, g *spider.Game) (spider.Move, error) {
	return HintWith(ctx, g.Pos(), g.Options().Open, HintOptions)
}

// HintWith is Hint for a position, with options. The position's hidden
// cards are never read: they are replaced before any search.
func HintWith(ctx context.Context, p *spider.Position, open bool, o FairOptions) (spider.Move, error) {
	line, err := hintLine(ctx, p, open, o)
	if err != nil {
		return spider.Move{}, err
	}
	return line[0], nil
}

// hintLine is the line whose first move HintWith gives: it turns a card,
// deals or wins at its end only.
func hintLine(ctx context.Context, p *spider.Position, open bool, o FairOptions) ([]spider.Move, error) {
	if p.Won() {
		return nil, ErrNoMove
	}
	h := visibleHash(p, open)
	rng := rand.New(rand.NewPCG(h, o.Seed))
	view, err := scramble(p, open, rng)
	if err != nil {
		return nil, err
	}
	return plan(ctx, &view, open, o, rng)
}

// Autoplay plays g to the end without undo, choosing every move from the
// visible position only. It stops when the game is won, nothing is left
// to play, MaxMoves is reached (reported as lost) or ctx is cancelled (an
// error). It returns the moves it played.
func Autoplay(ctx context.Context, g *spider.Game, o FairOptions) (won bool, moves []spider.Move, err error) {
	return autoplay(ctx, g, o, defaultPlanner)
}

// defaultPlanner is the planner Autoplay uses.
var defaultPlanner planner = plan

// planner is plan's shape, so that tests can watch what it is handed.
type planner func(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error)

func autoplay(ctx context.Context, g *spider.Game, o FairOptions, pl planner) (bool, []spider.Move, error) {
	maxMoves := o.MaxMoves
	if maxMoves <= 0 {
		maxMoves = 1500
	}
	open := g.Options().Open
	var played []spider.Move
	for !g.Won() && len(played) < maxMoves {
		h := visibleHash(g.Pos(), open)
		rng := rand.New(rand.NewPCG(h, o.Seed^uint64(len(played))))
		view, err := scramble(g.Pos(), open, rng)
		if err != nil {
			return false, played, err
		}
		line, err := pl(ctx, &view, open, o, rng)
		if errors.Is(err, ErrNoMove) {
			break
		}
		if err != nil {
			return false, played, err
		}
		// The line turns a card or deals only at its end: every move before
		// is decided by what the player already sees.
		for _, m := range line {
			if len(played) >= maxMoves {
				break
			}
			if err := g.Play(m); err != nil {
				return false, played, fmt.Errorf("solver: the fair player chose %s: %w", m, err)
			}
			played = append(played, m)
		}
	}
	return g.Won(), played, nil
}

// fairWeights are the fair player's evaluation weights: the solver's
// defaults, without the portfolio's extra terms. They are its own so that
// the fair player can be tuned apart from the solver.
var fairWeights = evalWeights{faceDown: 12, downPile: 4, breakSuit: 10, breakRank: 4, space: 14, removed: 60}

// fairEval scores a position for the fair player (higher is better).
func fairEval(p *spider.Position) int32 { return evaluateW(p, &fairWeights) }
