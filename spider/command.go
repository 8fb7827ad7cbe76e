package spider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cardtable/internal/ascii"
)

// The command language of play, shared by the terminal and the server: one
// parser, so a line means the same thing wherever it is typed.

// Op is what a Command does.
type Op uint8

const (
	OpMove    Op = iota // a move; with Short its count is found on the position
	OpAuto              // the auto-move for the bottom N cards of pile From
	OpUndo              // take back N steps
	OpRedo              // replay N steps
	OpRestart           // back to the deal
)

// Command is a parsed play command. Piles are 0-based.
type Command struct {
	Op    Op
	Move  Move // OpMove unless Short
	Short bool // OpMove "move F T": the count is resolved on the position
	From  int  // OpAuto, and OpMove when Short
	To    int  // OpMove when Short
	// N is OpAuto's card count (0: the whole run) and the step count of
	// OpUndo and OpRedo (at least 1).
	N int
}

// runLen is the most cards a move can carry: a full run, king to ace.
const runLen = 13

// MaxCommand bounds a command's length; the longest real one is ~14 bytes.
const MaxCommand = 64

// ParseCommand reads one command: "move 3 7 2", "move 3 7", "deal",
// "remove 4", "auto 3", "auto 3 2", "undo", "undo 3", "redo", "redo 2",
// "restart"; the verbs have the short forms m, d, r, a and u. Errors wrap
// ErrFormat.
func ParseCommand(s string) (Command, error) {
	if len(s) > MaxCommand {
		return Command{}, fmt.Errorf("%w: command too long (%d bytes)", ErrFormat, len(s))
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return Command{}, fmt.Errorf("%w: empty command", ErrFormat)
	}
	verb, args := ascii.Lower(f[0]), f[1:]
	// The verb and the count of arguments first, the numbers after: "deal
	// now" is told that deal takes no arguments, "jump 3 x" that there is no
	// such command, not that a word is not a number.
	v, ok := verbs[verb]
	if !ok {
		return Command{}, fmt.Errorf("%w: unknown command %q", ErrFormat, verb)
	}
	if err := arity(verb, len(args), v.want, v.optional); err != nil {
		return Command{}, err
	}
	n, err := numbers(args, v.steps)
	if err != nil {
		return Command{}, err
	}
	return v.build(n)
}

// verbSpec is a verb of the command language: it takes want numbers and up
// to optional more (step counts when steps, else piles and card
// counts), of which build makes its command, judging their values.
type verbSpec struct {
	want, optional int
	steps          bool
	build          func(n []int) (Command, error)
}

// verbs is the command language's verbs, the short forms beside the long.
var verbs = map[string]verbSpec{
	"move": verbMove, "m": verbMove, "deal": verbDeal, "d": verbDeal, "remove": verbRemove, "r": verbRemove,
	"auto": verbAuto, "a": verbAuto, "undo": verbUndo, "u": verbUndo, "redo": verbRedo, "restart": verbRestart,
}

var (
	verbMove = verbSpec{2, 1, false, func(n []int) (Command, error) {
		if err := piles(n[:2]...); err != nil {
			return Command{}, err
		}
		if len(n) == 2 {
			return Command{Op: OpMove, Short: true, From: n[0] - 1, To: n[1] - 1}, nil
		}
		if n[2] > runLen {
			return Command{}, fmt.Errorf("%w: count %d: want 1 to %d cards", ErrFormat, n[2], runLen)
		}
		m, err := ParseMove(fmt.Sprintf("move %d %d %d", n[0], n[1], n[2]))
		return Command{Op: OpMove, Move: m}, err
	}}
	verbDeal   = verbSpec{0, 0, false, func([]int) (Command, error) { return Command{Op: OpMove, Move: DealMove}, nil }}
	verbRemove = verbSpec{1, 0, false, func(n []int) (Command, error) {
		if err := piles(n[0]); err != nil {
			return Command{}, err
		}
		return Command{Op: OpMove, Move: RemoveFrom(n[0] - 1)}, nil
	}}
	verbAuto = verbSpec{1, 1, false, func(n []int) (Command, error) {
		if err := piles(n[0]); err != nil {
			return Command{}, err
		}
		c := Command{Op: OpAuto, From: n[0] - 1}
		if len(n) == 2 {
			if n[1] > runLen {
				return Command{}, fmt.Errorf("%w: count %d: want 1 to %d cards", ErrFormat, n[1], runLen)
			}
			c.N = n[1]
		}
		return c, nil
	}}
	verbUndo    = verbSpec{0, 1, true, func(n []int) (Command, error) { return stepsCommand(OpUndo, n) }}
	verbRedo    = verbSpec{0, 1, true, func(n []int) (Command, error) { return stepsCommand(OpRedo, n) }}
	verbRestart = verbSpec{0, 0, false, func([]int) (Command, error) { return Command{Op: OpRestart}, nil }}
)

