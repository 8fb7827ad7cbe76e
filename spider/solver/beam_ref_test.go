package solver

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"cardtable/spider"
)

// The beam search as it was before it was made faster (26 November,
// acb6ec9), kept as the reference that TestBeamMatchesReference holds
// the beam to: the same lines and the same positions generated, in
// every mode. It filters Legal, evaluates and hashes every child afresh
// and sorts all candidates; the beam must give exactly what it gives.

// refCand is a child considered for the next level.
type refCand struct {
	parent int32
	mv     spider.Move
	eval   int32
	h      uint64
}

// beamer holds a beam search's arrays, reused from level to level.
type refBeamer struct {
	ctx      context.Context
	deadline time.Time // zero: none
	w        *evalWeights
	fw       *fullWeights // when set, the full-information evaluation (beam4.go) instead of w
	perStage bool         // keep width positions for each number of rows left in the stock
	per      []int        // positions kept at this level for each number of rows left
	// maxLevels, when not zero, ends the search after that many levels:
	// a beam that has not won by then would find a line longer than the
	// one it is to beat (measured: lines that wander so long barely
	// shorten, and a beam that wanders spends its whole budget).
	maxLevels int
	stock     int32 // what each card still in the stock costs the evaluation
	levels    [][]bnode
	cur       []spider.Position
	next      []spider.Position
	cands     []refCand
	evals     []int32
	limit     int // positions the search may generate
	seen      hashSet
	buf       [256]spider.Move
	gen       int
}

// full is the beam's evaluation of p, computed afresh.
func (b *refBeamer) full(p *spider.Position) int32 {
	var e int32
	for k := range spider.Piles {
		e += b.pile(p, k)
	}
	return b.eval(p, e)
}

// pile is pile k's part of the beam's evaluation.
func (b *refBeamer) pile(p *spider.Position, k int) int32 {
	if b.fw != nil {
		return pileFull(p, k, b.fw)
	}
	return pileEvalW(p, k, b.w)
}

// eval is the beam's evaluation of p given the sum of its piles' terms.
func (b *refBeamer) eval(p *spider.Position, piles int32) int32 {
	if b.fw != nil {
		return piles + int32(p.NumRemoved())*b.fw.removed - int32(p.StockLen())*b.fw.stock + landFull(p, b.fw)
	}
	return piles + int32(p.NumRemoved())*b.w.removed - int32(p.StockLen())*b.stock
}

// run is beamSearch with b's weights, ctx and deadline. Its memory is
// small and bounded: two levels of positions (width of them, about a
// kilobyte each), the candidates of a level, a move a position kept and
// the hashes of the positions kept.
func (b *refBeamer) run(p *spider.Position, width, limit int) ([]spider.Move, bool) {
	b.limit = limit
	b.cur = append(b.cur[:0], *p)
	b.levels = append(b.levels[:0], []bnode{{parent: -1, rm: -1}})
	b.seen.reset()
	b.seen.add(hashPos(p))
	for len(b.cur) > 0 && b.gen < limit && (b.maxLevels == 0 || len(b.levels) <= b.maxLevels) {
		if b.ctx != nil && b.ctx.Err() != nil || !b.deadline.IsZero() && time.Now().After(b.deadline) {
			return nil, false
		}
		b.cands = b.cands[:0]
		for i := range b.cur {
			if won := b.expand(int32(i)); won >= 0 {
				return b.line(b.cands[won]), true
			}
			if b.gen >= b.limit {
				return nil, false
			}
		}
		if len(b.cands) == 0 {
			return nil, false
		}
		if b.fw != nil {
			// Positions met before (at this level or an earlier one)
			// are left out before the cut, so that a beam on a plateau
			// keeps its width instead of dying out.
			kept := b.cands[:0]
			for _, c := range b.cands {
				if !b.seen.has(c.h) {
					kept = append(kept, c)
				}
			}
			b.cands = kept
		}
		if b.perStage {
			b.per = append(b.per[:0], make([]int, (p.StockLen()+spider.Piles-1)/spider.Piles+1)...)
			b.bestPer(2 * width)
		} else {
			b.best(2 * width)
		}
		lv := make([]bnode, 0, min(width, len(b.cands)))
		b.next = b.next[:0]
		for _, c := range b.cands {
			if !b.perStage && len(lv) >= width {
				break
			}
			var g int
			if b.perStage {
				g = b.group(c)
				if b.per[g] >= width {
					continue
				}
			}
			if !b.seen.add(c.h) {
				continue
			}
			if b.perStage {
				b.per[g]++
			}
			q := b.cur[c.parent]
			rm := b.step(&q, c.mv)
			lv = append(lv, bnode{parent: c.parent, mv: c.mv, rm: rm})
			b.next = append(b.next, q)
		}
		b.levels = append(b.levels, lv)
		b.cur, b.next = b.next, b.cur
	}
	return nil, false
}

