//go:build measure

package solver

// What the loss prover spends its nodes on at the points of the greedy
// games next to a band (docs/analysis.md, "Where the prover's nodes
// go"):
//
//	go test -tags measure -run TestMeasureProverCensus -v ./spider/solver -args -points 1:48,3:19 -census-nodes 10000000
//
// It replays the prover's search (its moves, their order, the base
// proof's cuts) and sorts every move it tries by what it leads to.

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"testing"

	"cardtable/spider"
)

var (
	censusPoints = flag.String("points", "1:48", "greedy 4-suit Spider-layout games' points, deal:point, separated by commas")
	censusNodes  = flag.Int64("census-nodes", 10_000_000, "moves tried at each point")
)

// census counts one search's tries.
type census struct {
	tries, fresh int64
	// Tries that reach a position already seen, by the first class
	// that explains them: into an empty pile past the first one with
	// the stock dealt (a permutation of a sibling), the move undoing
	// the one that led here (the parent again), a move of the sleep
	// set (commutes with a move tried earlier on the path), other.
	dupSpace, dupBack, dupSleep, dupOther int64
	// Tries the same classes would skip that reach a new position (a
	// skip there would lose a position the search needs).
	freshSpace, freshBack, freshSleep int64
	cut                               int64 // positions the base proof cut
}

// disjoint reports whether a and b are card moves on four different
// piles, or a removal and a card move that do not share a pile: done in
// either order from one position, they reach the same position.
func disjoint(a, b spider.Move) bool {
	if a.Kind == spider.Deal || b.Kind == spider.Deal {
		return false
	}
	pa := []uint8{a.From}
	if a.Kind == spider.MoveCards {
		pa = append(pa, a.To)
	}
	pb := []uint8{b.From}
	if b.Kind == spider.MoveCards {
		pb = append(pb, b.To)
	}
	for _, x := range pa {
		for _, y := range pb {
			if x == y {
				return false
			}
		}
	}
	return true
}

// inverse reports whether m undoes prev, which u undoes: the same run
// taken back, when prev turned no card.
func inverse(prev spider.Move, u spider.Undo, m spider.Move) bool {
	return prev.Kind == spider.MoveCards && m.Kind == spider.MoveCards && !u.Flipped() &&
		m.From == prev.To && m.To == prev.From && m.Count == prev.Count
}

// spaceAfterFirst reports whether m puts cards into an empty pile that is
// not the first empty one, with the stock dealt.
func spaceAfterFirst(p *spider.Position, m spider.Move) bool {
	if m.Kind != spider.MoveCards || p.StockLen() != 0 || p.Len(int(m.To)) != 0 {
		return false
	}
	for k := range int(m.To) {
		if k != int(m.From) && p.Len(k) == 0 {
			return true
		}
	}
	return false
}

// measurePoint is a point of a greedy game: its deal and the moves
// played to it.
type measurePoint struct {
	deal  uint64
	point int
}

// measurePoints are the points of -points.
func measurePoints(tb testing.TB) []measurePoint {
	tb.Helper()
	var out []measurePoint
	for _, part := range strings.Split(*censusPoints, ",") {
		a, b, _ := strings.Cut(part, ":")
		d, err1 := strconv.ParseUint(a, 10, 64)
		k, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil {
			tb.Fatalf("-points %q: want deal:point", part)
		}
		out = append(out, measurePoint{d, k})
	}
	return out
}

