package web

import (
	"strconv"
	"strings"

	"cardtable/spider"
)

// op is what a command does.
type op uint8

const (
	opMove    op = iota // a move in the engine's notation (maybe without a count)
	opAuto              // the auto-move for pile K (bottom N cards)
	opUndo              //
	opRedo              //
	opRestart           //
)

// command is a parsed player command. Piles are 0-based.
type command struct {
	op    op
	move  spider.Move // opMove with a count, deal or remove
	short bool        // opMove "move F T": the count is resolved on the position
	pile  int         // opAuto, and opMove when short: from
	to    int         // opMove when short
	n     int         // opAuto: cards, 0 for the whole run
}

// maxCommand bounds a command's length; the longest real one is ~14 bytes.
const maxCommand = 64

// parseCommand reads a command: "move 3 7 2", "move 3 7", "deal",
// "remove 4", "auto 3", "auto 3 2", "undo", "redo", "restart". Errors wrap
// errBadRequest: a malformed command is the client's mistake, unlike an
// illegal move.
func parseCommand(s string) (command, error) {
	if len(s) > maxCommand {
		return command{}, badRequest("command too long (%d bytes)", len(s))
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return command{}, badRequest("empty command")
	}
	noArgs := func(c command) (command, error) {
		if len(f) != 1 {
			return command{}, badRequest("%q takes no arguments", f[0])
		}
		return c, nil
	}
	switch strings.ToLower(f[0]) {
	case "undo":
		return noArgs(command{op: opUndo})
	case "redo":
		return noArgs(command{op: opRedo})
	case "restart":
		return noArgs(command{op: opRestart})
	case "auto":
		if len(f) != 2 && len(f) != 3 {
			return command{}, badRequest("%q: want auto PILE or auto PILE COUNT", s)
		}
		k, err := pileArg(f[1])
		if err != nil {
			return command{}, err
		}
		c := command{op: opAuto, pile: k}
		if len(f) == 3 {
			n, err := strconv.Atoi(f[2])
			if err != nil || n < 1 || n > 13 {
				return command{}, badRequest("count %q: want 1 to 13 cards", f[2])
			}
			c.n = n
		}
		return c, nil
	case "move", "m":
		if len(f) == 3 {
			from, err := pileArg(f[1])
			if err != nil {
				return command{}, err
			}
			to, err := pileArg(f[2])
			if err != nil {
				return command{}, err
			}
			return command{op: opMove, short: true, pile: from, to: to}, nil
		}
	}
	m, err := spider.ParseMove(s)
	if err != nil {
		return command{}, badRequest("%v", err)
	}
	return command{op: opMove, move: m}, nil
}

func pileArg(s string) (int, error) {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > spider.Piles {
		return 0, badRequest("pile %q: piles are 1 to %d", s, spider.Piles)
	}
	return k - 1, nil
}

// apply plays c on g. On error g is unchanged (the engine's guarantee for
// Play, Auto, Undo and Redo). It returns the move played, for moves.
func apply(g *spider.Game, c command) (spider.Move, bool, error) {
	switch c.op {
	case opUndo:
		return spider.Move{}, false, g.Undo()
	case opRedo:
		return spider.Move{}, false, g.Redo()
	case opRestart:
		g.Restart()
		return spider.Move{}, false, nil
	case opAuto:
		m, err := g.Auto(c.pile, c.n)
		return m, err == nil, err
	}
	m := c.move
	if c.short {
		var err error
		if m, err = g.Pos().Resolve(c.pile, c.to); err != nil {
			return spider.Move{}, false, err
		}
	}
	if err := g.Play(m); err != nil {
		return spider.Move{}, false, err
	}
	return m, true, nil
}