// stepsCommand is undo or redo (op) of n's step count, 1 without one.
func stepsCommand(op Op, n []int) (Command, error) {
	c := Command{Op: op, N: 1}
	if len(n) == 1 {
		if n[0] > MaxSteps {
			return Command{}, fmt.Errorf("%w: %d steps: at most %d", ErrFormat, n[0], MaxSteps)
		}
		c.N = n[0]
	}
	return c, nil
}

// IsCommand reports whether verb (any case) starts a play command, so a
// caller with commands of its own can tell them apart.
func IsCommand(verb string) bool {
	_, ok := verbs[ascii.Lower(verb)]
	return ok
}

// numbers reads a verb's arguments: each a number from 1 up. A number
// too large for an int is said as such, with what the verb takes (steps:
// step counts): it is a number, only past any pile, count or step count.
func numbers(args []string, steps bool) ([]int, error) {
	out := make([]int, len(args))
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(a, "-") {
			limit := fmt.Sprintf("piles are 1 to %d and counts 1 to %d", Piles, runLen)
			if steps {
				limit = fmt.Sprintf("at most %d steps", MaxSteps)
			}
			return nil, fmt.Errorf("%w: %s is too large: %s", ErrFormat, a, limit)
		}
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%w: %q is not a number from 1 up", ErrFormat, a)
		}
		out[i] = n
	}
	return out, nil
}

// arity checks that a verb given n arguments has want of them, plus up
// to optional more.
func arity(verb string, n, want, optional int) error {
	if n >= want && n <= want+optional {
		return nil
	}
	what := fmt.Sprintf("%d or %d numbers", want, want+optional)
	switch {
	case want == 0 && optional == 0:
		return fmt.Errorf("%w: %s takes no arguments", ErrFormat, verb)
	case optional == 0:
		what = plural(want, "number")
	case want == 0:
		what = "at most " + plural(optional, "number")
	}
	return fmt.Errorf("%w: %s takes %s", ErrFormat, verb, what)
}

func piles(ks ...int) error {
	for _, k := range ks {
		if k > Piles {
			return fmt.Errorf("%w: pile %d: piles are 1 to %d", ErrFormat, k, Piles)
		}
	}
	return nil
}

// String is the command in the language ParseCommand reads (long verbs).
func (c Command) String() string {
	switch c.Op {
	case OpAuto:
		if c.N > 0 {
			return fmt.Sprintf("auto %d %d", c.From+1, c.N)
		}
		return fmt.Sprintf("auto %d", c.From+1)
	case OpUndo, OpRedo:
		verb := map[Op]string{OpUndo: "undo", OpRedo: "redo"}[c.Op]
		if c.N > 1 {
			return fmt.Sprintf("%s %d", verb, c.N)
		}
		return verb
	case OpRestart:
		return "restart"
	}
	if c.Short {
		return fmt.Sprintf("move %d %d", c.From+1, c.To+1)
	}
	return c.Move.String()
}

// Apply plays c on g and returns the move made (moved false for undo, redo
// and restart). On error g is unchanged: a move is checked before it is
// made, and undo or redo of N steps does all of them or, when fewer are
// available, none.
func (g *Game) Apply(c Command) (m Move, moved bool, err error) {
	switch c.Op {
	case OpUndo:
		return Move{}, false, g.takeBack(c.N, g.cursor, "undo", g.Undo)
	case OpRedo:
		return Move{}, false, g.takeBack(c.N, len(g.steps)-g.cursor, "redo", g.Redo)
	case OpRestart:
		g.Restart()
		return Move{}, false, nil
	case OpAuto:
		m, err := g.Auto(c.From, c.N)
		return m, err == nil, err
	}
	m = c.Move
	if c.Short {
		if m, err = g.pos.Resolve(c.From, c.To); err != nil {
			return Move{}, false, err
		}
	}
	if err := g.Play(m); err != nil {
		return Move{}, false, err
	}
	return m, true, nil
}

// takeBack undoes or redoes n steps (1 if n < 1), of which can are
// available: all of them, or none.
func (g *Game) takeBack(n, can int, verb string, step func() error) error {
	n = max(n, 1)
	if n > can {
		if can == 0 {
			return fmt.Errorf("%w: no move to %s", ErrNothing, verb)
		}
		return fmt.Errorf("%w: only %s to %s", ErrNothing, plural(can, "move"), verb)
	}
	for range n {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
