package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"cardtable/arlington"
)

// In terminal play seats and the sets on a table count from 1, in what is
// shown and in what is typed ("add 7H 3/1": set 1 of seat 3's table), as
// on the page. The engine's notation, the wire and saved records count
// from 0 (docs/cli.md); these functions translate at the terminal.

// arlSeat is seat i as people number it.
func arlSeat(i int) int { return i + 1 }

// arlActionText is a's notation as terminal play shows it.
func arlActionText(a arlington.Action) string {
	switch a.Kind {
	case arlington.PlayS2:
		return fmt.Sprintf("s2 %d/%d", a.Seat+1, a.Index+1)
	case arlington.AddCard, arlington.PickUp:
		return fmt.Sprintf("%s %v %d/%d", a.Kind, a.Card, a.Seat+1, a.Index+1)
	}
	return a.String()
}

// arlTarget is SEAT/SET as typed.
var arlTarget = regexp.MustCompile(`^([0-9]{1,2})/([0-9]{1,2})$`)

// arlParseAction reads an action as a person types it: the engine's
// notation with SEAT/SET counting from 1, at a table of players seats
// (0: not known, up to arlington.MaxSeats). A seat the table lacks is
// named so, not as a seat with no sets.
func arlParseAction(line string, players int) (arlington.Action, error) {
	if players <= 0 || players > arlington.MaxSeats {
		players = arlington.MaxSeats
	}
	f := strings.Fields(line)
	for i, w := range f {
		if !strings.Contains(w, "/") {
			continue
		}
		m := arlTarget.FindStringSubmatch(w)
		if m == nil {
			return arlington.Action{}, reworded{fmt.Sprintf("%q: want SEAT/SET such as 3/1 (set 1 of seat 3's table; both count from 1)", w), arlington.ErrBadAction}
		}
		seat, _ := strconv.Atoi(m[1])
		set, _ := strconv.Atoi(m[2])
		if seat < 1 || seat > players || set < 1 {
			return arlington.Action{}, reworded{fmt.Sprintf("%q: seats are 1 to %d at this table and sets count from 1", w, players), arlington.ErrBadAction}
		}
		f[i] = fmt.Sprintf("%d/%d", seat-1, set-1)
	}
	a, err := arlington.ParseAction(strings.Join(f, " "))
	if err != nil {
		return a, reworded{strings.ReplaceAll(err.Error(), strings.Join(f, " "), line), err}
	}
	return a, nil
}

// arlWinners says who won: each winner's name, seat and points.
// names[i] names seat i ("medium", "Ann"); me is the player's seat.
func arlWinners(winners, totals []int, names []string, me int) string {
	parts := make([]string, len(winners))
	for i, w := range winners {
		who := "?"
		if w >= 0 && w < len(names) {
			who = names[w]
		}
		if w == me {
			who = "you"
		}
		pts := 0
		if w >= 0 && w < len(totals) {
			pts = totals[w]
		}
		parts[i] = fmt.Sprintf("%s (seat %d) with %s", who, arlSeat(w), plural(pts, "point"))
	}
	if len(parts) == 1 {
		return parts[0] + " wins"
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " share the win"
}