// best sorts the candidates best first, ties in the order met (so that
// the search is deterministic), keeping only about the n best: sorting
// them all took most of the beam's time.
func (b *refBeamer) best(n int) {
	if len(b.cands) > n {
		b.evals = b.evals[:0]
		for _, c := range b.cands {
			b.evals = append(b.evals, c.eval)
		}
		slices.Sort(b.evals)
		cut := b.evals[len(b.evals)-n]
		kept := b.cands[:0]
		for _, c := range b.cands {
			if c.eval >= cut {
				kept = append(kept, c)
			}
		}
		b.cands = kept
	}
	slices.SortStableFunc(b.cands, func(x, y refCand) int { return int(y.eval) - int(x.eval) })
}

// group is the beam a candidate joins in a beam per stage: the number of
// rows left in the stock after its move.
func (b *refBeamer) group(c refCand) int {
	left := b.cur[c.parent].StockLen()
	if c.mv.Kind == spider.Deal {
		left -= min(left, spider.Piles)
	}
	return (left + spider.Piles - 1) / spider.Piles
}

// bestPer is best for a beam per stage: it keeps about the n best
// candidates of each group and sorts them best first, ties in the order
// met.
func (b *refBeamer) bestPer(n int) {
	cut := make([]int32, len(b.per))
	for g := range b.per {
		b.evals = b.evals[:0]
		for _, c := range b.cands {
			if b.group(c) == g {
				b.evals = append(b.evals, c.eval)
			}
		}
		cut[g] = math.MinInt32
		if len(b.evals) > n {
			slices.Sort(b.evals)
			cut[g] = b.evals[len(b.evals)-n]
		}
	}
	kept := b.cands[:0]
	for _, c := range b.cands {
		if c.eval >= cut[b.group(c)] {
			kept = append(kept, c)
		}
	}
	b.cands = kept
	slices.SortStableFunc(b.cands, func(x, y refCand) int { return int(y.eval) - int(x.eval) })
}

// step makes mv on q and the removal it allows, and reports the pile of
// that removal, or -1.
func (b *refBeamer) step(q *spider.Position, mv spider.Move) int8 {
	q.Do(mv)
	for k := range spider.Piles {
		if mv.Kind == spider.MoveCards && k != int(mv.To) && k != int(mv.From) {
			continue
		}
		if complete(q, k) {
			q.Do(spider.RemoveFrom(k))
			return int8(k)
		}
	}
	return -1
}

