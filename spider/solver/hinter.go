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
	p, open := g.Pos(), g.Options().Open
	h.mu.Lock()
	line := h.lines[visibleHash(p, open)]
	h.mu.Unlock()
	if len(line) == 0 || p.CheckMove(line[0]) != nil {
		var err error
		if line, err = hintLine(ctx, p, open, HintOptions); err != nil {
			return spider.Move{}, err
		}
	}
	h.keep(p, open, line)
	return line[0], nil
}

// keep notes the rest of line, for the position its first move leads to.
func (h *Hinter) keep(p *spider.Position, open bool, line []spider.Move) {
	if len(line) < 2 {
		return
	}
	q := *p
	q.Do(line[0])
	key := visibleHash(&q, open)
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
