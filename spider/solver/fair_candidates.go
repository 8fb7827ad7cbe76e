package solver

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"cardtable/spider"
)

// A decision's candidate lines (judgePlan): each found once, with the
// votes of the sampled worlds that proposed it, scored, and judged in
// the worlds.

// candidate is a line the fair player may play, ending with its first
// event (or a win).
type candidate struct {
	votes int   // sampled worlds whose solution starts with this line
	wins  int   // sampled worlds the judge still wins after it
	eval  int32 // fair evaluation of the position just before the event
	key   string
	line  []spider.Move
	// winWeight is what each judged win adds to the score.
	winWeight int64
}

func (c *candidate) deals() bool {
	return len(c.line) > 0 && c.line[len(c.line)-1].Kind == spider.Deal
}

// score is what the player maximizes: judged wins, votes and evaluation;
// a card turned is preferred to the stock.
func (c *candidate) score() int64 {
	sc := int64(c.wins)*c.winWeight + int64(c.votes)*voteWeight + int64(c.eval)
	if c.deals() {
		sc -= dealPenalty
	}
	return sc
}

// candidates is a decision's lines, each once, in the order found.
type candidates struct {
	byKey map[string]*candidate
	list  []*candidate
	// winWeight is what a judged win adds to a candidate's score (0:
	// 2×voteWeight).
	winWeight int64
}

// add adds votes to line's candidate, making it if it is new.
func (cs *candidates) add(line []spider.Move, eval int32, votes int) {
	k := fmt.Sprint(line)
	if c := cs.byKey[k]; c != nil {
		c.votes += votes
		return
	}
	if cs.byKey == nil {
		cs.byKey = map[string]*candidate{}
	}
	c := &candidate{votes: votes, eval: eval, key: k, line: line, winWeight: cmp.Or(cs.winWeight, 2*voteWeight)}
	cs.byKey[k] = c
	cs.list = append(cs.list, c)
}

// propose samples worlds from view and solves each for o.Nodes nodes;
// every world won proposes its line, cut after its first event. It
// returns the worlds.
func (cs *candidates) propose(ctx context.Context, view *spider.Position, open bool, o FairOptions, samples int, rng *rand.Rand) ([]spider.Position, error) {
	// Solve reads no random numbers, so sampling every world first draws
	// the same worlds as sampling each before its solve.
	worlds, err := sample(nil, view, open, samples, rng)
	if err != nil {
		return nil, err
	}
	for i := range worlds {
		w := &worlds[i]
		r := solve(ctx, w, Limits{Nodes: o.Nodes})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.Status == Solved {
			line, ev := untilEvent(w, r.Moves)
			cs.add(line, ev, 1)
		}
	}
	return worlds, nil
}

// better reports whether c beats d: a higher score, or the same score
// and the smaller key, so that the order found cannot matter.
func (c *candidate) better(d *candidate) bool {
	sc, sd := c.score(), d.score()
	return sc > sd || sc == sd && c.key < d.key
}

// byScore orders candidates best first (see better).
func byScore(a, b *candidate) int {
	switch {
	case a.better(b):
		return -1
	case b.better(a):
		return 1
	}
	return 0
}

// best is the best candidate, or nil.
func (cs *candidates) best() *candidate {
	var best *candidate
	for _, c := range cs.list {
		if best == nil || c.better(best) {
			best = c
		}
	}
	return best
}

// judge counts, for each candidate, the worlds (of n) it still wins after
// its line (won), and returns the best candidate. It skips the rest of a
// candidate's worlds once even winning all of them could not beat the best
// candidate judged so far: the choice is the same as judging every
// candidate in full, for a fraction of the solves (a deal, for one, is
// never judged once a card turn has been).
func (cs *candidates) judge(n int, won func(c *candidate, world int) bool) *candidate {
	order := slices.Clone(cs.list)
	// The most promising first, so that the bound cuts the most.
	slices.SortFunc(order, byScore)
	var best *candidate
	for _, c := range order {
		beaten := false
		for wi := range n {
			if best != nil && c.score()+int64(n-wi)*c.winWeight < best.score() {
				beaten = true
				break
			}
			if won(c, wi) {
				c.wins++
			}
		}
		if !beaten && (best == nil || c.better(best)) {
			best = c
		}
	}
	return best
}

// untilEvent cuts line after its first move that turns a card or deals,
// and returns the fair evaluation of the position before that move.
func untilEvent(w *spider.Position, line []spider.Move) ([]spider.Move, int32) {
	q := *w
	ev := fairEval(&q)
	for i, m := range line {
		ev = fairEval(&q)
		if u := q.Do(m); u.Flipped() || m.Kind == spider.Deal {
			return line[:i+1], ev
		}
	}
	return line, ev
}
