package solver

import (
	"context"
	"math/bits"
	"time"
	"unsafe"

	"cardtable/spider"
)

// The loss prover: a depth-first search over every move of a position
// (card moves, removals, deals), each position visited once. When it ends
// without a win, every position it visited is lost: all that can be
// reached from them was visited too. The analysis keeps those positions
// in a table shared along the game (lostTable), and a later proof stops
// at any position in it: points of a game reach many of the same
// positions, so proving a point lost after a later one was costs only
// what the earlier point reaches beyond it.
//
// The staged search proves losses with its unpruned passes, which start
// again with twice the widths each time and judge every deal candidate
// with a lookahead; the prover visits each position once and keeps what
// a finished proof learned. It follows the solver's one simplification
// (docs/solver.md): a complete run is removed at once. With the stock
// dealt, it stops at a position the base proof (prove_bases.go) proves
// lost in every arrangement of its loose cards.

// lostTable is a set of positions proven lost, shared by the proofs of
// one analysis. It holds at most max positions: once full, it takes no
// more (what it holds stays true).
type lostTable struct {
	set hashSet
	max int
	// bases are the base proof's verdicts (prove_bases.go), shared too.
	bases *baseProofs
}

// has reports whether h is a position proven lost.
func (t *lostTable) has(h uint64) bool { return t != nil && t.set.has(tableKey(h)) }

// tableKey is the key the table stores for position h: h rotated, so
// that its slot comes from other bits than in the prover's set. addAll
// copies that set in the order of its slots, that is by their low bits;
// keyed by the same bits, a smaller table would get them in runs of
// neighbouring slots, and its linear probing would walk ever longer
// runs (a copy took minutes in the analysis benchmark). A rotation is
// one to one, so no two positions share a key.
func tableKey(h uint64) uint64 { return bits.RotateLeft64(h, 32) }

// addAll adds the positions of s, as far as room allows.
func (t *lostTable) addAll(s *hashSet) {
	if t == nil {
		return
	}
	for _, h := range s.slots {
		if t.set.n >= t.max {
			return
		}
		if h != 0 {
			t.set.add(tableKey(h))
		}
	}
}

// proveFrame is one position on the prover's path: its moves are
// moves[start:end], next the next to try; mv and u led to it.
type proveFrame struct {
	start, end, next int32
	mv               spider.Move
	u                spider.Undo
	// terms are the position's per-pile hash terms (pileTerm) and sum
	// their sum with hashBase: a card move changes two of them.
	terms [spider.Piles]uint64
	sum   uint64
}

// prover is one proof's state. It can be resumed with more nodes: the
// analysis gives the point next to its first proven loss a larger budget
// each round, and the search carries on where it stopped.
type prover struct {
	ctx      context.Context
	lim      Limits
	deadline time.Time
	nodes    int64 // nodes of all its runs
	basesCut int64 // positions the base proof proved lost (read by tests and measurements)
	stopBy   Limit
	status   Status // Unknown until the search ends
	line     []spider.Move
	lost     *lostTable
	bases    *baseProofs     // the base proof's verdicts; nil: not used
	every    bool            // try the moves reaches leaves out too (the tests' reference)
	p        spider.Position // the position of the top frame
	seen     hashSet
	moves    []spider.Move
	stack    []proveFrame
	buf      [256]spider.Move
}

// newProver is a proof of p, not started, with the base proof's
// verdicts of lost, or its own when lost is nil.
func newProver(p *spider.Position, lost *lostTable) *prover {
	bases := newBaseProofs(baseStatesMax)
	if lost != nil {
		bases = lost.bases
	}
	return newProverWith(p, lost, bases)
}

// newProverWith is newProver with the base proof's verdicts bases (nil:
// no base proof, the plain search the tests compare it with).
func newProverWith(p *spider.Position, lost *lostTable, bases *baseProofs) *prover {
	return (&prover{p: *p, lost: lost, bases: bases}).start(p)
}

// start sets pr, which holds p, to search p, and returns it.
func (pr *prover) start(p *spider.Position) *prover {
	switch h := hashPos(p); {
	case p.Won():
		pr.status = Solved
	case pr.lost.has(h):
		pr.status = Unsolvable
	default:
		pr.seen.add(h)
		var terms [spider.Piles]uint64
		allTerms(p, &terms)
		// The root has no move that reached it: the zero Move moves no
		// cards from the first pile to itself, which no legal move
		// takes back, so reaches finds no move back at the root.
		pr.push(p, spider.Move{}, 0, &terms)
	}
	return pr
}

