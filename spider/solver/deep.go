package solver

import (
	"context"
	"math/rand/v2"
	"slices"

	"cardtable/card"
	"cardtable/spider"
)

// The deep judge looks one decision further than the judge, once the stock
// is empty. The judge counts the sampled worlds a candidate's line still
// wins; but a world's solver, after the line, sees that world's face-down
// cards, so a line that leaves a choice only a clairvoyant can make right
// counts as won. In the endgame of a traced 2-suit game (deal 41) the
// judge's choice lost the real game, while a line it ranked lower kept it
// winnable.
//
// deepen asks instead, for each of the judge's best FairOptions.DeepCands
// candidates: over every card the line's last move can turn (each value
// weighted by how many of the unseen cards have it), how many of
// DeepWorlds fresh worlds the best next line wins, that line chosen once
// the card is seen. The next line is chosen in one set of worlds and
// scored in another, since the best of several noisy counts overstates
// what the chosen line is worth, and more so where there are more lines to
// choose from. Only the first decision after the line is played blind this
// way; the solves behind it still see their worlds' cards.

// deepen returns the judged candidate the deep judge prefers: of the
// judge's choice best and the next DeepCands-1 candidates in the judge's
// order, the one whose deepValue is highest (ties: the earlier). It keeps
// best when fewer than two candidates qualify or more than DeepDown cards
// are face down.
func (cs *candidates) deepen(ctx context.Context, view *spider.Position, o FairOptions, best *candidate, rng *rand.Rand) (*candidate, error) {
	if o.DeepDown > 0 && view.FaceDown() > o.DeepDown {
		return best, nil
	}
	order := slices.Clone(cs.list)
	slices.SortStableFunc(order, func(a, b *candidate) int {
		switch {
		case a == best:
			return -1
		case b == best:
			return 1
		}
		return byScore(a, b)
	})
	order = order[:min(len(order), o.DeepCands)]
	if len(order) < 2 {
		return best, nil
	}
	top, topV := best, int64(-1)
	for _, c := range order {
		v, ok, err := deepValue(ctx, view, c.line, o, rng)
		if err != nil {
			return nil, err
		}
		if ok && v > topV {
			top, topV = c, v
		}
	}
	return top, nil
}

// deepWorlds and deepNodes are the deep judge's budget for the decision
// after a line: worlds sampled and nodes a line and world.
func (o FairOptions) deepWorlds() int {
	if o.DeepWorlds > 0 {
		return o.DeepWorlds
	}
	return max(o.Samples, 1)
}

func (o FairOptions) deepNodes() int64 {
	if o.DeepNodes > 0 {
		return o.DeepNodes
	}
	return o.JudgeNodes
}

// deepValue is the value of playing line from view, whose stock is empty:
// the sum, over the unseen cards its last move can turn up, of the worlds
// (of deepWorlds) that the best next line wins once that card shows; a
// line that wins outright gets the most there is, deepWorlds for every
// unseen card. ok is false if the line's last move turns no card. view's
// own face-down cards are never read: every world is built from the
// visible cards and rng.
func deepValue(ctx context.Context, view *spider.Position, line []spider.Move, o FairOptions, rng *rand.Rand) (v int64, ok bool, err error) {
	if len(line) == 0 {
		return 0, false, nil
	}
	worlds, nodes := o.deepWorlds(), o.deepNodes()
	q := after(*view, line[:len(line)-1])
	last := line[len(line)-1]
	t := q
	u := t.Do(last)
	us := unseen(&q, false)
	if t.Won() {
		return int64(worlds) * int64(len(us)), true, nil
	}
	if !u.Flipped() {
		return 0, false, nil
	}
	k := -1 // the pile whose card turns
	for j := range spider.Piles {
		if t.Down(j) < q.Down(j) {
			k = j
		}
	}
	if k < 0 {
		return 0, false, nil
	}
	count := map[card.Card]int{}
	var distinct []card.Card
	for _, c := range us {
		if count[c] == 0 {
			distinct = append(distinct, c)
		}
		count[c]++
	}
	for _, c := range distinct {
		// A world with c where the card turns and the other unseen cards
		// anywhere: only what is visible once c shows matters to nextBest.
		rest := slices.Clone(us)
		i := slices.Index(rest, c)
		rest = slices.Delete(rest, i, i+1)
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		var hidden [spider.Piles][]card.Card
		for j := range spider.Piles {
			d := q.Down(j)
			if j == k {
				hidden[j] = append(rest[:d-1:d-1], c)
				rest = rest[d-1:]
				continue
			}
			hidden[j], rest = rest[:d:d], rest[d:]
		}
		w, err := q.WithHidden(&hidden, nil)
		if err != nil {
			return 0, false, err
		}
		w.Do(last)
		best, err := nextBest(ctx, &w, worlds, nodes, rng)
		if err != nil {
			return 0, false, err
		}
		v += int64(count[c]) * best
	}
	return v, true, nil
}

// nextBest is how many of n fresh worlds (arrangements of w's unseen
// cards) the best candidate line of w's decision wins, each solved for
// nodes nodes: the line is the best of w's closure candidates in n
// worlds, and its count is taken in n others.
func nextBest(ctx context.Context, w *spider.Position, n int, nodes int64, rng *rand.Rand) (int64, error) {
	full := int64(n)
	if w.Won() {
		return full, nil
	}
	if len(unseen(w, false)) == 0 {
		if solve(ctx, w, Limits{Nodes: nodes * int64(n)}).Status == Solved {
			return full, nil
		}
		return 0, ctx.Err()
	}
	cl := newClosure(w)
	if cl.win >= 0 {
		return full, nil
	}
	cands := pickCandidates(cl.fr)
	if len(cands) == 0 {
		return 0, nil
	}
	worlds, err := sample(nil, w, false, n, rng)
	if err != nil {
		return 0, err
	}
	best, tried := -1, 0
	var bestLine []spider.Move
	for _, f := range cands {
		line := linePath(cl.nodes, f.at, f.mv)
		tried++
		wins := 0
		for wi := range worlds {
			if wins+n-wi <= best {
				break // cannot beat the best so far
			}
			p := after(worlds[wi], line)
			if solve(ctx, &p, Limits{Nodes: nodes}).Status == Solved {
				wins++
			}
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if wins > best {
			best, bestLine = wins, line
		}
		if best == n {
			break
		}
	}
	if tried > 1 {
		// Counted in n other worlds: the best of several noisy counts
		// overstates the line it picks.
		fresh, err := sample(worlds[:0], w, false, n, rng)
		if err != nil {
			return 0, err
		}
		best = 0
		for _, s := range fresh {
			p := after(s, bestLine)
			if solve(ctx, &p, Limits{Nodes: nodes}).Status == Solved {
				best++
			}
		}
	}
	return int64(best), ctx.Err()
}
