package arlington

import (
	"encoding/json"
	"fmt"

	"cardtable/card"
)

// EventKind is what a public event records.
type EventKind uint8

// The kinds of public event. Every action is public (decision 16b), and so
// is where its cards went; a deal is public except the cards dealt.
const (
	EventDeal  EventKind = iota // a hand was dealt: Seat is the dealer
	EventMove                   // Seat took Action
	EventTake                   // the trick was complete: Seat took it
	EventScore                  // the hand was scored: Scores
)

var eventNames = [...]string{"deal", "move", "take", "score"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "?"
}

// MarshalText writes the kind's name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *EventKind) UnmarshalText(b []byte) error {
	for i, n := range eventNames {
		if n == string(b) {
			*k = EventKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown event kind %q", b)
}

// Event is one entry of the public event log: something every seat and
// every onlooker saw happen. It holds only public content: the cards dealt
// are never in it, while every card moved face up is, with where it went.
// Events are numbered from 0 in the order they happened; a View carries
// the log (or its tail, see State.ViewSince). An Event is read-only: views
// share them with the state.
type Event struct {
	N    int       // its number in the log, from 0
	Hand int       // the hand it belongs to, from 1
	Kind EventKind // what happened
	// Seat is the dealer (deal), the seat that acted (move) or the seat
	// that took the trick (take); -1 for score.
	Seat   int
	Action Action // move: the action, its spectrum named
	// ToHand is the cards that went face up into Seat's hand: the trick's
	// other cards (take) or a picked-up joker (move).
	ToHand Set
	// ToGrave is the cards that went from sight onto the graveyard: the
	// card that took the trick (take), a replaced or killed set with the
	// S2 that killed it (move).
	ToGrave Set
	Scores  []int // score: each seat's points for the hand
	// Cut is, in the first hand's deal only, the card each seat cut for
	// the first deal, by seat ("The Hand": the highest suit card deals).
	// The cut is made face up, so it is public; the deal comes from a
	// fresh shuffle. When both of two players cut jokers and cut again,
	// it is the last cut, the one that chose the dealer.
	Cut []card.Card
}

type eventJSON struct {
	N       int       `json:"n"`
	Hand    int       `json:"hand"`
	Kind    EventKind `json:"kind"`
	Seat    int       `json:"seat"`
	Action  *Action   `json:"action,omitempty"`
	ToHand  *Set      `json:"toHand,omitempty"`
	ToGrave *Set      `json:"toGrave,omitempty"`
	Scores  []int     `json:"scores,omitempty"`
	Cut     Cards     `json:"cut,omitempty"`
	// The keys of releases before the lowerCamel ones, read (never
	// written) for one release: a client may meet an older server.
	OldToHand  *Set `json:"to_hand,omitempty"`
	OldToGrave *Set `json:"to_grave,omitempty"`
}

// MarshalJSON writes an event with only the fields its kind uses, cards in
// notation: {"n":12,"hand":1,"kind":"take","seat":2,"toHand":"7H 9H","toGrave":"KH"}.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{N: e.N, Hand: e.Hand, Kind: e.Kind, Seat: e.Seat, Scores: e.Scores, Cut: e.Cut}
	if e.Kind == EventMove {
		a := e.Action
		j.Action = &a
	}
	if e.ToHand != 0 {
		x := e.ToHand
		j.ToHand = &x
	}
	if e.ToGrave != 0 {
		x := e.ToGrave
		j.ToGrave = &x
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Event) UnmarshalJSON(b []byte) error {
	var j eventJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Event{N: j.N, Hand: j.Hand, Kind: j.Kind, Seat: j.Seat, Scores: j.Scores, Cut: j.Cut}
	if j.Action != nil {
		e.Action = *j.Action
	}
	for _, x := range []struct{ to, newKey, oldKey *Set }{{&e.ToHand, j.ToHand, j.OldToHand}, {&e.ToGrave, j.ToGrave, j.OldToGrave}} {
		if x.newKey != nil {
			*x.to = *x.newKey
		} else if x.oldKey != nil {
			*x.to = *x.oldKey
		}
	}
	return nil
}

// log appends a public event and keeps the public knowledge of where
// face-up cards went (known) in step with it.
func (s *State) log(e Event) {
	e.N = len(s.events)
	e.Hand = s.handNo
	s.events = append(s.events, e)
	switch e.Kind {
	case EventDeal, EventScore:
		// A new hand starts from nothing known; at scoring every hand goes
		// onto the graveyard.
		for i := range s.known {
			s.known[i] = 0
		}
		s.graveKnown = 0
	default:
		if e.ToHand != 0 {
			s.known[e.Seat] = s.known[e.Seat].Union(e.ToHand)
		}
		s.graveKnown = s.graveKnown.Union(e.ToGrave)
	}
}

// forget notes that cards c left seat's hand face up: those known to be
// there are no longer. A played joker is taken to be a known one when the
// seat was known to hold one: jokers look alike, so an observer can only
// say the seat still holds one fewer for certain.
func (s *State) forget(seat int, c Set) { s.known[seat] = s.known[seat].Minus(c) }

// s2Set is the S2 alone.
var s2Set, _ = Set(0).With(S2)

// EventCount is the number of public events so far.
func (s *State) EventCount() int { return len(s.events) }

// Events is the public event log from event n on (all of it for n <= 0).
// The events are shared, not copied: they never change once logged.
func (s *State) Events(n int) []Event {
	n = max(0, min(n, len(s.events)))
	return s.events[n:len(s.events):len(s.events)]
}
