package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cardtable/card"
	"cardtable/spider"
)

// TestBaseProofMovesCover: in positions with the stock dealt, the loose
// cards' own arrangement has room in the base proof's count, and every
// legal move keeps the position's state or leads to a state among the
// state's moves (the base proof's soundness rests on it).
func TestBaseProofMovesCover(t *testing.T) {
	// The last face-down card of pile 4 turns when its run leaves, and
	// lies on the pile's floor: a loose card, not a base.
	if _, cuts := checkBaseMoves(t, layout(t, lastDown, 1)); cuts == 0 {
		t.Error("lastDown: no move changes the state")
	}
	// A suit complete on pile 1's base top, its 4 to ace free to go on a
	// 5 and its queen to 5 stuck (no bare card one rank higher, no empty
	// pile): they are not pinned, as the suit can be removed.
	q := layout(t, pinnedSuit, 1)
	if _, cuts := checkBaseMoves(t, q); cuts == 0 {
		t.Error("pinnedSuit: no move changes the state")
	}
	baseMovesCover(t, 4, 4, 20, 50_000, 50)
}

const pinnedSuit = `pile1: |KS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
pile2: |KS |KS |KS |KS |KS |KS |QS |QS 2S AS
pile3: |QS |QS |QS |QS |QS |JS |JS |JS 2S AS
pile4: |JS |JS |JS |JS |TS |TS |TS |TS 2S AS
pile5: |TS |TS |TS |9S |9S |9S |9S |9S 2S AS
pile6: |9S |9S |8S |8S |8S |8S |8S |8S 2S AS
pile7: |8S |7S |7S |7S |7S |7S |7S |7S 2S AS
pile8: |6S |6S |6S |6S |6S |6S |6S |5S 2S AS
pile9: |5S |5S |5S |5S |4S |4S |4S |4S |4S 5S
pile10: |4S |4S |3S |3S |3S |3S |3S |3S |3S 5S
`

const lastDown = `pile1: |3S |AS KS QS QS JS TS 9S 8S 9S 8S 7S 6S KS QS JS
pile2: JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
pile3: 9S 8S 7S 6S 5S 4S KS QS
pile4: |KS 6S 5S 4S 3S 2S AS
pile5: 7S
pile6: TS
pile7: JS TS
pile8: QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KS
pile9: 5S 4S 3S 2S AS
pile10: 2S
completed: S S S
`

// TestLongBaseProofMovesCover is TestBaseProofMovesCover on more deals
// and walks.
func TestLongBaseProofMovesCover(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the short suite has TestBaseProofMovesCover")
	}
	baseMovesCover(t, 1, 8, 60, 300_000, 1000)
}

func baseMovesCover(t *testing.T, first, last uint64, walks int, solveNodes int64, want int) {
	rng := rand.New(rand.NewPCG(5, 6))
	var positions, moves, cuts, floors, pinned int
	for _, suits := range []int{1, 2, 4} {
		for d := first; d <= last; d++ {
			for _, s := range baseStarts(t, d, suits, solveNodes) {
				for range walks {
					q := walkFrom(rng, s, rng.IntN(60))
					if q.StockLen() > 0 {
						continue
					}
					positions++
					n, c := checkBaseMoves(t, &q)
					moves, cuts = moves+n, cuts+c
					b := baseOf(&q)
					if slices.ContainsFunc(b.base[:], func(c []card.Card) bool { return len(c) == 0 }) {
						floors++
					}
					if slices.ContainsFunc(b.pin[:], func(n int) bool { return n > 0 }) {
						pinned++
					}
				}
			}
		}
	}
	t.Logf("%d positions with the stock dealt (%d with an empty base, %d with cards pinned), %d moves, %d of them leave the state, all among its moves", positions, floors, pinned, moves, cuts)
	if positions < want || cuts == 0 || floors == 0 || pinned == 0 {
		t.Errorf("want at least %d positions, some with an empty base and some with cards pinned, and some moves that leave the state; got %d, %d, %d and %d", want, positions, floors, pinned, cuts)
	}
}

