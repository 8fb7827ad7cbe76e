package solver

import (
	"context"
	"math/rand/v2"
	"slices"

	"cardtable/spider"
)

// The stage closure of the fair player: every position reachable from the
// visible one without turning a card or dealing, its frontier moves, and
// the rollouts that rank them.

// frontier is a move that ends the closure: it turns a card or deals.
type frontier struct {
	at     int32 // closure node it is played from
	mv     spider.Move
	static int32 // evaluation, the same in every world
	value  int64 // mean over the sampled worlds
}

// cnode is one position of the closure search.
type cnode struct {
	pos    spider.Position
	parent int32
	mv     spider.Move
	eval   int32
}

// Knobs of stagePlan.
const (
	closureCap   = 4000 // closure positions explored per decision
	flipCands    = 8    // frontier moves that turn a card, judged per decision
	flipsPerPile = 2
	dealCands    = 4   // positions to deal from, judged per decision
	rolloutCap   = 300 // closure positions per step of a rollout
	winValue     = int64(1) << 40
	// dealPenalty makes a deal lose to any card turned: the stock is the
	// player's reserve.
	dealPenalty = int64(1) << 30
)

// closureResult is a closure search's result, kept so that plan searches
// a view's closure once.
type closureResult struct {
	nodes []cnode
	fr    []frontier
	win   int32
}

func newClosure(view *spider.Position) closureResult {
	nodes, fr, win := closure(view)
	return closureResult{nodes, fr, win}
}

