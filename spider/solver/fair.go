package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"cardtable/card"
	"cardtable/spider"
)

// Fair play sees only what a player sees. Every decision goes through
// scramble, which builds a position from the visible cards alone and fills
// the unseen places (face-down cards unless the game is open, and the
// stock) with the unseen cards in a random order. The decision code then
// works on such positions only: it cannot read the real hidden cards
// because it is never given them.

// ErrNoMove is returned when there is nothing to play: the game is won or
// stuck.
var ErrNoMove = errors.New("no move to play")

// FairOptions tune the fair player: it samples Samples possible worlds
// (arrangements of the unseen cards) and searches each for Nodes nodes,
// then plays the move most of them recommend.
type FairOptions struct {
	Samples int
	Nodes   int64
	// MaxMoves ends an autoplayed game as lost after this many moves
	// (0: 1500), in case the player circles.
	MaxMoves int
	// Seed varies the sampling; the same seed and game give the same play.
	Seed uint64
}

// Default options: HintOptions take about 0.03 s a hint on the 2-core
// development machine; AutoplayOptions think about 0.06 s a move
// (docs/solver.md).
var (
	HintOptions     = FairOptions{Samples: 6, Nodes: 12_000}
	AutoplayOptions = FairOptions{Samples: 8, Nodes: 30_000}
)

// visibleHash hashes what the player sees: face-up cards, face-down and
// stock counts and the suits removed (and in the open variant, the cards
// face down too).
func visibleHash(p *spider.Position, open bool) uint64 {
	h := uint64(p.StockLen())*0x9e3779b97f4a7c15 ^ uint64(p.NumRemoved())<<56
	for k := range spider.Piles {
		n, d := p.Len(k), p.Down(k)
		ph := uint64(n)<<8 | uint64(d)
		from := d
		if open {
			from = 0
		}
		for j := from; j < n; j++ {
			ph = (ph ^ uint64(p.Card(k, j))) * 0x100000001b3
		}
		h += mix(ph ^ uint64(k+1)*0xc2b2ae3d27d4eb4f)
	}
	return mix(h)
}

// unseen lists the cards the player cannot see, in a fixed order.
func unseen(p *spider.Position, open bool) []card.Card {
	count := map[card.Card]int{}
	for _, c := range card.SpiderDeck(p.Suits()) {
		count[c]++
	}
	for k := range spider.Piles {
		from := p.Down(k)
		if open {
			from = 0
		}
		for j := from; j < p.Len(k); j++ {
			count[p.Card(k, j)]--
		}
	}
	for _, s := range p.Removed(nil) {
		for r := card.Ace; r <= card.King; r++ {
			count[card.New(r, s)]--
		}
	}
	var out []card.Card
	for _, c := range card.SpiderDeck(p.Suits()) {
		if count[c] > 0 {
			out = append(out, c)
			count[c]--
		}
	}
	return out
}

// scramble returns a position that looks the same to the player as p, with
// the unseen cards shuffled into the unseen places by rng.
func scramble(p *spider.Position, open bool, rng *rand.Rand) (spider.Position, error) {
	cs := unseen(p, open)
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	var hidden [spider.Piles][]card.Card
	for k := range spider.Piles {
		d := p.Down(k)
		if open {
			hidden[k] = p.Cards(nil, k)[:d]
			continue
		}
		if len(cs) < d {
			return spider.Position{}, fmt.Errorf("solver: %d unseen cards cannot fill the face-down places", len(cs))
		}
		hidden[k], cs = cs[:d], cs[d:]
	}
	if len(cs) != p.StockLen() {
		return spider.Position{}, fmt.Errorf("solver: %d unseen cards left for a stock of %d", len(cs), p.StockLen())
	}
	return p.WithHidden(&hidden, cs)
}

// decide picks a move for the position the player sees. view must already
// be scrambled (or be the real position of an open game's tableau): decide
// searches sampled worlds built from it. avoid, when set, reports visible
// positions already played through, which the player does not return to.
func decide(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand, avoid func(uint64) bool) (spider.Move, error) {
	var buf [256]spider.Move
	var moves []spider.Move
	for _, m := range view.Legal(buf[:0]) {
		if m.Kind == spider.Remove {
			return m, nil // a complete run is removed at once
		}
		if view.Null(m) {
			continue
		}
		if avoid != nil && m.Kind == spider.MoveCards {
			q := *view
			if u := q.Do(m); !u.Flipped() && avoid(visibleHash(&q, open)) {
				continue
			}
		}
		moves = append(moves, m)
	}
	if len(moves) == 0 {
		return spider.Move{}, ErrNoMove
	}
	if len(moves) == 1 {
		return moves[0], nil
	}
	votes := make([]float64, len(moves))
	for range max(o.Samples, 1) {
		if err := ctx.Err(); err != nil {
			return spider.Move{}, err
		}
		world, err := scramble(view, open, rng)
		if err != nil {
			return spider.Move{}, err
		}
		line, w := sampleLine(ctx, &world, o.Nodes, open, avoid)
		if len(line) == 0 {
			continue
		}
		if i := slices.Index(moves, line[0]); i >= 0 {
			votes[i] += w
		}
	}
	best := -1
	for i, v := range votes {
		if v > 0 && (best < 0 || v > votes[best]) {
			best = i
		}
	}
	if best >= 0 {
		return moves[best], nil
	}
	// No sample liked any allowed move: take the one that looks best now.
	be := int32(0)
	for i, m := range moves {
		q := *view
		q.Do(m)
		if e := evaluate(&q); best < 0 || e > be {
			best, be = i, e
		}
	}
	return moves[best], nil
}

