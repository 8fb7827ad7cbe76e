package spider

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// shuttle is a one-suit position whose only play is a whole suit moving
// between pile 10 and the empty piles: any number of steps can be played
// on it, with the longest move lines a save can have.
const shuttle = `cardtable spider 1
variant: arachnid
suits: 1
open: no
relaxed: no
autoremove: no
cheat: none
pile1:
pile2:
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS
completed: S S S S S S S
cheated: no
stopped: no
`

// shuttleSave is a save of the shuttle position with n steps played.
func shuttleSave(n int) string {
	var b strings.Builder
	b.WriteString(shuttle)
	b.WriteString("position: " + strconv.Itoa(n) + "\nmoves: " + strconv.Itoa(n) + "\n")
	for i := range n {
		if i%2 == 0 {
			b.WriteString("move 10 9 13\n")
		} else {
			b.WriteString("move 9 10 13\n")
		}
	}
	return b.String()
}

// TestLongStepLimit: Play, Redo and Load agree on MaxSteps, so a game at
// the limit saves and loads back, and a step past it is refused by both.
func TestLongStepLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	g, err := Load(shuttleSave(MaxSteps - 1))
	if err != nil {
		t.Fatal(err)
	}
	// Step i (0-based) moves the suit from pile 10 to 9 when i is even.
	step := func(i int) Move {
		if i%2 == 0 {
			return Cards(9, 8, 13)
		}
		return Cards(8, 9, 13)
	}
	back := step(MaxSteps - 1)
	if err := g.Play(back); err != nil {
		t.Fatalf("step %d: %v", MaxSteps, err)
	}
	if g.Steps() != MaxSteps {
		t.Fatalf("%d steps", g.Steps())
	}
	// One more is refused, clearly, and changes nothing.
	before := g.Save()
	err = g.Play(step(MaxSteps))
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "100000 moves") {
		t.Fatalf("step past the limit: %v", err)
	}
	if g.Save() != before {
		t.Fatal("a refused step changed the game")
	}
	// The game at the limit loads back as it was.
	h, err := Load(before)
	if err != nil {
		t.Fatalf("a game at the limit does not load: %v", err)
	}
	if h.Save() != before {
		t.Fatal("the game at the limit loads back different")
	}
	// Undo then play: the undone step is replaced, still within the limit;
	// redo never adds steps.
	if err := h.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := h.Redo(); err != nil || h.Steps() != MaxSteps {
		t.Fatalf("redo: %v, %d steps", err, h.Steps())
	}
	if err := h.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := h.Play(back); err != nil {
		t.Fatalf("play after undo at the limit: %v", err)
	}
	// A save with a step more is refused by Load.
	if _, err := Load(shuttleSave(MaxSteps + 1)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "100001") {
		t.Fatalf("load past the limit: %v", err)
	}
}

func TestFootprintGrowsWithSteps(t *testing.T) {
	short, err := Load(shuttleSave(10))
	if err != nil {
		t.Fatal(err)
	}
	long, err := Load(shuttleSave(10000))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := short.Footprint(), long.Footprint(); a <= 0 || b < a+10000*8 {
		t.Fatalf("footprints %d (10 steps) and %d (10000 steps)", a, b)
	}
}
