package bot

import (
	"context"
	"fmt"
	"math"
	"sync"

	"cardtable/arlington"
)

// ISMCTS is single-observer information-set Monte Carlo tree search
// (Cowling, Powley and Whitehouse 2012), a candidate against Search: one
// tree over the actions of every seat from the bot's information set;
// each iteration samples a world consistent with the view, descends the
// tree among the actions legal in that world (UCB with availability
// counts), adds one node and plays out to the end of the hand with greedy
// play (or near it: temp). It chooses the root action visited most.
// Budget: Level.Worlds times Level.Candidates iterations (the rollouts
// Search would play), on independent trees per goroutine whose root
// counts are added up.
type ISMCTS struct {
	lv Level
	r  *arlington.Rand
	// plan, if set, turns a decision's view and the level's iteration
	// budget into the budget and world sampler to use (master.go); nil:
	// the level's budget and the searches' worlds (sample, worlds.go).
	plan func(v arlington.View, iters int) (int, sampler)
	// score, if set, values a played-out hand for each seat from the
	// totals before it (master.go); nil: handValues.
	score func(s *arlington.State, before []int) []float64
	// temp is the play-outs' softmax temperature by number of players, in
	// the greedy score's hundredths of a point (master.go); 0: greedy.
	temp [7]int
	// policyOthers, if set, grows the other seats' nodes by the play-out
	// policy (expandOther; master.go): a node of another seat adds the
	// action the play-out would take in the world dealt, never a random
	// one. false: every node adds a random untried action.
	policyOthers bool
	// rootFloor, if set, gives every root candidate at least
	// sqrt(2 n / k) of the tree's n iterations (k candidates) before UCB
	// chooses there (floorChild; master.go). false: UCB alone.
	rootFloor bool
}

// sampler deals one world consistent with a decision's view from r.
type sampler func(r *arlington.Rand) (*arlington.State, error)

// NewISMCTS returns an ISMCTS bot with lv's budget, seeded with seed.
func NewISMCTS(lv Level, seed uint64) *ISMCTS {
	return &ISMCTS{lv: lv, r: arlington.NewRand(seed)}
}

// Name is "ismcts-" and the level's name.
func (b *ISMCTS) Name() string { return "ismcts-" + b.lv.Name }

// uctC is the exploration constant, in points of hand difference (values
// run over about ±20).
const uctC = 6.0

type isNode struct {
	seat     int // who took the action leading here
	action   arlington.Action
	children []*isNode
	visits   float64
	avail    float64
	total    float64 // value for seat, summed over visits
}

func (n *isNode) child(a arlington.Action) *isNode {
	for _, c := range n.children {
		if c.action == a {
			return c
		}
	}
	return nil
}

// ismctsWorkers is how many trees a decision grows at once.
const ismctsWorkers = 2

// Act searches and chooses, within the level's Time and ctx's deadline
// (as Search.Act).
func (b *ISMCTS) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	cands, base, err := prepare(ctx, v, b.lv, b.r)
	if err != nil || len(cands) == 1 {
		return first(cands), err
	}
	sctx, cancel := bound(ctx, b.lv)
	defer cancel()
	iters := max(1, b.lv.Worlds*max(1, b.lv.Candidates))
	deal := func(r *arlington.Rand) (*arlington.State, error) { return sample(v, r) }
	if b.plan != nil {
		iters, deal = b.plan(v, iters)
	}
	// The trees are split into a fixed number of goroutines, not one per
	// core: each grows its own tree, so the decision depends on how many
	// there are, and a fixed count makes it the same on every machine
	// (two: the count its strength was measured with, docs/bots.md).
	workers := b.lv.Workers
	if workers <= 0 {
		workers = ismctsWorkers
	}
	visits := make([][]float64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		// Each goroutine grows its own tree for its share of the
		// iterations and exits when they are done or sctx ends.
		go func() {
			defer wg.Done()
			visits[w], errs[w] = b.grow(sctx, v.Seat, deal, cands, SeatSeed(base, w), (iters+workers-1-w)/workers)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return arlington.Action{}, err
	}
	sum := make([]float64, len(cands))
	for w := range workers {
		if errs[w] != nil {
			return arlington.Action{}, errs[w]
		}
		for i, x := range visits[w] {
			sum[i] += x
		}
	}
	best := 0
	for i := range sum {
		if sum[i] > sum[best] {
			best = i
		}
	}
	return cands[best], nil
}

// grow runs iters iterations on a fresh tree and returns the root
// candidates' visit counts.
func (b *ISMCTS) grow(ctx context.Context, me int, deal sampler, cands []arlington.Action, seed uint64, iters int) ([]float64, error) {
	r := arlington.NewRand(seed)
	g := NewGreedy(^seed) // apart from r: expert's trees, which do not use g, draw from r alone
	root := &isNode{seat: -1}
	for _, a := range cands {
		root.children = append(root.children, &isNode{seat: me, action: a})
	}
	for range iters {
		if ctx.Err() != nil {
			break
		}
		if err := b.iterate(ctx, deal, root, me, r, g); err != nil {
			return nil, err
		}
	}
	out := make([]float64, len(cands))
	for i, c := range root.children {
		out[i] = c.visits
	}
	return out, nil
}