// checkBaseMoves checks q's state and moves, and returns the number of
// legal moves and of those that leave the state. A move leaves q's
// state when the position it leads to is not one of the state's
// arrangements (the same bases and loose cards, its pinned cards where
// they were); it must then be one of the state's moves' arrangements,
// and a move cutsBase passes over must not leave it (pinned cards stay
// put through every move that keeps the bases).
func checkBaseMoves(t *testing.T, q *spider.Position) (moves, cuts int) {
	t.Helper()
	s := baseOf(q)
	if m := s.room(); !m.fits() {
		t.Fatalf("the position's own arrangement has no room:\n%s", q.FormatLayout())
	}
	if !s.holds(q) {
		t.Fatalf("the position is not an arrangement of its own state:\n%s", q.FormatLayout())
	}
	next := s.moves()
	var buf [256]spider.Move
	for _, m := range q.Legal(buf[:0]) {
		cut := cutsBase(q, m)
		u := q.Do(m)
		stays := s.holds(q)
		among := slices.ContainsFunc(next, func(n *baseState) bool { return n.holds(q) })
		q.Undo(m, u)
		moves++
		if stays {
			continue
		}
		cuts++
		if !among {
			t.Fatalf("move %v leads to a state not among the state's moves:\n%s", m, q.FormatLayout())
		}
		if !cut {
			t.Fatalf("move %v leaves the state, cutsBase says not:\n%s", m, q.FormatLayout())
		}
	}
	return moves, cuts
}

// holds reports whether q is an arrangement of s: the same bases and
// loose cards, and s's pinned cards where they lie in q.
func (s *baseState) holds(q *spider.Position) bool {
	for k := range s.base {
		c := q.Cards(nil, k)
		if len(c) < len(s.base[k]) || !slices.Equal(c[:len(s.base[k])], s.base[k]) {
			return false
		}
	}
	u := s.clone()
	for k := range u.base {
		u.unpinFrom(k, len(u.base[k])-u.pin[k])
	}
	return u.key() == looseBaseOf(q).key()
}

// looseBaseOf is q's state with no card pinned.
func looseBaseOf(q *spider.Position) *baseState {
	defer func(v bool) { basePins = v }(basePins)
	basePins = false
	return baseOf(q)
}

// TestBaseProofAgrees: the base proof never proves lost a position the
// plain prover wins, and proves lost some that the plain prover proves
// lost too.
func TestBaseProofAgrees(t *testing.T) {
	baseAgrees(t, 4, 4, 6, 50_000, 5_000)
}

// TestLongBaseProofAgrees is TestBaseProofAgrees on more deals and
// walks, with larger proofs.
func TestLongBaseProofAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the short suite has TestBaseProofAgrees")
	}
	baseAgrees(t, 1, 4, 40, 300_000, 300_000)
}

func baseAgrees(t *testing.T, first, last uint64, walks int, solveNodes, nodes int64) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tried, wins, lost, both int
	for _, suits := range []int{1, 2, 4} {
		for d := first; d <= last; d++ {
			for _, s := range baseStarts(t, d, suits, solveNodes) {
				for range walks {
					q := walkFrom(rng, s, rng.IntN(40))
					if q.StockLen() > 0 || q.Won() {
						continue
					}
					a := newProverWith(&q, nil, nil).resume(context.Background(), Limits{Nodes: nodes})
					tried++
					if a.Status == Solved {
						wins++
					}
					if !newBaseProofs(baseStatesMax).proves(&q, nil) {
						continue
					}
					lost++
					switch a.Status {
					case Solved:
						t.Fatalf("%d suits, deal %d: the plain prover wins, the base proof proves lost\n%s", suits, d, q.FormatLayout())
					case Unsolvable:
						both++
					}
				}
			}
		}
	}
	t.Logf("%d positions with the stock dealt: the plain prover wins %d; the base proof proves %d lost (%d proven lost by both); disagreements 0", tried, wins, lost, both)
	if wins == 0 || both == 0 {
		t.Errorf("want positions the plain prover wins and some both prove lost; got %d and %d", wins, both)
	}
}

