package cli

// The terminal player's table: what one seat may see, and the kinds of
// action offered to the player with the lead.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"cardtable/arlington"
	"cardtable/card"
)

// show prints what the player's seat may see.
func (p *arlPlayer) show() {
	v := p.s.View(p.me)
	w := p.env.Stdout
	showView(w, v)
}

func showView(w io.Writer, v arlington.View) {
	fmt.Fprintf(w, "-- hand %d, dealer seat %d, totals %s (target %d), graveyard %s\n",
		v.HandNumber, arlSeat(v.Dealer), arlInts(v.Totals), v.Target, plural(v.Graveyard, "card"))
	for i := range v.Players {
		who := ""
		if i == v.Seat {
			who = " (you)"
		}
		fmt.Fprintf(w, "seat %d%s: %s;", arlSeat(i), who, plural(v.HandSizes[i], "card"))
		if len(v.Tables[i]) == 0 {
			fmt.Fprint(w, " no sets")
		}
		for k, t := range v.Tables[i] {
			names := make([]string, len(t.Spectra))
			for j, sp := range t.Spectra {
				names[j] = sp.String()
			}
			active := ""
			if t.Active {
				active = " ACTIVE"
			}
			fmt.Fprintf(w, " [%d/%d %s: %s, %s%s]", arlSeat(i), k+1, card.Format(t.Cards), strings.Join(names, "/"), plural(t.Points, "point"), active)
		}
		fmt.Fprintln(w)
	}
	if len(v.Trick) > 0 {
		parts := make([]string, len(v.Trick))
		for i, t := range v.Trick {
			parts[i] = fmt.Sprintf("seat %d %v", arlSeat(t.Seat), t.Card)
		}
		fmt.Fprintf(w, "trick: %s\n", strings.Join(parts, ", "))
	}
	if v.Round != nil {
		fmt.Fprintf(w, "set round: seat %d led in %v; seat %d's set is active\n", arlSeat(v.Round.Leader), v.Round.Spectrum, arlSeat(v.Round.Owner))
	}
	fmt.Fprintf(w, "your hand: %s\n", card.Format(v.Hand))
	switch v.Phase {
	case arlington.PhaseLead:
		fmt.Fprintf(w, "you have the lead: %s\n", arlLeadChoices(v))
	case arlington.PhaseTrick:
		fmt.Fprintln(w, "play a card to the trick")
	case arlington.PhaseRound:
		kill := ""
		if slices.Contains(v.Hand, arlington.S2) {
			kill = ", kill (with your S2)"
		}
		fmt.Fprintf(w, "respond: pass%s or a higher set in %v\n", kill, v.Round.Spectrum)
	}
}

// arlLeadChoices names the kinds of action the player with the lead has
// in view v, as the commands name them: the S2, adding and picking up a
// joker need a set on a table (a jokered one to pick up from; the S2 in
// hand to play it), so at a hand's start, with none, they are not offered
// ('legal' lists the actions themselves).
func arlLeadChoices(v arlington.View) string {
	choices := []string{"lead a card", "lead a set"}
	sets, jokered := false, false
	for _, t := range v.Tables {
		for _, s := range t {
			sets = true
			jokered = jokered || slices.Contains(s.Cards, card.Joker)
		}
	}
	if sets && slices.Contains(v.Hand, arlington.S2) {
		choices = append(choices, "s2")
	}
	if sets {
		choices = append(choices, "add")
	}
	if jokered {
		choices = append(choices, "pickup")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}
