package solver

import (
	"context"
	"sync"

	"cardtable/spider"
)

// A Hinter gives the fair hint (Hint) and keeps the line each hint comes
// from: once the player has made the hinted move, the next hint is the
// line's next move rather than a new choice. A new choice from where the
// hinted move leads can be the move back (its line may pass through the
// position just left), so a player who follows every hint could go back
// and forth for ever; a line followed to its end turns a card, deals or
// wins. The kept lines are found by the visible position they go on
// from, so a hint still reads nothing hidden. A Hinter is safe for
// concurrent use and keeps at most the number of lines it was made with,
// dropping one when full.
type Hinter struct {
	mu    sync.Mutex
	max   int
	lines map[uint64][]spider.Move
}

// NewHinter returns a Hinter that keeps at most n lines (at least 1).
func NewHinter(n int) *Hinter {
	return &Hinter{max: max(n, 1), lines: map[uint64][]spider.Move{}}
}

// Hint returns the hint for g now: the next move of the line of a hint
// that led here, if that move can be made, else Hint's.
func (h *Hinter) Hint(ctx context.Context, g *spider.Game) (spider.Move, error) {
	p, o := g.Pos(), g.Options()
	h.mu.Lock()
	line := h.lines[hintKey(p, o)]
	h.mu.Unlock()
	if len(line) == 0 || p.CheckMove(line[0]) != nil {
		var err error
		if line, err = hintLine(ctx, p, o.Open, HintOptions); err != nil {
			return spider.Move{}, err
		}
	}
	h.keep(p, o, line)
	return line[0], nil
}

// hintKey is what a kept line is found by: what the player sees of p, and
// the game's rules and suits (a line kept for one game's may not suit
// another's).
func hintKey(p *spider.Position, o spider.Options) uint64 {
	r := uint64(o.Variant)<<3 | uint64(o.Suits)<<8
	for i, on := range []bool{o.Relaxed, o.AutoRemove, o.Open} {
		if on {
			r |= 1 << i
		}
	}
	return visibleHash(p, o.Open) ^ mix(r+1)
}

// keep notes the rest of line, for the position its first move leads to.
// That position is reached with Position.Do, which removes no completed
// suit: in a game that removes them itself, a line whose first move
// completes one is not found again, and the next hint is a new choice.
func (h *Hinter) keep(p *spider.Position, o spider.Options, line []spider.Move) {
	if len(line) < 2 {
		return
	}
	q := *p
	q.Do(line[0])
	key := hintKey(&q, o)
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.lines[key]; !ok && len(h.lines) >= h.max {
		for k := range h.lines { // any one: a dropped line costs one new choice
			delete(h.lines, k)
			break
		}
	}
	h.lines[key] = line[1:]
}