// prove searches p exhaustively within lim: Solved with a winning line,
// Unsolvable when no line wins (the positions visited then go into lost),
// or Unknown when a limit stopped it. lost may be nil.
func prove(ctx context.Context, p *spider.Position, lim Limits, lost *lostTable) Result {
	return newProver(p, lost).resume(ctx, lim)
}

// resume carries the search on until it ends or a limit of lim stops
// it; lim bounds this run (its nodes, its time) and the memory the proof
// holds. The Result's Nodes and Elapsed are this run's.
func (pr *prover) resume(ctx context.Context, lim Limits) Result {
	start := time.Now()
	before := pr.nodes
	if lim.Nodes > 0 {
		lim.Nodes += pr.nodes
	}
	pr.ctx, pr.lim, pr.deadline, pr.stopBy = ctx, lim, time.Time{}, NoLimit
	if lim.Time > 0 {
		pr.deadline = start.Add(lim.Time)
	}
	var peak int64
	if pr.status == Unknown {
		if pr.nodes == 0 && len(pr.stack) == 1 && pr.p.StockLen() == 0 && pr.provesBase(&pr.p) {
			pr.status = Unsolvable // before any move, under the limits
		} else if pr.stopBy == NoLimit {
			pr.run()
		}
		peak = pr.bytes()
		if pr.status == Unsolvable {
			pr.lost.addAll(&pr.seen)
		}
		if pr.status != Unknown {
			pr.seen = hashSet{}
			pr.moves, pr.stack = nil, nil
		}
	}
	r := Result{Status: pr.status, Nodes: pr.nodes - before, Elapsed: time.Since(start), PeakBytes: peak}
	switch pr.status {
	case Unknown:
		r.StoppedBy = pr.stopBy
	case Solved:
		r.Moves = pr.line
		r.Found = len(pr.line)
	}
	return r
}

func (pr *prover) bytes() int64 {
	return pr.seen.bytes() + int64(cap(pr.moves))*4 + int64(cap(pr.stack))*int64(unsafe.Sizeof(proveFrame{}))
}

// push adds the frame of position p, reached by mv, whose per-pile hash
// terms are terms.
func (pr *prover) push(p *spider.Position, mv spider.Move, u spider.Undo, terms *[spider.Piles]uint64) {
	start := int32(len(pr.moves))
	moves := p.Legal(pr.buf[:0])
	for _, m := range moves {
		if m.Kind == spider.Remove {
			// A complete run is removed at once (docs/solver.md).
			moves = append(moves[:0], m)
			break
		}
	}
	// Moves that turn a card or empty a pile first, the deal last: the
	// order decides nothing in a proof, but finds a win sooner.
	for pass := range 3 {
		for _, m := range moves {
			if !p.Null(m) && moveClass(p, m) == pass && (pr.every || !reaches(p, mv, u, m)) {
				pr.moves = append(pr.moves, m)
			}
		}
	}
	end := int32(len(pr.moves))
	pr.stack = append(pr.stack, proveFrame{start: start, end: end, next: start, mv: mv, u: u, terms: *terms})
	f := &pr.stack[len(pr.stack)-1]
	f.sum = hashBase(p)
	for _, t := range f.terms {
		f.sum += t
	}
}

// reaches reports whether move m of p, reached by mv (which u undoes),
// leads to a position the search holds already, so that trying it would
// only find it there. Two rules:
//   - m takes mv's run back where it came from and mv turned no card:
//     m reaches p before mv, a position on the path.
//   - With the stock dealt, m puts a run into an empty pile past the
//     first one: it reaches the position the same run put into the first
//     empty pile reaches, with two piles swapped, which hashPos does not
//     tell apart (no pile's term depends on its place once no row is to
//     deal); that move comes earlier in the same frame, or is the move
//     back.
//
// Leaving them out changes which moves are tried, not which positions
// are visited, so no proof changes but for its nodes
// (TestProveSkipsOnlyKnown).
func reaches(p *spider.Position, mv spider.Move, u spider.Undo, m spider.Move) bool {
	if m.Kind != spider.MoveCards {
		return false
	}
	if mv.Kind == spider.MoveCards && !u.Flipped() && m.From == mv.To && m.To == mv.From && m.Count == mv.Count {
		return true
	}
	if p.StockLen() != 0 || p.Len(int(m.To)) != 0 {
		return false
	}
	for k := range int(m.To) {
		if p.Len(k) == 0 {
			return true
		}
	}
	return false
}