// baseStarts are deal d's positions the walks start from: the greedy
// player's end and, at 1 and 2 suits, the positions of a winning line
// when the stock is dealt and 40 and 15 moves before the win.
func baseStarts(t *testing.T, d uint64, suits int, solveNodes int64) []spider.Position {
	t.Helper()
	var out []spider.Position
	p, err := spider.NewDeal(d, spider.Arachnid, spider.Rules{Suits: suits})
	if err != nil {
		t.Fatal(err)
	}
	if suits < 4 {
		if r := solveShort(context.Background(), p, Limits{Nodes: solveNodes}, false); r.Status == Solved {
			q := *p
			for i, m := range r.Moves {
				q.Do(m)
				if m.Kind == spider.Deal && q.StockLen() == 0 || i == len(r.Moves)-16 || i == len(r.Moves)-41 {
					out = append(out, q)
				}
			}
		}
	}
	return append(out, greedyGame(t, d).Position())
}

// walkFrom is s after up to n random legal moves.
func walkFrom(rng *rand.Rand, s spider.Position, n int) spider.Position {
	for range n {
		var buf [256]spider.Move
		ms := s.Legal(buf[:0])
		if len(ms) == 0 {
			break
		}
		s.Do(ms[rng.IntN(len(ms))])
	}
	return s
}

// TestBaseProofBandPoint: the greedy game of deal 1's point 53 (the stock
// dealt, 25 cards face down, one empty pile), which the plain prover did
// not prove lost in 300 million nodes, is proven lost by the base proof
// before the prover tries a move, and so are the points after it.
func TestBaseProofBandPoint(t *testing.T) {
	g := greedyGame(t, 1)
	w := &walker{g: g}
	for k := 53; k <= g.MovesPlayed(); k++ {
		p := w.at(k)
		if p.StockLen() != 0 || p.FaceDown() != 25 {
			t.Fatalf("point %d: stock %d, %d face down; want the stock dealt and 25", k, p.StockLen(), p.FaceDown())
		}
		r := prove(context.Background(), p, Limits{Nodes: 100_000}, nil)
		if r.Status != Unsolvable || r.Nodes != 0 {
			t.Errorf("point %d: %s after %d nodes, want unsolvable after none", k, r.Status, r.Nodes)
		}
	}
	p := w.at(53)
	if r := newProverWith(p, nil, nil).resume(context.Background(), Limits{Nodes: 100_000}); r.Status != Unknown {
		t.Errorf("the plain prover: %s after %d nodes, want unknown", r.Status, r.Nodes)
	}
}

// TestBaseProofCutsSearch: the greedy game of deal 1's points 48-50 have
// a row still to deal; the prover proves them lost because the base
// proof cuts positions after that deal (in 9-46 nodes), where the plain
// prover does not in 20 times as many.
func TestBaseProofCutsSearch(t *testing.T) {
	w := &walker{g: greedyGame(t, 1)}
	for k := 48; k <= 50; k++ {
		p := w.at(k)
		if p.StockLen() == 0 {
			t.Fatalf("point %d: the stock is dealt; want a row still to deal", k)
		}
		pr := newProver(p, nil)
		r := pr.resume(context.Background(), Limits{Nodes: 1_000})
		if r.Status != Unsolvable || pr.basesCut == 0 {
			t.Errorf("point %d: %s after %d nodes, %d positions cut by the base proof; want unsolvable with some cut", k, r.Status, r.Nodes, pr.basesCut)
		}
		if r := newProverWith(p, nil, nil).resume(context.Background(), Limits{Nodes: 20_000}); r.Status != Unknown {
			t.Errorf("point %d: the plain prover: %s after %d nodes, want unknown", k, r.Status, r.Nodes)
		}
	}
}