// sampleLine is what one sampled world recommends, and how strongly: a
// winning line if the full search finds one within its nodes, else the
// line to the most advanced position it reached (the most rows dealt,
// then the best evaluation).
func sampleLine(ctx context.Context, world *spider.Position, nodes int64, open bool, avoid func(uint64) bool) ([]spider.Move, float64) {
	s := newSearch(ctx, world, Limits{Nodes: nodes})
	s.keepBest = true
	if avoid != nil {
		s.skipRoot = func(p *spider.Position, u spider.Undo) bool {
			return !u.Flipped() && avoid(visibleHash(p, open))
		}
	}
	if r := s.run(); r.Status == Solved {
		return r.Moves, 3
	}
	if len(s.bestLine) > 0 && s.bestLine[0].Kind != spider.Deal {
		return s.bestLine, 1
	}
	// Before dealing, turn up every card the stage can reach: search the
	// stage alone for the position with the fewest face-down cards.
	t := newSearch(ctx, world, Limits{Nodes: nodes})
	t.skipRoot = s.skipRoot
	t.att = attempt{local: 1 << 30, cands: 1, total: 1 << 62, prune: true}
	l := newLocal(t, world)
	if l.run() {
		return t.win, 3
	}
	best, bestDown, bestEval := int32(0), world.FaceDown(), l.nodes[0].eval
	for i := 1; i < len(l.nodes); i++ {
		l.goTo(int32(i))
		d := l.cur.FaceDown()
		if d < bestDown || d == bestDown && best != 0 && l.nodes[i].eval > bestEval {
			best, bestDown, bestEval = int32(i), d, l.nodes[i].eval
		}
	}
	if best == 0 {
		return s.bestLine, 1
	}
	return l.pathTo(best), 1
}

// Hint returns the move the fair player would make in g now, from what the
// player can see only. It is deterministic for the same visible position.
func Hint(ctx context.Context, g *spider.Game) (spider.Move, error) {
	return HintWith(ctx, g.Pos(), g.Options().Open, HintOptions)
}

// HintWith is Hint for a position, with options. The position's hidden
// cards are never read: they are replaced before any search.
func HintWith(ctx context.Context, p *spider.Position, open bool, o FairOptions) (spider.Move, error) {
	if p.Won() {
		return spider.Move{}, ErrNoMove
	}
	h := visibleHash(p, open)
	rng := rand.New(rand.NewPCG(h, o.Seed))
	view, err := scramble(p, open, rng)
	if err != nil {
		return spider.Move{}, err
	}
	return decide(ctx, &view, open, o, rng, nil)
}

// Autoplay plays g to the end without undo, choosing every move from the
// visible position only. It stops when the game is won, no new move is
// left, MaxMoves is reached (reported as lost) or ctx is cancelled (an
// error). It returns the moves it played.
func Autoplay(ctx context.Context, g *spider.Game, o FairOptions) (won bool, moves []spider.Move, err error) {
	return autoplay(ctx, g, o, decide)
}

type decider func(ctx context.Context, view *spider.Position, open bool, o FairOptions, rng *rand.Rand, avoid func(uint64) bool) (spider.Move, error)

func autoplay(ctx context.Context, g *spider.Game, o FairOptions, dec decider) (bool, []spider.Move, error) {
	maxMoves := o.MaxMoves
	if maxMoves <= 0 {
		maxMoves = 1500
	}
	open := g.Options().Open
	seen := map[uint64]bool{}
	var played []spider.Move
	for !g.Won() && len(played) < maxMoves {
		h := visibleHash(g.Pos(), open)
		seen[h] = true
		rng := rand.New(rand.NewPCG(h, o.Seed^uint64(len(played))))
		view, err := scramble(g.Pos(), open, rng)
		if err != nil {
			return false, played, err
		}
		m, err := dec(ctx, &view, open, o, rng, func(v uint64) bool { return seen[v] })
		if errors.Is(err, ErrNoMove) {
			break
		}
		if err != nil {
			return false, played, err
		}
		if err := g.Play(m); err != nil {
			return false, played, fmt.Errorf("solver: the fair player chose %s: %w", m, err)
		}
		played = append(played, m)
	}
	return g.Won(), played, nil
}
