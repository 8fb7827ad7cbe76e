// Package leakscan checks that messages sent to a table's receivers hold
// nothing hidden from them. It works out what each seat and a spectator
// may know at each moment of a game apart from the view code: by
// replaying the game's finished record and noting the cards each seat was
// dealt and every card that went face up. The table and web tests use it
// on every update and WebSocket message their receivers got.
package leakscan

import (
	"fmt"
	"slices"
	"strings"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
)

// Moment is what may be known when the game's event log had a given
// length.
type Moment struct {
	Hand   int                     // the hand in play
	Hands  []arlington.Set         // every seat's hand (the truth)
	Public map[int]arlington.Set   // per hand: every card seen face up in it so far
	Dealt  map[int][]arlington.Set // per hand: each seat's dealt cards
	Over   bool
}

// Knowledge is a whole game's moments, by event count, its seed and the
// cut for the first deal.
type Knowledge struct {
	At   map[int]Moment
	Seed uint64
	// Cut is each seat's card in the cut for the first deal. It was face
	// up, but it is no hand's card: knowing it is no reason to name the
	// same card elsewhere while it lies hidden in a hand, so it is checked
	// apart, in the first deal's event only (checkCut).
	Cut []card.Card
}

// Replay reads a finished game's record (seed included) and works out
// the moment at each event count.
func Replay(rec string) (*Knowledge, error) {
	r, _, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	s, err := arlington.New(r.Config, r.Seed)
	if err != nil {
		return nil, err
	}
	public := map[int]arlington.Set{}
	dealt := map[int][]arlington.Set{}
	k := &Knowledge{At: map[int]Moment{}, Seed: r.Seed, Cut: s.Cut()}
	note := func() {
		h := s.HandNumber()
		if _, ok := dealt[h]; !ok && !s.Terminal() {
			d := make([]arlington.Set, s.Players())
			for i := range d {
				d[i] = s.Hand(i)
			}
			dealt[h] = d
		}
		m := Moment{Hand: h, Hands: make([]arlington.Set, s.Players()), Public: map[int]arlington.Set{},
			Dealt: map[int][]arlington.Set{}, Over: s.Terminal()}
		for i := range m.Hands {
			m.Hands[i] = s.Hand(i)
		}
		for h, v := range public {
			m.Public[h] = v
		}
		for h, v := range dealt {
			m.Dealt[h] = v
		}
		k.At[s.EventCount()] = m
	}
	note()
	for i, mv := range r.Moves {
		h := s.HandNumber()
		public[h] = public[h].Union(ActionCards(mv.Action))
		if err := s.Apply(mv.Seat, mv.Action); err != nil {
			return nil, fmt.Errorf("record move %d: %w", i, err)
		}
		note()
	}
	return k, nil
}

// ActionCards is the cards an action shows face up.
func ActionCards(a arlington.Action) arlington.Set {
	var x arlington.Set
	switch a.Kind {
	case arlington.LeadCard, arlington.PlayCard, arlington.AddCard, arlington.PickUp:
		x, _ = x.With(a.Card)
	case arlington.PlaySet:
		x = a.Set
	case arlington.Kill, arlington.PlayS2:
		x, _ = x.With(arlington.S2)
	}
	return x
}

// Allowed is every card seat (-1: a spectator) may know in hand h at m:
// those face up in it so far, and the seat's own dealt cards.
func (m Moment) Allowed(seat, h int) arlington.Set {
	x := m.Public[h]
	if seat >= 0 && m.Dealt[h] != nil {
		x = x.Union(m.Dealt[h][seat])
	}
	return x
}

// Ever is every card seat may know in some hand at m.
func (m Moment) Ever(seat int) arlington.Set {
	var x arlington.Set
	for h := range m.Public {
		x = x.Union(m.Allowed(seat, h))
	}
	for h := range m.Dealt {
		x = x.Union(m.Allowed(seat, h))
	}
	return x
}

// Check checks one update received by seat (-1: a spectator) and returns
// what it must not have known, or nil. raw is the message as it was sent
// (nil: u's JSON): every string and number in it is scanned for card
// names and the seed (scanRaw says what is left out and why).
func (k *Knowledge) Check(seat int, u table.Update, raw []byte) error {
	if u.View == nil {
		return nil
	}
	v := u.View
	m, ok := k.At[v.EventCount]
	if !ok {
		return fmt.Errorf("update at event count %d, which the game never had", v.EventCount)
	}
	check := func(where string, h int, x arlington.Set) error {
		if a := m.Allowed(seat, h); !a.Contains(x) {
			return fmt.Errorf("%s names %v, not known to seat %d at event %d", where, x.Minus(a), seat, v.EventCount)
		}
		return nil
	}
	if err := checkHand(seat, m, v); err != nil {
		return err
	}
	if err := checkInSight(v, m.Hand, check); err != nil {
		return err
	}
	for _, e := range v.Events {
		x := ActionCards(e.Action).Union(e.ToHand).Union(e.ToGrave)
		if err := check(fmt.Sprintf("event %d", e.N), e.Hand, x); err != nil {
			return err
		}
		if err := k.checkCut(e); err != nil {
			return err
		}
	}
	for _, r := range v.Results {
		for _, tab := range r.Tables {
			for _, t := range tab {
				x, err := arlington.SetOf(t)
				if err != nil {
					return err
				}
				if err := check(fmt.Sprintf("hand %d's result", r.Hand), r.Hand, x); err != nil {
					return err
				}
			}
		}
	}
	return k.scanRaw(seat, m, u, raw)
}

// checkHand: a seat is shown its own hand, exactly; a spectator none.
func checkHand(seat int, m Moment, v *arlington.View) error {
	hand, err := arlington.SetOf(v.Hand)
	if err != nil {
		return fmt.Errorf("the hand: %w", err)
	}
	if seat >= 0 && hand != m.Hands[seat] {
		return fmt.Errorf("seat %d's hand shows %v, holds %v", seat, hand, m.Hands[seat])
	}
	if seat < 0 && !hand.Empty() {
		return fmt.Errorf("a spectator is shown a hand %v", hand)
	}
	return nil
}

// checkInSight: the cards the view shows as lying in sight now (the
// tables, the trick, the cards known to be in hands or the graveyard)
// must be known in hand h.
func checkInSight(v *arlington.View, h int, check func(string, int, arlington.Set) error) error {
	var now arlington.Set
	add := func(cs []card.Card) error {
		x, err := arlington.SetOf(cs)
		now = now.Union(x)
		return err
	}
	for _, tab := range v.Tables {
		for _, t := range tab {
			if err := add(t.Cards); err != nil {
				return err
			}
		}
	}
	for _, t := range v.Trick {
		now, _ = now.With(t.Card)
	}
	for _, kn := range v.Known {
		if err := add(kn); err != nil {
			return err
		}
	}
	if err := add(v.GraveKnown); err != nil {
		return err
	}
	return check("the table, trick or known cards", h, now)
}

// checkCut: the first deal's event carries the real cut, seat by seat
// (the log tells who cut what, so who deals); no other event carries one.
func (k *Knowledge) checkCut(e arlington.Event) error {
	if e.Kind != arlington.EventDeal || e.Hand != 1 {
		if len(e.Cut) > 0 {
			return fmt.Errorf("event %d (%v, hand %d) carries a cut %v", e.N, e.Kind, e.Hand, e.Cut)
		}
		return nil
	}
	if !slices.Equal(e.Cut, k.Cut) {
		return fmt.Errorf("event %d's cut is %v, seat by seat; the cut was %v", e.N, e.Cut, k.Cut)
	}
	return nil
}