// TestBaseProofStops: a base-proof call ends when asked to, proving
// nothing and keeping no verdict, and a proof cancelled while the base
// proof works (on a position after a move, or on its first) stops at
// once, the position asked about on the stack, and, resumed, still
// proves the point lost.
func TestBaseProofStops(t *testing.T) {
	w := &walker{g: greedyGame(t, 1)}
	b := newBaseProofs(baseStatesMax)
	asked := 0
	if b.proves(w.at(53), func() bool { asked++; return true }) || len(b.lost) != 0 || asked == 0 {
		t.Errorf("stopped: want not proven, no verdicts, stop asked; got %d verdicts, asked %d times", len(b.lost), asked)
	}
	// Stopped part way: the states it left unfinished keep no verdict,
	// so that the next call, not stopped, still proves the point.
	asked = 0
	if b.proves(w.at(53), func() bool { asked++; return asked > 10 }) {
		t.Error("stopped part way: point 53 proven lost")
	}
	// The verdicts are shared, the stop is not: a call without one on
	// the same verdicts is not stopped by the last call's.
	before := asked
	if !b.proves(w.at(53), nil) {
		t.Error("not stopped: point 53 not proven lost")
	}
	if asked != before {
		t.Errorf("a call without a stop asked the last call's %d times", asked-before)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr := newProver(w.at(50), nil)
	if r := pr.resume(ctx, Limits{Nodes: 100_000}); r.Status != Unknown || r.StoppedBy != Cancelled || r.Nodes > 10 {
		t.Errorf("cancelled: %s (stopped by %v) after %d nodes, want unknown, cancelled, in 10 nodes at most", r.Status, r.StoppedBy, r.Nodes)
	}
	// The position the base proof was asked about (after the deal, so
	// the stock dealt) is on the stack, its moves not yet tried: it is
	// searched on resuming, not left marked seen and never searched.
	if f := pr.stack[len(pr.stack)-1]; len(pr.stack) < 2 || pr.p.StockLen() != 0 || f.next != f.start {
		t.Errorf("cancelled: %d frames, the top's stock %d, %d of its moves tried; want the position asked about on top, its stock dealt, none tried", len(pr.stack), pr.p.StockLen(), f.next-f.start)
	}
	if r := pr.resume(context.Background(), Limits{Nodes: 100_000}); r.Status != Unsolvable {
		t.Errorf("resumed: %s after %d nodes, want unsolvable", r.Status, r.Nodes)
	}
	// The proof's first position (point 53: the stock dealt) too.
	pr = newProver(w.at(53), nil)
	if r := pr.resume(ctx, Limits{Nodes: 100_000}); r.Status != Unknown || r.StoppedBy != Cancelled {
		t.Errorf("point 53 cancelled: %s (stopped by %v), want unknown, cancelled", r.Status, r.StoppedBy)
	}
	if r := pr.resume(context.Background(), Limits{Nodes: 100_000}); r.Status != Unsolvable || r.Nodes != 0 {
		t.Errorf("point 53 resumed: %s after %d nodes, want unsolvable after none", r.Status, r.Nodes)
	}
}

// TestBaseProofMemory: an analysis's base-proof verdicts hold at most a
// sixteenth of its memory limit, a cap the limit alone sets (point 49 of
// deal 1's greedy game leaves 7 132 of them, 1.7 MB, when unbounded), and
// count against it.
func TestBaseProofMemory(t *testing.T) {
	g := greedyGame(t, 1)
	const memory = 4 << 20
	pf := newProofs(&walker{g: g}, g.MovesPlayed(), memory)
	pf.solve(context.Background(), 49, Limits{Nodes: 100_000}, true)
	n := int64(len(pf.lost.bases.lost))
	if n == 0 || n*baseStateBytes > memory/baseShare {
		t.Errorf("%d verdicts, %d bytes; want some, at most %d bytes", n, n*baseStateBytes, memory/baseShare)
	}
	if held := pf.lost.held(); held < n*baseStateBytes {
		t.Errorf("held %d bytes, less than the verdicts' %d", held, n*baseStateBytes)
	}
	// At the command line's 1 GB the cap holds the 149 000 states deal
	// 3's greedy point 30 needs (TestLongBaseProofWideCap); at the
	// server's 256 MiB it is about the former fixed 65 536.
	for _, c := range []struct {
		memory int64
		want   int
	}{{1 << 30, 279_620}, {256 << 20, 69_905}, {0, baseStatesMax}} {
		if pf := newProofs(&walker{g: g}, g.MovesPlayed(), c.memory); pf.lost.bases.max != c.want {
			t.Errorf("at %d bytes: a cap of %d verdicts, want %d", c.memory, pf.lost.bases.max, c.want)
		}
	}
}

// TestLongBaseProofWideCap: at the command line's 1 GB, an analysis's
// proofs prove deal 3's greedy point 30 lost, every position after its
// deal lost by the base proof; a cap of 65 536 verdicts fills first and
// leaves it unknown (both are checked).
func TestLongBaseProofWideCap(t *testing.T) {
	if testing.Short() {
		t.Skip("about 150 000 base-proof states")
	}
	g := greedyGame(t, 3)
	for _, c := range []struct {
		cap  int // 0: the one 1 GB sets
		want Status
	}{{0, Unsolvable}, {1 << 16, Unknown}} {
		pf := newProofs(&walker{g: g}, g.MovesPlayed(), 1<<30)
		if c.cap > 0 {
			pf.lost.bases.max = c.cap
		}
		r := pf.solve(context.Background(), 30, Limits{Nodes: 100_000}, true)
		if r.Status != c.want {
			t.Errorf("point 30, cap %d: %s after %d nodes (%d verdicts), want %s", pf.lost.bases.max, r.Status, r.Nodes, len(pf.lost.bases.lost), c.want)
		}
	}
}

// TestBaseProofPins: a 2-suit position off deal 4 (the stock dealt) that
// the plain prover proves lost in 452 736 nodes is proven lost by the base
// proof with its pinned cards, and not without them: there the loose
// cards may be arranged as its own pinned ones never can be.
func TestBaseProofPins(t *testing.T) {
	q := layout(t, pinsDecide, 2)
	if r := newProverWith(q, nil, nil).resume(context.Background(), Limits{Nodes: 1_000_000}); r.Status != Unsolvable {
		t.Fatalf("the plain prover: %s after %d nodes, want unsolvable", r.Status, r.Nodes)
	}
	for _, c := range []struct {
		pins bool
		want bool
	}{{true, true}, {false, false}} {
		t.Run(fmt.Sprintf("pins=%v", c.pins), func(t *testing.T) {
			defer func(v bool) { basePins = v }(basePins)
			basePins = c.pins
			b := newBaseProofs(baseStatesMax)
			if got := b.proves(q, nil); got != c.want {
				t.Errorf("proven lost: %v after %d states, want %v", got, len(b.lost), c.want)
			}
		})
	}
}

const pinsDecide = `pile1: KH QH JH TS 9S 8S 7S
pile2: KH
pile3: KS QS JS
pile4: KH QH JH TH 9H 5S 4S 3S
pile5: |7H |TS |2S 6H 4H JH 2S AS TH 9H 8H 7H 6H 5H 4H 3H 2H AS QS JS TH 9H
pile6: 3S
pile7: AH KS QH
pile8: 9S 8S 7S 6S 5S
pile9: |4S |8H |6S |5H 2H AH
pile10: 8H 7H 6H 5H 4H 3H 2H AH 3H
completed: H S S
`
