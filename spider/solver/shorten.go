package solver

import (
	"slices"

	"cardtable/card"
	"cardtable/spider"
)

// Shortening a winning line (docs/solver.md, "Shorter lines").
//
// The staged search finds a line by best-first search, and the path to the
// node that wins is the path on which the search first met each position,
// full of moves that serve nothing: a run moved twice where once would do,
// a card moved away and back, a build made and never used. Shorten cuts
// them out. It replays the line with every card known by its identity (one
// of the two copies of the six of hearts, not just "a six of hearts"), so
// that a move can be read as "move the run headed by this card onto that
// card (or into a space)" rather than "from pile 3 to pile 7": read that
// way, most moves still mean the same thing when an earlier move is left
// out. It then leaves out one move at a time, from the last to the first,
// and keeps the cut whenever the rest still replays and wins; a move that
// the cut makes pointless (the run already lies on that card) goes too.
// Sweeps repeat until one cuts nothing.

// noCard marks a move into a space.
const noCard = 0xff

// step is one move of a line by card identity: the run headed by card
// head goes onto card onto, or into the space at pile space. A space is
// named by its pile, not "any space", because a deal puts its cards on
// the piles in order: the pile a run stands on decides what is dealt on
// it. Removals are not steps: a complete run is removed as soon as it
// forms, as the search does.
type step struct {
	deal       bool
	head, onto uint8
	space      uint8
}

// tracked is a position with the identity of every card.
type tracked struct {
	p     spider.Position
	id    [spider.Piles][104]uint8 // id[k][j]: the identity of the j-th card of pile k
	pile  [104]uint8               // where each card is: pile and index
	at    [104]uint8
	dealt uint8 // rows dealt since the start, times ten
}

// shortener holds what every replay of a line shares.
type shortener struct {
	stock [50]uint8 // identities of the stock's cards in dealing order
	work  int64     // steps replayed, against a bound
}

// newTracked numbers the cards of p: the tableau's pile by pile, then the
// stock in dealing order. It reports false if p holds more cards than
// identities fit (never for a legal position).
func (sh *shortener) newTracked(p *spider.Position) (tracked, bool) {
	t := tracked{p: *p}
	n := 0
	for k := range spider.Piles {
		for j := range p.Len(k) {
			if n >= noCard {
				return t, false
			}
			t.id[k][j] = uint8(n)
			t.pile[n], t.at[n] = uint8(k), uint8(j)
			n++
		}
	}
	for i := range p.StockLen() {
		if n >= noCard || i >= len(sh.stock) {
			return t, false
		}
		sh.stock[i] = uint8(n)
		n++
	}
	return t, true
}

// do applies a legal move of the engine and follows the cards it moves.
func (t *tracked) do(sh *shortener, m spider.Move) {
	switch m.Kind {
	case spider.Deal:
		for k := range spider.Piles {
			j := t.p.Len(k)
			c := sh.stock[t.dealt]
			t.id[k][j] = c
			t.pile[c], t.at[c] = uint8(k), uint8(j)
			t.dealt++
		}
	case spider.MoveCards:
		f, to, n := int(m.From), int(m.To), int(m.Count)
		lf, lt := t.p.Len(f), t.p.Len(to)
		for i := range n {
			c := t.id[f][lf-n+i]
			t.id[to][lt+i] = c
			t.pile[c], t.at[c] = uint8(to), uint8(lt+i)
		}
	}
	t.p.Do(m)
}

// stepOf reads a card move as a step in t, before it is made.
func (t *tracked) stepOf(m spider.Move) step {
	if m.Kind == spider.Deal {
		return step{deal: true}
	}
	f, to := int(m.From), int(m.To)
	s := step{head: t.id[f][t.p.Len(f)-int(m.Count)], onto: noCard, space: uint8(to)}
	if n := t.p.Len(to); n > 0 {
		s.onto = t.id[to][n-1]
	}
	return s
}

