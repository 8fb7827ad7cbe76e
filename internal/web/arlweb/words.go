package arlweb

import (
	"fmt"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// seatNames is the name each seat goes by in the log and on the page: the
// person's display name, "Bot 2 (greedy)" for a bot, "Seat 3" for an open
// seat. A name two people share gets its seat number, so the log stays
// unambiguous.
func seatNames(seats []table.SeatInfo) []string {
	out := make([]string, len(seats))
	count := map[string]int{}
	for i, s := range seats {
		switch {
		case s.Name != "":
			out[i] = s.Name
		case s.Bot != "":
			out[i] = fmt.Sprintf("Bot %d (%s)", i+1, s.Bot)
		default:
			out[i] = fmt.Sprintf("Seat %d", i+1)
		}
		count[out[i]]++
	}
	for i, s := range seats {
		if s.Name != "" && count[s.Name] > 1 {
			out[i] = fmt.Sprintf("%s (%d)", s.Name, i+1)
		}
	}
	return out
}

// narration is one connection's telling of the game: the narrator follows
// every public event from the first, so the words of each event can name
// the sets it touches. The connection therefore always subscribes to the
// whole log and leaves out of its first update the events the client said
// it had (trim).
type narration struct {
	n    *arlington.Narrator
	trim int
}

// restart forgets what was told: a new subscription sends the log again
// from its start; the client has since events already.
func (nr *narration) restart(since int) { nr.n, nr.trim = nil, max(0, since) }

// message is update u as the client receives it: the view with its new
// events (those the client lacks) and their words, the legal actions in
// notation and in words, and the seats' names.
func (nr *narration) message(u table.Update) viewMsg {
	names := seatNames(u.Seats)
	m := viewMsg{Type: "view", Update: u, Legal: []string{}, LegalWords: []string{}, LegalPoints: [][]int{}, Log: []string{}, Names: names}
	if u.View == nil {
		return m
	}
	v := *u.View // the update's view is the table's; the trimmed copy is ours
	if nr.n == nil || v.EventsFrom != nr.n.Told() {
		// The first update of a subscription starts at event 0; a later
		// one where the last left off. Anything else would be a table
		// bug: tell from here on rather than not at all.
		nr.n = arlington.NewNarrator(names)
	}
	nr.n.SetNames(names)
	for _, e := range v.Events {
		m.Log = append(m.Log, nr.n.Tell(e))
	}
	if nr.trim > 0 && nr.trim <= v.EventCount && v.EventsFrom < nr.trim {
		k := nr.trim - v.EventsFrom
		v.Events, m.Log, v.EventsFrom = v.Events[k:], m.Log[k:], nr.trim
	}
	nr.trim = 0
	m.View = &v
	if u.Seat >= 0 && v.ToMove == u.Seat {
		for _, a := range v.Legal() {
			m.Legal = append(m.Legal, a.String())
			m.LegalWords = append(m.LegalWords, arlington.ActionWords(v, a, names))
			m.LegalPoints = append(m.LegalPoints, arlington.PointsChange(v, a))
		}
	}
	return m
}
