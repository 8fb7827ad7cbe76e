package cli

import (
	"fmt"
	"strings"

	"cardtable/arlington"
	"cardtable/internal/arlclient"
)

// How `arlington connect` tells the table's events, seats and chat.

// show prints one public event in the words of the table page's log and
// of `arlington play` (arlington.Narrator), which follows the game from
// its first event (events arrive in order, from 0). A move of this seat
// that this client did not send, since this run joined, is marked: the
// server's stand-in bot played it while the seat was away or its turn
// timer ran out. The game so far, told on joining, is not: its moves of
// this seat may be the person's own, from an earlier run. A scored hand
// is followed by the totals.
func (r *arlRemote) show(u *arlclient.Update, e arlington.Event) {
	names := r.seatNames(u.Seats)
	if r.nar == nil {
		r.nar = arlington.NewNarrator(names)
	}
	r.nar.SetNames(names)
	mark := ""
	if e.Kind == arlington.EventMove && e.Seat == r.seat && e.N != r.mine && e.N >= r.joined {
		mark = "stand-in: "
	}
	r.out("%s%s\n", mark, r.nar.Tell(e))
	if e.Kind == arlington.EventScore {
		if r.totals == nil {
			r.totals = make([]int, len(e.Scores))
		}
		for i, s := range e.Scores {
			if i < len(r.totals) {
				r.totals[i] += s
			}
		}
		r.out("totals after hand %d: %s\n", e.Hand, arlInts(r.totals))
	}
}

// seatNames are the seats as the narration names them: numbered from 1,
// as the commands number them, with "you", the person's name or the
// bot's level.
func (r *arlRemote) seatNames(seats []arlclient.Seat) []string {
	names := make([]string, len(seats))
	for i := range seats {
		if i == r.seat {
			names[i] = fmt.Sprintf("seat %d (you)", arlSeat(i))
		} else {
			names[i] = fmt.Sprintf("seat %d (%s)", arlSeat(i), arlSeatName(seats, i))
		}
	}
	return names
}

// arlSeatName is how a seat is named in the play by play.
func arlSeatName(seats []arlclient.Seat, i int) string {
	if i < 0 || i >= len(seats) {
		return "?"
	}
	s := seats[i]
	switch {
	case s.Bot != "":
		return s.Bot
	case s.Away:
		return s.Name + ", away: stand-in"
	}
	return s.Name
}

func arlSeatsLine(seats []arlclient.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		switch {
		case s.Bot != "":
			parts[i] = fmt.Sprintf("%d %s bot", arlSeat(i), s.Bot)
		case s.Open:
			parts[i] = fmt.Sprintf("%d open", arlSeat(i))
		default:
			parts[i] = fmt.Sprintf("%d %s", arlSeat(i), s.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// chatLine is one chat line as the terminal shows it. A spectator's line
// says so: a spectator's name is not checked, so it must not pass for a
// seated player's.
func chatLine(c arlclient.ChatLine) string {
	if c.Seat < 0 {
		return fmt.Sprintf("chat %s (watching): %s", c.Name, c.Text)
	}
	return fmt.Sprintf("chat %s: %s", c.Name, c.Text)
}