// allTerms sets terms to p's per-pile hash terms.
func allTerms(p *spider.Position, terms *[spider.Piles]uint64) {
	for k := range spider.Piles {
		terms[k] = pileTerm(p, k)
	}
}

// tick counts a node and checks the limits every so often.
func (pr *prover) tick() bool {
	if pr.lim.Nodes > 0 && pr.nodes >= pr.lim.Nodes {
		pr.stopBy = NodeLimit
		return false
	}
	pr.nodes++
	if pr.nodes&1023 == 0 {
		if pr.stopped() {
			return false
		}
		if pr.lim.MemoryBytes > 0 && pr.bytes() > pr.lim.MemoryBytes {
			pr.stopBy = MemoryLimit
			return false
		}
	}
	return true
}

// stopped reports whether cancellation or the time limit stops the
// proof, and sets stopBy.
func (pr *prover) stopped() bool {
	switch {
	case pr.ctx.Err() != nil:
		pr.stopBy = Cancelled
	case !pr.deadline.IsZero() && time.Now().After(pr.deadline):
		pr.stopBy = TimeLimit
	default:
		return false
	}
	return true
}

// provesBase asks the base proof whether p is lost, stopping it when
// the proof's time limit or cancellation does (stopBy then says which).
func (pr *prover) provesBase(p *spider.Position) bool {
	if pr.bases == nil {
		return false
	}
	return pr.bases.proves(p, pr.stopped)
}

// run carries the depth-first search on from the top frame until it
// ends (status) or a limit stops it.
func (pr *prover) run() {
	p := &pr.p
	var terms [spider.Piles]uint64
	for len(pr.stack) > 0 {
		f := &pr.stack[len(pr.stack)-1]
		if f.next == f.end {
			pr.moves = pr.moves[:f.start]
			if len(pr.stack) > 1 {
				p.Undo(f.mv, f.u)
			}
			pr.stack = pr.stack[:len(pr.stack)-1]
			continue
		}
		if !pr.tick() {
			return
		}
		m := pr.moves[f.next]
		f.next++
		cut := cutsBase(p, m)
		u := p.Do(m)
		// The child's hash from the two piles a card move changes.
		terms = f.terms
		var h uint64
		if m.Kind == spider.MoveCards {
			from, to := int(m.From), int(m.To)
			terms[from], terms[to] = pileTerm(p, from), pileTerm(p, to)
			h = mix(f.sum - f.terms[from] - f.terms[to] + terms[from] + terms[to])
		} else {
			allTerms(p, &terms)
			h = hashPos(p)
		}
		if !pr.seen.add(h) || pr.lost.has(h) {
			p.Undo(m, u)
			continue
		}
		if p.StockLen() == 0 && p.FaceDown() == 0 && p.Won() {
			line := make([]spider.Move, 0, len(pr.stack))
			for _, g := range pr.stack[1:] {
				line = append(line, g.mv)
			}
			pr.status, pr.line = Solved, append(line, m)
			return
		}
		if cut && p.StockLen() == 0 && pr.provesBase(p) {
			// Lost with every arrangement of its loose cards: it stays
			// in seen, and goes into the table with the proof.
			pr.basesCut++
			p.Undo(m, u)
			continue
		}
		pr.push(p, m, u, &terms)
		if pr.stopBy != NoLimit {
			return // the base proof stopped: the position is searched on resuming
		}
	}
	pr.status = Unsolvable
}

// moveClass orders a frame's moves: 0 for a removal or a card move that
// turns a card or empties a pile, 2 for the deal, 1 for the others.
func moveClass(p *spider.Position, m spider.Move) int {
	switch {
	case m.Kind == spider.Deal:
		return 2
	case m.Kind == spider.Remove || int(m.Count)+p.Down(int(m.From)) >= p.Len(int(m.From)):
		return 0
	}
	return 1
}
