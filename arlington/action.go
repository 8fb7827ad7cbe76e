package arlington

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
)

// Kind is what an action does.
type Kind uint8

// The kinds of action. A player with the lead may LeadCard, PlaySet (lead
// a set), PlayS2, AddCard or PickUp ("The Hand": the five actions); in a
// trick the others PlayCard; in a set round the others Pass, Kill (with the
// S2) or PlaySet (a higher set in the spectrum led).
const (
	NoKind   Kind = iota
	LeadCard      // lead 7H
	PlayCard      // play 7H
	PlaySet       // set multiples 7H JK
	Pass          // pass
	Kill          // kill
	PlayS2        // s2 2/0
	AddCard       // add 7H 2/0
	PickUp        // pickup 7H 2/0
)

var kindNames = [...]string{"?", "lead", "play", "set", "pass", "kill", "s2", "add", "pickup"}

// String is the kind's notation verb.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Action is one move by one seat. It is a small comparable value: two
// actions are the same move exactly when they are ==.
//
// Notation (String and ParseAction), one action per line, case-insensitive,
// seats and table positions counted from 0:
//
//	lead 7H                 lead a card (the player with the lead)
//	play 7H                 play a card to the trick in play
//	set multiples 7H JK     lead a set, or respond with a higher one;
//	                        the spectrum may be left out (see ParseAction)
//	pass                    pass on the active set
//	kill                    kill the active set with the S2
//	s2 2/0                  play the S2 on set 0 of seat 2's table
//	add 7H 2/0              add the 7H to set 0 of seat 2's table
//	pickup 7H 2/0           put the 7H in set 0 of seat 2's table and take
//	                        its joker into hand
//
// Table sets are numbered in the order they were placed, from 0; when one
// leaves a table the later ones move down.
type Action struct {
	Kind     Kind
	Card     card.Card // LeadCard, PlayCard, AddCard, PickUp
	Set      Set       // PlaySet
	Spectrum Spectrum  // PlaySet; NoSpectrum when not named
	Seat     int       // PlayS2, AddCard, PickUp: whose table
	Index    int       // PlayS2, AddCard, PickUp: which set on it
}

// String writes the action in the notation ParseAction reads.
func (a Action) String() string {
	switch a.Kind {
	case LeadCard, PlayCard:
		return a.Kind.String() + " " + a.Card.String()
	case PlaySet:
		cs := card.Format(a.Set.Cards())
		if a.Spectrum == NoSpectrum {
			return "set " + cs
		}
		return "set " + a.Spectrum.String() + " " + cs
	case Pass, Kill:
		return a.Kind.String()
	case PlayS2:
		return fmt.Sprintf("s2 %d/%d", a.Seat, a.Index)
	case AddCard, PickUp:
		return fmt.Sprintf("%s %v %d/%d", a.Kind, a.Card, a.Seat, a.Index)
	}
	return "?"
}

// MarshalText writes the notation.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads the notation.
func (a *Action) UnmarshalText(b []byte) error {
	x, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = x
	return nil
}

// ErrBadAction is wrapped by every ParseAction error; one caused by a
// card or a set that does not read wraps that error too.
var ErrBadAction = errors.New("bad action")

// MaxSeats is the most seats a game has.
const MaxSeats = 6

// ParseAction reads one action in the notation of Action. A set may leave
// its spectrum out ("set QD QH"): when leading, the rules text's default
// applies (a single card is led as a card; a larger set is in the first of
// Aces, Multiples, Couples, Runs it belongs to), and when responding it is
// the spectrum of the round. State.Apply resolves that; State.Legal always
// names the spectrum.
func ParseAction(s string) (Action, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Action{}, fmt.Errorf("%w: empty", ErrBadAction)
	}
	verb, args := strings.ToLower(f[0]), f[1:]
	switch verb {
	case "lead", "play":
		return parseCardAction(s, verb, args)
	case "set":
		return parseSetAction(s, args)
	case "pass", "kill":
		return parseBareAction(s, verb, args)
	case "s2", "2s":
		return parseS2Action(s, args)
	case "add", "pickup":
		return parseTableCardAction(s, verb, args)
	}
	return badAction(s, "unknown verb %q (want lead, play, set, pass, kill, s2, add or pickup)", f[0])
}

