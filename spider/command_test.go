package spider

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Command
	}{
		{"move 3 7 2", Command{Op: OpMove, Move: Cards(2, 6, 2)}},
		{"M 10 1 13", Command{Op: OpMove, Move: Cards(9, 0, 13)}},
		{"move 3 7", Command{Op: OpMove, Short: true, From: 2, To: 6}},
		{"  deal ", Command{Op: OpMove, Move: DealMove}},
		{"d", Command{Op: OpMove, Move: DealMove}},
		{"remove 4", Command{Op: OpMove, Move: RemoveFrom(3)}},
		{"auto 3", Command{Op: OpAuto, From: 2}},
		{"a 3 2", Command{Op: OpAuto, From: 2, N: 2}},
		{"undo", Command{Op: OpUndo, N: 1}},
		{"u 4", Command{Op: OpUndo, N: 4}},
		{"redo 2", Command{Op: OpRedo, N: 2}},
		{"restart", Command{Op: OpRestart}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCommand(tc.in)
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
			again, err := ParseCommand(got.String())
			if err != nil || again != got {
				t.Fatalf("%q does not read back: %+v, %v", got.String(), again, err)
			}
		})
	}
	for _, tc := range []struct{ in, want string }{
		{"", "empty command"},
		{"move 1", "move takes 2 or 3 numbers"},
		{"move 11 1", "piles are 1 to 10"},
		{"move 1 2 14", "want 1 to 13 cards"},
		{"undo 0", `"0" is not a number from 1 up`},
		{"undo 1 2", "undo takes at most 1 number"},
		{"deal 2", "deal takes no arguments"},
		{"remove", "remove takes 1 number"},
		{"auto 3 0", `"0" is not a number from 1 up`},
		{"move -1 2", `"-1" is not a number from 1 up`},
		{"jump 1", `unknown command "jump"`},
		{"move 1 2 " + string(make([]byte, 80)), "too long"},
		// The verb and the count of arguments are judged before the words
		// are read as numbers: a word where no argument goes is not told
		// it is not a number.
		{"jump x", `unknown command "jump"`},
		{"deal now", "deal takes no arguments"},
		{"restart now", "restart takes no arguments"},
		{"move 4 3 1 extra", "move takes 2 or 3 numbers"},
		{"remove 1 x", "remove takes 1 number"},
		{"redo 100000000000000000000", "100000000000000000000 is too large: at most 100000 steps"},
		{"auto 99999999999999999999", "is too large: piles are 1 to 10 and counts 1 to 13"},
	} {
		t.Run("bad "+tc.in, func(t *testing.T) {
			_, err := ParseCommand(tc.in)
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrFormat with %q", err, tc.want)
			}
		})
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"move 3 7 2", "move 3 7", "deal", "remove 4", "auto 3", "auto 3 2",
		"undo", "redo 3", "restart", "m 1 2 3", "MOVE 10 1 13", "move -1 2", "auto 3 0", "", "  deal  ",
		"move 1 2 3 4", "remove", "deal\x00", "move ٣ 7", "u 100001",
		"deal now", "jump 1 x", "redo 100000000000000000000", "m 4 3 1 extra"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCommand(s)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%q: error %v is not ErrFormat", s, err)
			}
			return
		}
		if c.From < 0 || c.From >= Piles || c.To < 0 || c.To >= Piles || c.N < 0 || c.N > MaxSteps {
			t.Fatalf("%q: out of range %+v", s, c)
		}
		again, err := ParseCommand(c.String())
		if err != nil || again != c {
			t.Fatalf("%q: %q does not read back: %+v, %v", s, c.String(), again, err)
		}
	})
}

// Apply of undo N does all N steps or none; a clone is untouched by play on
// the original and the reverse.
func TestApplyAndClone(t *testing.T) {
	g, err := NewGame(617, Options{Suits: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"deal", "deal"} {
		c, _ := ParseCommand(s)
		if _, moved, err := g.Apply(c); err != nil || !moved {
			t.Fatalf("%s: %v %v", s, moved, err)
		}
	}
	c := g.Clone()
	undo3, _ := ParseCommand("undo 3")
	if _, _, err := g.Apply(undo3); !errors.Is(err, ErrNothing) || g.MovesPlayed() != 2 {
		t.Fatalf("undo 3 of 2: %v, %d played", err, g.MovesPlayed())
	}
	undo2, _ := ParseCommand("undo 2")
	if _, _, err := g.Apply(undo2); err != nil || g.MovesPlayed() != 0 {
		t.Fatalf("undo 2: %v, %d played", err, g.MovesPlayed())
	}
	if c.MovesPlayed() != 2 || c.Save() == g.Save() {
		t.Fatalf("clone changed with the original: %d played", c.MovesPlayed())
	}
	if over, _ := c.Outcome(); over {
		t.Fatal("a fresh deal is over")
	}
	redo, _ := ParseCommand("redo 2")
	// The Windows score's action count differs (four more actions); the
	// game is otherwise the clone's.
	noActions := func(s string) string { return regexp.MustCompile(`(?m)^actions: \d+\n`).ReplaceAllString(s, "") }
	if _, _, err := g.Apply(redo); err != nil || noActions(g.Save()) != noActions(c.Save()) || g.Actions() != c.Actions()+4 {
		t.Fatalf("redo 2: %v; the game differs from its clone", err)
	}
}

// TestEveryVerbItsOp: each verb of the command language parses to its
// own op.
func TestEveryVerbItsOp(t *testing.T) {
	want := map[string]Op{"move": OpMove, "m": OpMove, "deal": OpMove, "d": OpMove, "remove": OpMove, "r": OpMove,
		"auto": OpAuto, "a": OpAuto, "undo": OpUndo, "u": OpUndo, "redo": OpRedo, "restart": OpRestart}
	for verb, v := range verbs {
		op, ok := want[verb]
		if !ok {
			t.Errorf("verb %q: no op expected here; add it to this test", verb)
			continue
		}
		line := verb
		for i := range v.want {
			line += fmt.Sprintf(" %d", i+1)
		}
		c, err := ParseCommand(line)
		if err != nil || c.Op != op {
			t.Errorf("%q parses to op %v (%v), want %v", line, c.Op, err, op)
		}
	}
}