// stagePlan returns the line to the best frontier move of view's closure
// cl, judged by rollouts in sampled worlds.
func stagePlan(ctx context.Context, view *spider.Position, cl *closureResult, open bool, o FairOptions, rng *rand.Rand) ([]spider.Move, error) {
	nodes, fr, win := cl.nodes, cl.fr, cl.win
	if win >= 0 {
		return linePath(nodes, win, spider.Move{}), nil
	}
	cands := pickCandidates(fr)
	if len(cands) == 0 {
		return nil, ErrNoMove
	}
	if len(cands) > 1 {
		worlds, err := sample(nil, view, open, max(o.Samples, 1), rng)
		if err != nil {
			return nil, err
		}
		var rc closer
		for ci := range cands {
			c := &cands[ci]
			line := linePath(nodes, c.at, c.mv)
			var sum int64
			for wi := range worlds {
				q := after(worlds[wi], line)
				sum += rollout(&rc, &q)
			}
			c.value = sum / int64(len(worlds))
			if c.mv.Kind == spider.Deal {
				c.value -= dealPenalty
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		slices.SortStableFunc(cands, func(a, b frontier) int {
			if a.value != b.value {
				return cmpDesc(a.value, b.value)
			}
			return cmpDesc(int64(a.static), int64(b.static))
		})
	}
	return linePath(nodes, cands[0].at, cands[0].mv), nil
}

func cmpDesc(a, b int64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// closure searches, best first, the positions the view reaches without
// turning a card or dealing, and collects the frontier moves from them.
// win is the node of a won position, or -1.
func closure(view *spider.Position) (nodes []cnode, fr []frontier, win int32) {
	var c closer
	return c.run(view, closureCap)
}

// closer holds a closure search's arrays, kept from one search to the
// next: a rollout runs dozens, and allocating each afresh (a position is
// about 1 KB) kept the garbage collector busy.
type closer struct {
	nodes []cnode
	fr    []frontier
	idx   []node
	open  nodeHeap
	seen  hashSet
}

// run is closure with at most limit positions. The slices it returns are
// c's own: they hold until c runs again.
func (c *closer) run(view *spider.Position, limit int) (nodes []cnode, fr []frontier, win int32) {
	nodes, fr = c.nodes[:0], c.fr[:0]
	defer func() { c.nodes, c.fr = nodes, fr }()
	nodes = append(nodes, cnode{pos: *view, parent: -1, eval: fairEval(view)})
	seen := &c.seen
	seen.reset()
	seen.add(hashPos(view))
	open := &c.open
	open.idx = open.idx[:0]
	idx := append(c.idx[:0], node{eval: nodes[0].eval})
	defer func() { c.idx = idx }()
	open.push(0, idx)
	var buf [256]spider.Move
	for open.len() > 0 && len(nodes) < limit {
		i := open.pop(idx)
		p := &nodes[i].pos
		moves := p.Legal(buf[:0])
		for _, m := range moves {
			if m.Kind == spider.Remove {
				moves = append(moves[:0], m) // removed at once
				break
			}
		}
		for _, m := range moves {
			if m.Kind == spider.Deal {
				fr = append(fr, frontier{at: i, mv: m, static: nodes[i].eval})
				continue
			}
			if p.Null(m) || pointless(p, m) {
				continue
			}
			q := *p
			if u := q.Do(m); u.Flipped() {
				fr = append(fr, frontier{at: i, mv: m, static: fairEval(&q)})
				continue
			}
			if !seen.add(hashPos(&q)) {
				continue
			}
			e := fairEval(&q)
			nodes = append(nodes, cnode{pos: q, parent: i, mv: m, eval: e})
			idx = append(idx, node{eval: e})
			k := int32(len(nodes) - 1)
			if q.Won() {
				return nodes, fr, k
			}
			open.push(k, idx)
			p = &nodes[i].pos // nodes may have moved
		}
	}
	if view.StockLen() > 0 && !slices.ContainsFunc(fr, func(f frontier) bool { return f.mv.Kind == spider.Deal }) {
		nodes, fr = fillFrontier(nodes, fr)
	}
	return nodes, fr, -1
}

// fillFrontier adds deal frontier moves for a closure that found no
// position to deal from: the best few positions with spaces, their spaces
// filled (fillSpaces). The fill moves become closure nodes.
func fillFrontier(nodes []cnode, fr []frontier) ([]cnode, []frontier) {
	order := make([]int32, len(nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return int(nodes[b].eval - nodes[a].eval) })
	var moves []spider.Move
	added := 0
	for _, i := range order {
		if added == dealCands {
			break
		}
		q := nodes[i].pos
		var ok bool
		if moves, ok = fillSpaces(&q, moves[:0]); !ok {
			continue
		}
		at, p := i, nodes[i].pos
		for _, m := range moves {
			p.Do(m)
			nodes = append(nodes, cnode{pos: p, parent: at, mv: m, eval: fairEval(&p)})
			at = int32(len(nodes) - 1)
		}
		fr = append(fr, frontier{at: at, mv: spider.DealMove, static: nodes[at].eval})
		added++
	}
	return nodes, fr
}

// pickCandidates keeps the frontier moves worth judging: the best turns
// by evaluation (a few per pile, for variety) and the best positions to
// deal from.
func pickCandidates(fr []frontier) []frontier {
	slices.SortStableFunc(fr, func(a, b frontier) int { return cmpDesc(int64(a.static), int64(b.static)) })
	var out []frontier
	var perPile [spider.Piles]int
	flips, deals := 0, 0
	for _, f := range fr {
		if f.mv.Kind == spider.Deal {
			if deals < dealCands {
				out = append(out, f)
				deals++
			}
			continue
		}
		if flips < flipCands && perPile[f.mv.From] < flipsPerPile {
			out = append(out, f)
			perPile[f.mv.From]++
			flips++
		}
	}
	return out
}

// linePath is the moves from the closure root to node i, then m (if any).
func linePath(nodes []cnode, i int32, m spider.Move) []spider.Move {
	var out []spider.Move
	for ; i > 0; i = nodes[i].parent {
		out = append(out, nodes[i].mv)
	}
	slices.Reverse(out)
	if m != (spider.Move{}) {
		out = append(out, m)
	}
	return out
}

// rollout plays on from q, a sampled world, greedily to the end of the
// stage: while some line turns a card, take the one whose evaluation is
// best once the card is turned. It returns the evaluation of the best
// position the last step reached, or winValue.
func rollout(c *closer, q *spider.Position) int64 {
	won, last, _ := stageRollout(c, q, true)
	if won {
		return winValue
	}
	return last
}

// rolloutWin is what a won rollout scores, in evaluation points: more than
// any position short of a win, on the scale of the candidates' scores.
const rolloutWin = 2000

// fairRollout plays on from q, a sampled world, to the end of the stage the
// way a player who cannot see the cards might: while a line turns a card,
// it takes the one that leaves the best position before the card turns
// (rollout looks at the card turned, which is one card of clairvoyance).
// It returns the best evaluation reached on the way, or rolloutWin: how
// far a line gets before the next deal. A candidate's mean over the
// sampled worlds asks what its line leads to once the cards it uncovers
// are seen, where the evaluation of the position it leaves from cannot.
func fairRollout(c *closer, q *spider.Position) int64 {
	won, _, path := stageRollout(c, q, false)
	if won {
		return rolloutWin
	}
	return path
}

// stageRollout plays on from q to the end of the stage (at most 200 cards
// turned), each step turning the card whose line is best: by the
// evaluation once the card is turned if peek, else by the evaluation
// before. It reports whether the game was won, the best evaluation of
// the last step's closure, and the best evaluation on the whole way.
func stageRollout(c *closer, q *spider.Position, peek bool) (won bool, last, path int64) {
	p := *q
	path = int64(fairEval(&p))
	for range 200 {
		if p.Won() {
			return true, 0, 0
		}
		nodes, fr, win := c.run(&p, rolloutCap)
		if win >= 0 {
			return true, 0, 0
		}
		last = int64(nodes[0].eval)
		for i := range nodes {
			last = max(last, int64(nodes[i].eval))
		}
		path = max(path, last)
		bi := -1
		for i, f := range fr {
			if f.mv.Kind == spider.Deal {
				continue
			}
			if bi < 0 || peek && f.static > fr[bi].static || !peek && nodes[f.at].eval > nodes[fr[bi].at].eval {
				bi = i
			}
		}
		if bi < 0 {
			return false, last, path
		}
		p = nodes[fr[bi].at].pos
		p.Do(fr[bi].mv)
		path = max(path, int64(fairEval(&p)))
	}
	last = int64(fairEval(&p))
	return false, last, max(path, last)
}