// expand adds the children of the i-th position of the beam to the
// candidates; it returns the index of a child that wins, or -1.
func (b *refBeamer) expand(i int32) int {
	p := &b.cur[i]
	var terms [spider.Piles]uint64
	var evals [spider.Piles]int32
	var sumT uint64
	var sumE int32
	for k := range spider.Piles {
		terms[k], evals[k] = pileTerm(p, k), b.pile(p, k)
		sumT += terms[k]
		sumE += evals[k]
	}
	for _, m := range p.Legal(b.buf[:0]) {
		if m.Kind == spider.Remove || p.Null(m) || pointless(p, m) {
			continue
		}
		if b.gen >= b.limit {
			return -1
		}
		b.gen++
		if m.Kind == spider.Deal {
			q := *p
			b.step(&q, m)
			b.cands = append(b.cands, refCand{parent: i, mv: m, eval: b.full(&q), h: hashPos(&q)})
			continue
		}
		u := p.Do(m)
		f, t := int(m.From), int(m.To)
		var h uint64
		var e int32
		if complete(p, t) || complete(p, f) {
			// A removal follows: evaluate the position after it in full.
			q := *p
			k := t
			if !complete(p, t) {
				k = f
			}
			q.Do(spider.RemoveFrom(k))
			h, e = hashPos(&q), b.full(&q)
			if q.StockLen() == 0 && q.FaceDown() == 0 && q.Won() {
				p.Undo(m, u)
				b.cands = append(b.cands, refCand{parent: i, mv: m, eval: e, h: h})
				return len(b.cands) - 1
			}
		} else {
			hs := sumT - terms[f] + pileTerm(p, f) + pileTerm(p, t) - terms[t]
			es := sumE - evals[f] + b.pile(p, f) + b.pile(p, t) - evals[t]
			h, e = mix(hs+hashBase(p)), b.eval(p, es)
		}
		p.Undo(m, u)
		b.cands = append(b.cands, refCand{parent: i, mv: m, eval: e, h: h})
	}
	return -1
}

// line lists the moves from the start to the candidate c (which is not
// yet in a level), removals included.
func (b *refBeamer) line(c refCand) []spider.Move {
	q := b.cur[c.parent]
	rm := b.step(&q, c.mv)
	var out []spider.Move
	if rm >= 0 {
		out = append(out, spider.RemoveFrom(int(rm)))
	}
	out = append(out, c.mv)
	i := c.parent
	for lv := len(b.levels) - 1; lv > 0; lv-- {
		n := b.levels[lv][i]
		if n.rm >= 0 {
			out = append(out, spider.RemoveFrom(int(n.rm)))
		}
		out = append(out, n.mv)
		i = n.parent
	}
	slices.Reverse(out)
	return out
}

// randomSpaceStock is a 1-suit layout with five suits removed, two rows in
// the stock and pile 10 empty, the rest shuffled by r: with relaxed rules
// the beam deals onto the space.
func randomSpaceStock(r *rand.Rand) string {
	var cards []string
	for range 3 {
		for _, rk := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"} {
			cards = append(cards, rk+"S")
		}
	}
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	var b strings.Builder
	for k := range spider.Piles {
		fmt.Fprintf(&b, "pile%d:", k+1)
		if k < spider.Piles-1 {
			n := 2 // 19 cards on 9 piles
			if k == 0 {
				n = 3
			}
			down := r.IntN(n)
			for j := range n {
				b.WriteString(" ")
				if j < down {
					b.WriteString("|")
				}
				b.WriteString(cards[0])
				cards = cards[1:]
			}
		}
		b.WriteString("\n")
	}
	for row := 1; len(cards) >= spider.Piles; row++ {
		fmt.Fprintf(&b, "row%d: %s\n", row, strings.Join(cards[len(cards)-spider.Piles:], " "))
		cards = cards[:len(cards)-spider.Piles]
	}
	b.WriteString("completed: S S S S S\n")
	return b.String()
}

// TestBeamMatchesReference: the beam gives what it gave before it was
// made faster (refBeamer): the same line or none, the same positions
// generated and the same beam at every level, with the full-information
// evaluation or the search's, per stage or not, on deals (the stock's
// groups), endgames (removals and wins), relaxed deals onto a space and
// a level limit.
func TestBeamMatchesReference(t *testing.T) {
	beamMatchesReference(t, 12, 6_000)
}