// badAction is ParseAction's refusal of s, for a reason it states.
func badAction(s, format string, args ...any) (Action, error) {
	return Action{}, fmt.Errorf("%w %q: %s", ErrBadAction, s, fmt.Sprintf(format, args...))
}

// badActionBecause is ParseAction's refusal of s for an error of a part
// of it (a card, the cards of a set, a target), wrapped so that its own
// sentinel (card.ErrBadCard, ErrBadSet) is found as well as ErrBadAction.
func badActionBecause(s string, err error) (Action, error) {
	return Action{}, fmt.Errorf("%w %q: %w", ErrBadAction, s, err)
}

// parseCardAction reads "lead CARD" or "play CARD"; s is the whole action,
// for messages.
func parseCardAction(s, verb string, args []string) (Action, error) {
	if len(args) != 1 {
		return badAction(s, "want %s CARD", verb)
	}
	c, err := card.Parse(args[0])
	if err != nil {
		return badActionBecause(s, err)
	}
	k := LeadCard
	if verb == "play" {
		k = PlayCard
	}
	return Action{Kind: k, Card: c}, nil
}

// parseSetAction reads "set [SPECTRUM] CARD...": a first word that is not
// a spectrum's name is read as a card, so the spectrum may be left out.
func parseSetAction(s string, args []string) (Action, error) {
	a := Action{Kind: PlaySet}
	if len(args) > 0 {
		if sp, err := ParseSpectrum(args[0]); err == nil {
			a.Spectrum = sp
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return badAction(s, "want set [SPECTRUM] CARD...")
	}
	set, err := ParseCards(strings.Join(args, " "))
	if err != nil {
		return badActionBecause(s, err)
	}
	if set.Empty() {
		return badAction(s, "want set [SPECTRUM] CARD...")
	}
	a.Set = set
	return a, nil
}

// parseBareAction reads "pass" or "kill", which take nothing.
func parseBareAction(s, verb string, args []string) (Action, error) {
	if len(args) != 0 {
		return badAction(s, "%s takes nothing", verb)
	}
	if verb == "pass" {
		return Action{Kind: Pass}, nil
	}
	return Action{Kind: Kill}, nil
}

// parseS2Action reads "s2 SEAT/SET".
func parseS2Action(s string, args []string) (Action, error) {
	if len(args) != 1 {
		return badAction(s, "want s2 SEAT/SET")
	}
	seat, idx, err := parseTarget(args[0])
	if err != nil {
		return badActionBecause(s, err)
	}
	return Action{Kind: PlayS2, Seat: seat, Index: idx}, nil
}

// parseTableCardAction reads "add CARD SEAT/SET" or "pickup CARD
// SEAT/SET": a card from the hand put in a set on a table.
func parseTableCardAction(s, verb string, args []string) (Action, error) {
	if len(args) != 2 {
		return badAction(s, "want %s CARD SEAT/SET", verb)
	}
	c, err := card.Parse(args[0])
	if err != nil {
		return badActionBecause(s, err)
	}
	seat, idx, err := parseTarget(args[1])
	if err != nil {
		return badActionBecause(s, err)
	}
	k := AddCard
	if verb == "pickup" {
		k = PickUp
	}
	return Action{Kind: k, Card: c, Seat: seat, Index: idx}, nil
}

// parseTarget reads SEAT/SET, a set on a table.
func parseTarget(s string) (seat, idx int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("want SEAT/SET such as 2/0, not %q", s)
	}
	seat, err1 := strconv.Atoi(a)
	idx, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || seat < 0 || seat >= MaxSeats || idx < 0 || idx > 54 {
		return 0, 0, fmt.Errorf("want SEAT/SET such as 2/0 (seat 0-%d, set 0-54), not %q", MaxSeats-1, s)
	}
	return seat, idx, nil
}