// apply makes step s if it is legal, appending the moves made to out when
// out is not nil; then removes the runs it completed. It reports whether
// s was legal, and whether it changed nothing (the run already lay where
// it goes), in which case nothing was done.
func (t *tracked) apply(sh *shortener, s step, out *[]spider.Move) (ok, noop bool) {
	sh.work++
	var m spider.Move
	if s.deal {
		if !canDeal(&t.p) {
			return false, false
		}
		m = spider.DealMove
	} else {
		f, j := int(t.pile[s.head]), int(t.at[s.head])
		if f >= spider.Piles || t.id[f][j] != s.head {
			return false, false
		}
		n := t.p.Len(f) - j
		var to int
		if s.onto == noCard {
			to = int(s.space)
			if to == f && j == 0 {
				return true, true // the run already fills that space
			}
			if to == f || t.p.Len(to) != 0 {
				return false, false
			}
		} else {
			to = int(t.pile[s.onto])
			if to == f && int(t.at[s.onto]) == j-1 {
				return true, true // already on that card
			}
			if to >= spider.Piles || to == f || int(t.at[s.onto]) != t.p.Len(to)-1 {
				return false, false
			}
		}
		if j < t.p.Down(f) || t.p.Run(f) < n {
			return false, false // face down, or not one run
		}
		if t.p.Len(to) > 0 && t.p.Bottom(to).Rank() != t.p.Card(f, j).Rank()+1 {
			return false, false
		}
		m = spider.Cards(f, to, n)
	}
	t.do(sh, m)
	if out != nil {
		*out = append(*out, m)
	}
	t.removeComplete(m, out)
	return true, false
}

// removeComplete removes every complete run that m formed.
func (t *tracked) removeComplete(m spider.Move, out *[]spider.Move) {
	for k := range spider.Piles {
		// A card move completes a run where it lands, or uncovers one
		// where it leaves (a run a deal covered).
		if m.Kind == spider.MoveCards && k != int(m.To) && k != int(m.From) {
			continue
		}
		if !complete(&t.p, k) {
			continue
		}
		n := t.p.Len(k)
		for j := n - 13; j < n; j++ {
			t.pile[t.id[k][j]] = noCard
		}
		r := spider.RemoveFrom(k)
		t.p.Do(r)
		if out != nil {
			*out = append(*out, r)
		}
	}
}

// complete reports whether pile k ends in a complete K-A run of one suit
// (the engine's check, without building an error).
func complete(p *spider.Position, k int) bool {
	return p.Len(k) > 0 && p.Bottom(k).Rank() == card.Ace && p.Run(k) >= 13
}

// canDeal reports whether a row may be dealt.
func canDeal(p *spider.Position) bool {
	return p.StockLen() > 0 && (p.Relaxed() || p.Spaces() == 0)
}

// replay applies steps from t and reports whether they are all legal and
// win. Steps that change nothing are marked in skip (when not nil).
func (sh *shortener) replay(t *tracked, steps []step, skip []bool) bool {
	for i, s := range steps {
		ok, noop := t.apply(sh, s, nil)
		if !ok {
			return false
		}
		if skip != nil {
			skip[i] = noop
		}
	}
	return t.p.Won()
}

// shortenWork bounds the steps a shortening replays, so that the pass
// costs a bounded time even on a line of thousands of moves (a sweep over
// a line of n steps replays about n²/2 of them).
const shortenWork = 4_000_000

// stageLimit is the positions Shorten's search of the last stage may
// generate.
const stageLimit = 200_000

// shortenLimit is the positions Solve's search of the last stage may
// generate after a search of nodes: a part of the search's own work, so
// that shortening adds little to the time of an easy deal, and at least
// enough to settle an ordinary endgame.
func shortenLimit(nodes int64) int {
	return int(min(max(nodes/8, 20_000), stageLimit))
}

// Shorten returns moves, a winning line from p, with detours cut out:
// every move of the result is legal in turn and the last one wins,
// complete runs are removed as soon as they form, and it is never longer
// than moves. A line that does not win from p comes back unchanged. It is
// deterministic.
func Shorten(p *spider.Position, moves []spider.Move) []spider.Move {
	return shorten(p, moves, stageLimit)
}

// shorten cuts moves out of the line, searches its last stage again
// (generating at most limit positions) and cuts again.
func shorten(p *spider.Position, moves []spider.Move, limit int) []spider.Move {
	if !wins(p, moves) {
		return moves
	}
	line := cutLine(p, moves)
	if limit <= 0 {
		return line
	}
	again := lastStage(p, line, limit)
	if len(again) >= len(line) || !wins(p, again) {
		return line
	}
	return cutLine(p, again)
}

// wins reports whether moves replays from p with the engine's checked moves
// and wins.
func wins(p *spider.Position, moves []spider.Move) bool {
	q := *p
	for _, m := range moves {
		if _, err := q.Play(m); err != nil {
			return false
		}
	}
	return q.Won()
}