// TestLongBeamMatchesReference is TestBeamMatchesReference with the
// beams of Solve's widths and longer runs.
func TestLongBeamMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	beamMatchesReference(t, 200, 300_000)
}

func beamMatchesReference(t *testing.T, width, limit int) {
	type start struct {
		name string
		p    *spider.Position
	}
	var starts []start
	for _, d := range []struct {
		deal  uint64
		suits int
	}{{1, 1}, {2, 2}, {3, 4}} {
		p, err := spider.NewDeal(d.deal, spider.Spider, spider.Rules{Suits: d.suits})
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, start{fmt.Sprintf("deal%d-%dsuit", d.deal, d.suits), p})
	}
	r := rand.New(rand.NewPCG(5, 8))
	for i := range 4 {
		starts = append(starts, start{fmt.Sprintf("endgame%d", i), layout(t, randomSmall(r), 4)})
	}
	for i := range 3 {
		p, err := spider.ParseLayout(randomSpaceStock(r), spider.Rules{Suits: 1, Relaxed: true})
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, start{fmt.Sprintf("relaxed%d", i), p})
	}
	for _, relaxed := range []bool{false, true} {
		p, err := spider.ParseLayout(spacesAndStock, spider.Rules{Suits: 1, Relaxed: relaxed})
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, start{fmt.Sprintf("spaces-relaxed%v", relaxed), p})
	}
	modes := []struct {
		name      string
		full      *fullWeights // nil: the search's evaluation
		perStage  bool
		maxLevels int
	}{{"full-per-stage", &full4, true, 0}, {"full", &full4, false, 0}, {"search-eval", nil, false, 0},
		{"search-eval-per-stage", nil, true, 0}, {"full-per-stage-levels", &full4, true, 12},
		{"build-per-stage", &fullBuild, true, 0}, {"land-per-stage", &full1, true, 0}}
	won := 0
	for _, s := range starts {
		for _, m := range modes {
			t.Run(s.name+"/"+m.name, func(t *testing.T) {
				b := &beamer{perStage: m.perStage, maxLevels: m.maxLevels}
				ref := &refBeamer{perStage: m.perStage, maxLevels: m.maxLevels}
				if m.full != nil {
					b.fw, ref.fw = m.full, m.full
				} else {
					b.w, b.stock = &weightSets[0], beamStock
					ref.w, ref.stock = &weightSets[0], beamStock
				}
				line, ok := b.run(s.p, width, limit)
				want, wantOK := ref.run(s.p, width, limit)
				if ok != wantOK || !slices.Equal(line, want) || b.gen != ref.gen {
					t.Fatalf("won %v after %d positions with %v, want %v after %d with %v", ok, b.gen, line, wantOK, ref.gen, want)
				}
				if len(b.levels) != len(ref.levels) {
					t.Fatalf("%d levels, want %d", len(b.levels), len(ref.levels))
				}
				for l := range b.levels {
					if !slices.Equal(b.levels[l], ref.levels[l]) {
						t.Fatalf("level %d: %v, want %v", l, b.levels[l], ref.levels[l])
					}
				}
				if ok {
					replay(t, s.p, line)
					won++
				}
			})
		}
	}
	if won == 0 {
		t.Error("no beam won: the wins went untested")
	}
}

// TestSortCands: the candidates' order is that of a stable sort, higher
// evaluations first, by counting (a narrow span) and by comparison (a
// wide one).
func TestSortCands(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for _, span := range []int32{1, 50, 1_000, 1 << 30} {
		t.Run(fmt.Sprint(span), func(t *testing.T) {
			var b beamer
			for range 500 {
				b.cands = append(b.cands, bcand{eval: r.Int32N(span) - span/2})
			}
			b.sortCands()
			want := make([]int32, len(b.cands))
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(x, y int32) int {
				return cmp.Compare(b.cands[y].eval, b.cands[x].eval)
			})
			if !slices.Equal(b.order, want) {
				t.Errorf("order %v, want %v", b.order, want)
			}
		})
	}
}