// iterate is one determinize-select-expand-playout-backpropagate pass
// for the tree of seat me; g is the tree's play-out policy, used by
// expandOther.
func (b *ISMCTS) iterate(ctx context.Context, deal sampler, root *isNode, me int, r *arlington.Rand, g *Greedy) error {
	s, err := deal(r)
	if err != nil {
		return err
	}
	hand, before := s.HandNumber(), s.Totals()
	temp := b.temp[min(s.Players(), 6)]
	path := []*isNode{}
	node := root
	for !s.Terminal() && s.HandNumber() == hand {
		seat := s.ToMove()
		var legal []arlington.Action
		if node == root {
			for _, c := range root.children {
				legal = append(legal, c.action)
			}
		} else {
			legal = s.Legal(seat)
		}
		var fresh []arlington.Action
		for _, a := range legal {
			if c := node.child(a); c != nil {
				c.avail++
			} else {
				fresh = append(fresh, a)
			}
		}
		var next, floor *isNode
		if node == root && b.rootFloor {
			floor = floorChild(root)
		}
		added := false
		switch {
		case floor != nil:
			next = floor
		case b.policyOthers && node != root && seat != me:
			next, added = expandOther(node, seat, legal, g.policy(s, seat, legal, temp))
		case len(fresh) > 0:
			next, added = &isNode{seat: seat, action: fresh[r.Intn(len(fresh))], avail: 1}, true
			node.children = append(node.children, next)
		default:
			next = bestUCB(node, legal)
		}
		if err := s.Apply(seat, next.action); err != nil {
			return fmt.Errorf("ismcts: %w", err)
		}
		path = append(path, next)
		node = next
		if added {
			break
		}
	}
	if done, err := play(ctx, s, r.Uint64(), hand, temp); !done || err != nil {
		return err
	}
	score := b.score
	if score == nil {
		score = handValues
	}
	vals := score(s, before)
	for _, n := range path {
		n.visits++
		n.total += vals[n.seat]
	}
	return nil
}

// bestUCB is the child of node, among those whose actions are in legal,
// with the highest upper confidence bound (availability counts); nil if
// none is.
func bestUCB(node *isNode, legal []arlington.Action) *isNode {
	var next *isNode
	bestU := math.Inf(-1)
	for _, a := range legal {
		c := node.child(a)
		if c == nil {
			continue
		}
		u := c.total/max(c.visits, 1) + uctC*math.Sqrt(math.Log(max(c.avail, 1))/max(c.visits, 1))
		if u > bestU {
			next, bestU = c, u
		}
	}
	return next
}

// expandOther chooses the move of a seat other than the tree's at node,
// in a world where legal are its actions and policy is the one the play-
// out would take: that action, added as a node if it is not one yet
// (added true), else the best by UCB among the node's children legal
// here. So the others play the play-out's moves, and a move the tree
// has found better for them in other worlds where it is legal here too.
// A random untried action instead (as for the tree's own seat) would be
// one the seat would seldom play: the others' hands differ from world to
// world, so most of their actions are untried and the tree rated their
// replies by random moves. A seat with more to choose from, such as
// one handed a joker, then looked weaker than it is (docs/bots.md, "The
// joker given away").
func expandOther(node *isNode, seat int, legal []arlington.Action, policy arlington.Action) (*isNode, bool) {
	if c := node.child(policy); c != nil {
		return bestUCB(node, legal), false
	}
	c := &isNode{seat: seat, action: policy, avail: 1}
	node.children = append(node.children, c)
	return c, true
}

// floorChild is the least visited root candidate if it has fewer than
// sqrt(2 n / k) visits, n being the root's visits and k its candidates
// (nil if none has). Values run to ±40 where a hand can end the game, and
// the exploration term (uctC) is set for about ±20: one unlucky first
// play-out could leave a candidate unvisited for the rest of a decision
// (seen: a candidate the flat values rated 8.7 points the better kept
// its first value, -40, through 6,000 iterations). The floor costs a
// few percent of a tree's iterations (14 candidates in a tree of 2,016:
// 17 each) and makes the choice rest on more than a sample or two.
func floorChild(root *isNode) *isNode {
	n := 0.0
	for _, c := range root.children {
		n += c.visits
	}
	floor := math.Sqrt(2 * n / float64(len(root.children)))
	var least *isNode
	for _, c := range root.children {
		if c.visits < floor && (least == nil || c.visits < least.visits) {
			least = c
		}
	}
	return least
}