// cutLine is the line with moves left out while it still wins (cut).
func cutLine(p *spider.Position, moves []spider.Move) []spider.Move {
	var sh shortener
	steps, ok := sh.steps(p, moves)
	if !ok {
		return moves
	}
	steps = sh.cut(p, steps)
	t, _ := sh.newTracked(p)
	var out []spider.Move
	t.removeComplete(spider.DealMove, &out)
	for _, s := range steps {
		if ok, _ := t.apply(&sh, s, &out); !ok {
			return moves
		}
	}
	if !t.p.Won() || len(out) > len(moves) {
		return moves
	}
	return out
}

// steps reads a line as steps, and reports whether it is legal, wins from
// p and replays as steps with complete runs removed at once.
func (sh *shortener) steps(p *spider.Position, moves []spider.Move) ([]step, bool) {
	t, ok := sh.newTracked(p)
	if !ok {
		return nil, false
	}
	steps := make([]step, 0, len(moves))
	for _, m := range moves {
		if t.p.CheckMove(m) != nil {
			return nil, false
		}
		if m.Kind != spider.Remove {
			steps = append(steps, t.stepOf(m))
		}
		t.do(sh, m)
	}
	if !t.p.Won() {
		return nil, false
	}
	t, _ = sh.newTracked(p)
	t.removeComplete(spider.DealMove, nil)
	return steps, sh.replay(&t, steps, nil)
}

// cut leaves out steps while the line still wins: sweeps from the last
// step to the first, each trying every step once, until a sweep cuts
// nothing or the work bound is reached.
func (sh *shortener) cut(p *spider.Position, steps []step) []step {
	start, _ := sh.newTracked(p)
	start.removeComplete(spider.DealMove, nil)
	// before[i] is the position before step i, for i up to valid.
	before := []tracked{start}
	for changed := true; changed && sh.work < shortenWork; {
		changed = false
		sh.extend(&before, steps, 0)
		valid := len(before) - 1
		// From the last step down: a cut at i changes nothing before i.
		for i := len(steps) - 1; i >= 0 && sh.work < shortenWork; i-- {
			if sh.without(before[:valid+1], &steps, i) {
				changed = true
				valid = i
			}
		}
		before = before[:1]
	}
	return steps
}

// extend fills before from before[from] on: the positions before each
// step of steps.
func (sh *shortener) extend(before *[]tracked, steps []step, from int) {
	for i := from; i < len(steps)-1; i++ {
		t := (*before)[i]
		t.apply(sh, steps[i], nil)
		*before = append(*before, t)
	}
}

// without tries the line without step i: the steps after it must replay
// and win, each either as before or changing nothing (then it goes too).
// The replay stops early when it meets the line's own position again
// (before[j], known up to len(before)), since from there the line is
// unchanged. It reports whether the cut was made.
func (sh *shortener) without(before []tracked, steps *[]step, i int) bool {
	st := *steps
	t := before[i]
	var drop []int
	for j := i + 1; j < len(st); j++ {
		if j < len(before) && same(&t, &before[j]) {
			break // back on the line: the rest replays as it did
		}
		ok, noop := t.apply(sh, st[j], nil)
		if !ok {
			return false
		}
		if noop {
			drop = append(drop, j)
		}
		if j == len(st)-1 && !t.p.Won() {
			return false
		}
	}
	if i == len(st)-1 && !t.p.Won() {
		return false
	}
	kept := st[:i]
	for j := i + 1; j < len(st); j++ {
		if len(drop) > 0 && drop[0] == j {
			drop = drop[1:]
			continue
		}
		kept = append(kept, st[j])
	}
	*steps = kept
	return true
}

// same reports whether two tracked positions hold the same cards in the
// same places, face up and down alike.
func same(a, b *tracked) bool {
	if a.dealt != b.dealt || a.p.NumRemoved() != b.p.NumRemoved() {
		return false
	}
	for k := range spider.Piles {
		if a.p.Len(k) != b.p.Len(k) || a.p.Down(k) != b.p.Down(k) {
			return false
		}
	}
	for k := range spider.Piles {
		if !slices.Equal(a.id[k][:a.p.Len(k)], b.id[k][:b.p.Len(k)]) {
			return false
		}
	}
	return true
}
