package webtest

import (
	"fmt"
	"strings"
)

// A Spider game of any length, for tests of long games (the upload limit,
// the step limit, the games cache's memory).

// shuttle is a one-suit layout whose only play is a whole suit moving
// between pile 10 and the empty piles: any number of moves, with the
// longest move lines a save can have.
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

// ShuttleMove is move i (0-based) of the shuttle.
func ShuttleMove(i int) string {
	if i%2 == 0 {
		return "move 10 9 13"
	}
	return "move 9 10 13"
}

// ShuttleSave is the shuttle with n moves played.
func ShuttleSave(n int) string {
	var b strings.Builder
	b.WriteString(shuttle)
	fmt.Fprintf(&b, "position: %d\nmoves: %d\n", n, n)
	for i := range n {
		b.WriteString(ShuttleMove(i))
		b.WriteByte('\n')
	}
	return b.String()
}
