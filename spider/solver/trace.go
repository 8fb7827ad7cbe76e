package solver

import (
	"context"
	"fmt"
	"strings"

	"cardtable/spider"
)

// A trace is an analysis made after a game, not a way to play one: it
// solves the real position, hidden cards and all, after every point where
// the player learned something, and so shows where a game that was lost
// stopped being winnable. The fair player never calls it.

// Checkpoint is the real position after a move that turned a card or
// dealt a row (or after the last move), judged with every card known.
type Checkpoint struct {
	Move   int  // index of that move in the game's moves
	Deal   bool // the move dealt a row
	Stock  int  // cards left in the stock
	Down   int  // cards face down in the tableau
	Status Status
}

// Trace replays moves from start with options o and solves the position
// after every card turned and row dealt, and after the last move, within
// lim each. A move that does not replay is an error.
func Trace(ctx context.Context, start *spider.Position, o spider.Options, moves []spider.Move, lim Limits) ([]Checkpoint, error) {
	g, err := spider.NewGameAt(start, o)
	if err != nil {
		return nil, err
	}
	var out []Checkpoint
	down := g.Pos().FaceDown()
	for i, m := range moves {
		if err := g.Play(m); err != nil {
			return out, fmt.Errorf("solver: trace: move %d (%s): %w", i+1, m, err)
		}
		d := g.Pos().FaceDown()
		if d == down && m.Kind != spider.Deal && i < len(moves)-1 {
			continue
		}
		down = d
		r := solve(ctx, g.Pos(), lim)
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, Checkpoint{Move: i, Deal: m.Kind == spider.Deal, Stock: g.Pos().StockLen(), Down: d, Status: r.Status})
	}
	return out, nil
}

// TraceString writes a trace as one letter a checkpoint: W still winnable,
// L proven lost, ? unknown within the limits; a row dealt is marked by a
// '|' before its letter. "WW|WW|WL" is a game lost by the card turned
// after its second deal.
func TraceString(cps []Checkpoint) string {
	var b strings.Builder
	for _, c := range cps {
		if c.Deal {
			b.WriteByte('|')
		}
		switch c.Status {
		case Solved:
			b.WriteByte('W')
		case Unsolvable:
			b.WriteByte('L')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}