func runCensus(p *spider.Position, nodes int64) census {
	var c census
	pr := (&prover{p: *p, bases: newBaseProofs(baseStatesMax), every: true}).start(p)
	if pr.status != Unknown {
		return c
	}
	pr.ctx = context.Background()
	sleeps := [][]spider.Move{nil}
	q := &pr.p
	var terms [spider.Piles]uint64
	for len(pr.stack) > 0 && c.tries < nodes {
		f := &pr.stack[len(pr.stack)-1]
		if f.next == f.end {
			pr.moves = pr.moves[:f.start]
			if len(pr.stack) > 1 {
				q.Undo(f.mv, f.u)
			}
			pr.stack = pr.stack[:len(pr.stack)-1]
			sleeps = sleeps[:len(sleeps)-1]
			continue
		}
		c.tries++
		i := f.next
		m := pr.moves[i]
		f.next++
		space := spaceAfterFirst(q, m)
		back := len(pr.stack) > 1 && inverse(f.mv, f.u, m)
		sleep := false
		for _, s := range sleeps[len(sleeps)-1] {
			if s == m {
				sleep = true
			}
		}
		cut := cutsBase(q, m)
		u := q.Do(m)
		terms = f.terms
		allTerms(q, &terms)
		h := hashPos(q)
		if !pr.seen.add(h) {
			switch {
			case space:
				c.dupSpace++
			case back:
				c.dupBack++
			case sleep:
				c.dupSleep++
			default:
				c.dupOther++
			}
			q.Undo(m, u)
			continue
		}
		c.fresh++
		switch {
		case space:
			c.freshSpace++
		case back:
			c.freshBack++
		case sleep:
			c.freshSleep++
		}
		if q.Won() {
			return c
		}
		if cut && q.StockLen() == 0 && pr.provesBase(q) {
			c.cut++
			q.Undo(m, u)
			continue
		}
		// The child's sleep set: the moves asleep here and those tried
		// here before m, that commute with m.
		var ns []spider.Move
		for _, s := range sleeps[len(sleeps)-1] {
			if disjoint(s, m) {
				ns = append(ns, s)
			}
		}
		for _, s := range pr.moves[f.start:i] {
			if disjoint(s, m) {
				ns = append(ns, s)
			}
		}
		pr.push(q, m, u, &terms)
		sleeps = append(sleeps, ns)
	}
	return c
}

func TestMeasureProverCensus(t *testing.T) {
	for _, pt := range measurePoints(t) {
		d, k := pt.deal, pt.point
		w := &walker{g: greedyGame(t, d)}
		p := w.at(k)
		c := runCensus(p, *censusNodes)
		pct := func(n int64) float64 { return 100 * float64(n) / float64(max(c.tries, 1)) }
		t.Logf("deal %d point %d (stock %d, %d down, %d empty piles): %d tries, %d new (%.1f%%), cut %d; dup: later space %.1f%%, back %.1f%%, sleep %.1f%%, other %.1f%%; new among them: space %d, back %d, sleep %d",
			d, k, p.StockLen(), p.FaceDown(), empties(p), c.tries, c.fresh, pct(c.fresh), c.cut,
			pct(c.dupSpace), pct(c.dupBack), pct(c.dupSleep), pct(c.dupOther), c.freshSpace, c.freshBack, c.freshSleep)
	}
}

func empties(p *spider.Position) int {
	n := 0
	for k := range spider.Piles {
		if p.Len(k) == 0 {
			n++
		}
	}
	return n
}

// TestMeasureProverSkips: at each point of -points, the prover alone (no
// table of losses, the base proof on) within -census-nodes, trying every
// move and leaving out those reaches says lead to positions already held:
//
//	go test -tags measure -run TestMeasureProverSkips -v ./spider/solver -args -points 1:44,9:44 -census-nodes 2000000
func TestMeasureProverSkips(t *testing.T) {
	for _, pt := range measurePoints(t) {
		d, k := pt.deal, pt.point
		p := (&walker{g: greedyGame(t, d)}).at(k)
		for _, every := range []bool{true, false} {
			lt := &lostTable{max: 1 << 28}
			pr := (&prover{p: *p, lost: lt, bases: newBaseProofs(baseStatesMax), every: every}).start(p)
			r := pr.resume(context.Background(), Limits{Nodes: *censusNodes})
			t.Logf("deal %d point %d (stock %d, %d down), every move %v: %s in %d nodes, %.2f s, %d positions", d, k, p.StockLen(), p.FaceDown(), every, r.Status, r.Nodes, r.Elapsed.Seconds(), pr.seen.n+lt.set.n)
		}
	}
}
