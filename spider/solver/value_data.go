package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"cardtable/spider"
)

// ValueSample is a labelled position for the learned value: its features
// (what a player sees) and whether the full-information solver, knowing
// the hidden cards, won it within the labelling budget.
type ValueSample struct {
	X    [nValue]float64
	Won  bool
	Deal uint64
}

// ValueData plays deal n to the end with the fair player o and, at every
// decision, labels the real position and the position after each of the
// closure's candidate lines (the card turns and deals the player weighs,
// played with the real cards) by a solve of nodes nodes. Siblings of one
// decision give the model the contrasts a ranking needs.
//
// With lineNodes positive the deal is first solved with that many nodes
// and, if won, the same is done at every event of the winning line: its
// positions are labelled won without a solve (the line wins from them),
// their siblings by solves. The solver's lines give the positives that
// the fair player's games, lost early at 4 suits, lack. With o.Samples 0
// only the line is labelled.
func ValueData(ctx context.Context, n uint64, so spider.Options, nodes, lineNodes int64, o FairOptions) ([]ValueSample, error) {
	g, err := spider.NewGame(n, so)
	if err != nil {
		return nil, err
	}
	var out []ValueSample
	label := func(q *spider.Position, known bool) {
		won := known
		if !known {
			won = solve(ctx, q, Limits{Nodes: nodes}).Status == Solved
		}
		out = append(out, ValueSample{X: valueFeatures(q), Won: won, Deal: n})
	}
	decision := func(real spider.Position, onLine bool) {
		label(&real, onLine)
		cl := newClosure(&real)
		for _, f := range pickCandidates(cl.fr) {
			q := after(real, linePath(cl.nodes, f.at, f.mv))
			if !q.Won() {
				label(&q, false)
			}
		}
	}
	if lineNodes > 0 {
		start := g.Position()
		if r := solve(ctx, &start, Limits{Nodes: lineNodes}); r.Status == Solved {
			p := start
			decision(p, true)
			for _, m := range r.Moves {
				if u := p.Do(m); (u.Flipped() || m.Kind == spider.Deal) && !p.Won() {
					decision(p, true)
				}
			}
		}
	}
	open := so.Open
	for moves := 0; o.Samples > 0 && !g.Won() && moves < 1500; {
		decision(g.Position(), false)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h := visibleHash(g.Pos(), open)
		rng := rand.New(rand.NewPCG(h, o.Seed^uint64(moves)))
		view, err := scramble(g.Pos(), open, rng)
		if err != nil {
			return nil, err
		}
		line, err := plan(ctx, &view, open, o, rng)
		if errors.Is(err, ErrNoMove) {
			break
		}
		if err != nil {
			return nil, err
		}
		for _, m := range line {
			if err := g.Play(m); err != nil {
				return nil, fmt.Errorf("solver: the fair player chose %s: %w", m, err)
			}
			moves++
		}
	}
	return out, nil
}

// ValueFit is a learned value fitted to samples.
type ValueFit struct {
	m valueModel
}

// FitValue fits a logistic regression to samples by Newton's method, with
// an L2 penalty l2 on every weight but the bias. It is deterministic.
func FitValue(samples []ValueSample, l2 float64) (*ValueFit, error) {
	if len(samples) == 0 {
		return nil, errors.New("solver: no samples to fit")
	}
	var w valueVec
	for range 30 {
		var grad valueVec
		var hess [nValue][nValue]float64
		for i := range samples {
			x := &samples[i].X
			p := (&valueModel{w}).prob((*valueVec)(x))
			y := 0.0
			if samples[i].Won {
				y = 1
			}
			s := max(p*(1-p), 1e-9)
			for a := range nValue {
				grad[a] += (p - y) * x[a]
				for b := range nValue {
					hess[a][b] += s * x[a] * x[b]
				}
			}
		}
		for a := 1; a < nValue; a++ {
			grad[a] += l2 * w[a]
			hess[a][a] += l2
		}
		hess[0][0] += 1e-9
		step, ok := solveLinear(hess, grad)
		if !ok {
			return nil, errors.New("solver: the value fit is singular")
		}
		size := 0.0
		for a := range nValue {
			w[a] -= step[a]
			size = max(size, math.Abs(step[a]))
		}
		if size < 1e-7 {
			break
		}
	}
	return &ValueFit{valueModel{w}}, nil
}

// solveLinear solves a·x = b by Gaussian elimination with partial
// pivoting; ok is false for a singular a.
func solveLinear(a [nValue][nValue]float64, b valueVec) (x valueVec, ok bool) {
	for c := range nValue {
		p := c
		for r := c + 1; r < nValue; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return x, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < nValue; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < nValue; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	for c := nValue - 1; c >= 0; c-- {
		s := b[c]
		for k := c + 1; k < nValue; k++ {
			s -= a[c][k] * x[k]
		}
		x[c] = s / a[c][c]
	}
	return x, true
}

// Score is the fit's mean log-loss (natural log) and accuracy (a chance
// of at least one half read as won) on samples.
func (f *ValueFit) Score(samples []ValueSample) (logLoss, accuracy float64) {
	if len(samples) == 0 {
		return 0, 0
	}
	right := 0
	for i := range samples {
		p := f.m.prob((*valueVec)(&samples[i].X))
		p = min(max(p, 1e-12), 1-1e-12)
		if samples[i].Won {
			logLoss -= math.Log(p)
		} else {
			logLoss -= math.Log(1 - p)
		}
		if (p >= 0.5) == samples[i].Won {
			right++
		}
	}
	n := float64(len(samples))
	return logLoss / n, float64(right) / n
}

// FormatValue is value.txt's text for fits by suit count, with a header
// of comment lines.
func FormatValue(header []string, fits map[int]*ValueFit) string {
	var b strings.Builder
	for _, h := range header {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, s := range []int{1, 2, 4} {
		if f := fits[s]; f != nil {
			formatModel(&b, s, &f.m)
		}
	}
	return b.String()
}
