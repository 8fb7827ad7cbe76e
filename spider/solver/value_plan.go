package solver

import (
	"context"
	"math/rand/v2"

	"cardtable/spider"
)

// valueVote is what a candidate's share of proposing worlds adds to its
// learned value (a chance, 0..1): a line every sampled world's solver
// won with is worth a tenth more than one none proposed.
const valueVote = 0.1

// valueCap bounds the closure searched after a candidate's line in each
// world when FairOptions.ValueAhead is 1 or more.
const valueCap = 200

// valuePlan is plan with the learned value (FairOptions.Value): the
// candidates are the sampled worlds' proposals and the closure's card
// turns and deals, as for the judge, and each is valued by an expectimax
// over what its last move reveals: the mean over the sampled worlds of
// the model's value of the position the line reaches there (with
// ValueAhead 1, of the best position the player can then reach before the
// next card turns, a max over the next decision's lines; 2, the same at
// the end of a fair rollout to the next deal). A deal is
// chosen only when no card can be turned, as in the other modes. view
// must already be scrambled.
func valuePlan(ctx context.Context, view *spider.Position, open bool, o FairOptions, m *valueModel, rng *rand.Rand) ([]spider.Move, error) {
	samples := max(o.Samples, 1)
	var cs candidates
	worlds, err := cs.propose(ctx, view, open, o, samples, rng)
	if err != nil {
		return nil, err
	}
	if line, err := cs.addClosure(ctx, view, open, o, rng); line != nil || err != nil {
		return line, err
	}
	turns := false
	for _, c := range cs.list {
		turns = turns || !c.deals()
	}
	var rc closer
	var best *candidate
	bestScore := 0.0
	for _, c := range cs.list {
		if turns && c.deals() {
			continue
		}
		sum := 0.0
		for wi := range worlds {
			q := after(worlds[wi], c.line)
			sum += m.ahead(&rc, &q, o.ValueAhead)
		}
		n := float64(len(worlds))
		score := sum/n + valueVote*float64(c.votes)/n
		if best == nil || score > bestScore || score == bestScore && c.key < best.key {
			best, bestScore = c, score
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return best.line, nil
}

// ahead is the value of q for the player about to decide there, looking
// depth decisions on: 0, the model's value of q; 1, the best value over
// q's closure (the positions reached before the next card turns or row
// is dealt); 2, the same at the end of a fair rollout from q (each step
// turns the card whose line leaves the best position by the fair
// evaluation before it turns, until only a deal is left). A win is 1.
func (m *valueModel) ahead(rc *closer, q *spider.Position, depth int) float64 {
	if q.Won() {
		return 1
	}
	if depth <= 0 {
		return m.value(q)
	}
	p := *q
	for range 200 {
		nodes, fr, win := rc.run(&p, valueCap)
		if win >= 0 {
			return 1
		}
		bi := -1
		if depth >= 2 {
			for i, f := range fr {
				if f.mv.Kind != spider.Deal && (bi < 0 || nodes[f.at].eval > nodes[fr[bi].at].eval) {
					bi = i
				}
			}
		}
		if bi < 0 {
			best := 0.0
			for i := range nodes {
				best = max(best, m.value(&nodes[i].pos))
			}
			return best
		}
		p = nodes[fr[bi].at].pos
		p.Do(fr[bi].mv)
		if p.Won() {
			return 1
		}
	}
	return m.value(&p)
}
