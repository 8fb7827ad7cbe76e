package table

// Events told in words, once, where the table makes them: every
// receiver (the page, the terminal client through the wire) reads the same
// sentence for an event.

import (
	"fmt"

	"cardtable/arlington"
)

// SeatNames is the name each seat goes by in the log and on the page: the
// person's display name, "Bot 2 (greedy)" for a bot, "Seat 3" for an open
// seat. A name two people share gets its seat number, so the log stays
// unambiguous.
func SeatNames(seats []SeatInfo) []string {
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

// tell puts the events not yet told into words (l.words), with the seats'
// names as they are now. Nothing is told before the game starts: the
// first deal names the people who took the seats. The narrator follows
// every event from the first, so the words of each can name the sets it
// touches; restored, a table tells its log again from the start.
func (l *loop) tell(names []string) {
	if !l.started() {
		return
	}
	if l.nar == nil {
		l.nar = arlington.NewNarrator(names)
	}
	l.nar.SetNames(names)
	for _, e := range l.st.Events(len(l.words)) {
		l.words = append(l.words, l.nar.Tell(e))
	}
}

// wordsOf are the words of events from to to (the table's, not to be
// changed: the capacity is cut so an append copies).
func (l *loop) wordsOf(from, to int) []string {
	to = min(to, len(l.words))
	from = min(max(from, 0), to)
	return l.words[from:to:to]
}
