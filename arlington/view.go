package arlington

import (
	"encoding/json"
	"fmt"

	"cardtable/card"
)

// View is what one seat may know: its own hand, every table, the trick or
// set round in play, hand sizes, scores, whose turn it is and who deals.
// It never holds another seat's hand, the graveyard's contents or the
// seed. It is plain data and marshals to JSON (cards as "KS", "JK").
type View struct {
	Seat       int          `json:"seat"`
	Players    int          `json:"players"`
	Target     int          `json:"target"`
	HandNumber int          `json:"handNumber"`
	Dealer     int          `json:"dealer"`
	Lead       int          `json:"lead"`   // the player with the lead (who led the trick or set in play)
	ToMove     int          `json:"toMove"` // -1 when the game is over
	Phase      Phase        `json:"phase"`
	Hand       Cards        `json:"hand"` // this seat's cards, highest first
	HandSizes  []int        `json:"handSizes"`
	Tables     [][]TableSet `json:"tables"`
	Trick      []TrickCard  `json:"trick"`           // cards played to the trick in play, in order
	Round      *Round       `json:"round,omitempty"` // the set round in play
	Graveyard  int          `json:"graveyard"`       // how many cards (face down)
	Totals     []int        `json:"totals"`
	Results    []HandView   `json:"results"` // every finished hand
	Winners    []int        `json:"winners,omitempty"`
	// Known is, for each seat, the cards everyone knows to be in its hand:
	// cards it took in tricks this hand and jokers it picked up, until it
	// plays them. GraveKnown is the cards everyone saw go onto the
	// graveyard this hand.
	Known      []Cards `json:"known"`
	GraveKnown Cards   `json:"graveKnown"`
	// Events is the public event log from event number EventsFrom on
	// (State.ViewSince); EventCount is the log's length. Together with
	// the deal of the own hand, the log is everything the seat has seen.
	Events     []Event `json:"events"`
	EventsFrom int     `json:"eventsFrom"`
	EventCount int     `json:"eventCount"`
}

// viewOldKeys are the keys of a view before they were lowerCamel, read
// (never written) for one release: a client may meet an older server.
type viewOldKeys struct {
	HandNumber *int   `json:"hand_number"`
	ToMove     *int   `json:"to_move"`
	HandSizes  []int  `json:"hand_sizes"`
	GraveKnown *Cards `json:"grave_known"`
	EventsFrom *int   `json:"events_from"`
	EventCount *int   `json:"event_count"`
}

// UnmarshalJSON reads a view, with the keys of the previous release too.
func (v *View) UnmarshalJSON(b []byte) error {
	type plain View // without this method
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	var old viewOldKeys
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	for _, f := range []struct {
		to  *int
		old *int
	}{{&v.HandNumber, old.HandNumber}, {&v.ToMove, old.ToMove}, {&v.EventsFrom, old.EventsFrom}, {&v.EventCount, old.EventCount}} {
		if f.old != nil {
			*f.to = *f.old
		}
	}
	if old.HandSizes != nil {
		v.HandSizes = old.HandSizes
	}
	if old.GraveKnown != nil {
		v.GraveKnown = *old.GraveKnown
	}
	return nil
}

// TableSet is a set on a table as everyone sees it.
type TableSet struct {
	Cards   Cards      `json:"cards"`
	Spectra []Spectrum `json:"spectra"`
	Points  int        `json:"points"`
	Active  bool       `json:"active,omitempty"` // the active set of the round in play
}

// TrickCard is a card face up in the trick in play. In JSON:
// {"seat": 1, "card": "7H"}.
type TrickCard struct {
	Seat int
	Card card.Card
}

type trickCardJSON struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// MarshalJSON writes the card in notation.
func (t TrickCard) MarshalJSON() ([]byte, error) {
	return json.Marshal(trickCardJSON{t.Seat, t.Card.String()})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *TrickCard) UnmarshalJSON(b []byte) error {
	var j trickCardJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	c, err := card.Parse(j.Card)
	if err != nil {
		return err
	}
	*t = TrickCard{Seat: j.Seat, Card: c}
	return nil
}

// Round is the set round in play: who led it, in which spectrum, and whose
// set is active (the last set on that seat's table).
type Round struct {
	Leader   int      `json:"leader"`
	Spectrum Spectrum `json:"spectrum"`
	Owner    int      `json:"owner"`
}

// HandView is a finished hand as everyone saw it scored.
type HandView struct {
	Hand   int       `json:"hand"`
	Dealer int       `json:"dealer"`
	Tables [][]Cards `json:"tables"`
	Scores []int     `json:"scores"`
}

// View is seat's view of the game with the whole public event log. A seat
// outside 0..Players-1 gets a spectator's view: Seat -1 and no hand.
func (s *State) View(seat int) View { return s.ViewSince(seat, 0) }

// ViewSince is seat's view with the public events from number from on
// only (a client that has the earlier ones asks for the rest). The events
// are shared with the state, which never changes a logged event.
func (s *State) ViewSince(seat, from int) View {
	n := s.cfg.Players
	hand := Cards{}
	if seat < 0 || seat >= n {
		seat = -1
	} else {
		hand = Cards(s.hands[seat].Cards())
	}
	v := View{
		Seat:       seat,
		Players:    n,
		Target:     s.cfg.Target,
		HandNumber: s.handNo,
		Dealer:     s.dealer,
		Lead:       s.lead,
		ToMove:     s.toMove,
		Phase:      s.phase,
		Hand:       hand,
		HandSizes:  make([]int, n),
		Tables:     make([][]TableSet, n),
		Trick:      []TrickCard{},
		Graveyard:  s.grave.Len(),
		Totals:     append([]int(nil), s.totals...),
		Results:    make([]HandView, len(s.results)),
		Winners:    s.Winners(),
		Known:      make([]Cards, n),
		GraveKnown: Cards(s.graveKnown.Cards()),
		Events:     s.Events(from),
		EventsFrom: max(0, min(from, len(s.events))),
		EventCount: len(s.events),
	}
	for i := range n {
		v.HandSizes[i] = s.hands[i].Len()
		v.Known[i] = Cards(s.known[i].Cards())
		v.Tables[i] = make([]TableSet, len(s.tables[i]))
		for k, t := range s.tables[i] {
			v.Tables[i][k] = TableSet{Cards: Cards(t.Cards()), Spectra: SpectraOf(t), Points: Points(t)}
		}
	}
	for _, p := range s.trick {
		v.Trick = append(v.Trick, TrickCard(p))
	}
	if s.phase == PhaseRound {
		v.Round = &Round{Leader: s.lead, Spectrum: s.spec, Owner: s.owner}
		v.Tables[s.owner][len(s.tables[s.owner])-1].Active = true
	}
	for i, r := range s.results {
		hv := HandView{Hand: r.Hand, Dealer: r.Dealer, Tables: make([][]Cards, n), Scores: append([]int(nil), r.Scores...)}
		for k, tab := range r.Tables {
			hv.Tables[k] = make([]Cards, len(tab))
			for j, t := range tab {
				hv.Tables[k][j] = Cards(t.Cards())
			}
		}
		v.Results[i] = hv
	}
	return v
}

// Legal lists the actions the view's seat may take, exactly as
// State.Legal does; bots call it so that they need nothing but the view.
func (v View) Legal() []Action {
	if v.Phase == PhaseOver || v.ToMove != v.Seat {
		return nil
	}
	p, err := v.position()
	if err != nil {
		return nil
	}
	return p.legal()
}

func (v View) position() (position, error) {
	hand, err := SetOf(v.Hand)
	if err != nil {
		return position{}, err
	}
	p, err := v.tablesPosition()
	p.hand = hand
	return p, err
}

// tablesPosition is the position of the view without its hand: the
// phase, the tables and the set round in play.
func (v View) tablesPosition() (position, error) {
	var err error
	p := position{phase: v.Phase, tables: make([][]Set, len(v.Tables))}
	for i, tab := range v.Tables {
		p.tables[i] = make([]Set, len(tab))
		for k, t := range tab {
			if p.tables[i][k], err = SetOf(t.Cards); err != nil {
				return position{}, err
			}
		}
	}
	if v.Round != nil {
		p.spec = v.Round.Spectrum
		tab := p.tables[v.Round.Owner]
		if len(tab) == 0 {
			return position{}, fmt.Errorf("view: no active set on seat %d's table", v.Round.Owner)
		}
		p.active, _ = KeyIn(tab[len(tab)-1], p.spec)
	}
	return p, nil
}

// Set is table set i of seat's table in the view, as a Set.
func (v View) Set(seat, i int) Set {
	s, _ := SetOf(v.Tables[seat][i].Cards)
	return s
}

// CheckViews verifies that every seat's view holds its own hand exactly
// and no card of another seat's hand or the graveyard anywhere (tables and
// the trick are public).
func (s *State) CheckViews() error {
	for seat := range s.cfg.Players {
		v := s.View(seat)
		own, err := SetOf(v.Hand)
		if err != nil || own != s.hands[seat] {
			return fmt.Errorf("seat %d's view holds %v, not its hand %v", seat, v.Hand, s.hands[seat].Cards())
		}
		var public Set
		for _, tab := range v.Tables {
			for _, t := range tab {
				x, _ := SetOf(t.Cards)
				public = public.Union(x)
			}
		}
		for _, t := range v.Trick {
			public, _ = public.With(t.Card)
		}
		hidden := s.grave.Mask()
		for other := range s.cfg.Players {
			if other != seat {
				hidden |= s.hands[other].Mask()
			}
		}
		if leak := (own.Mask() | public.Mask()) & hidden; leak != 0 {
			return fmt.Errorf("seat %d's view holds hidden cards %v", seat, Set(leak))
		}
		for i, k := range v.Known {
			if x, err := SetOf(k); err != nil || !s.hands[i].Contains(x) {
				return fmt.Errorf("seat %d's view says seat %d is known to hold %v, which it does not", seat, i, k)
			}
		}
		if x, err := SetOf(v.GraveKnown); err != nil || !s.grave.Contains(x) {
			return fmt.Errorf("seat %d's view says the graveyard holds %v, which it does not", seat, v.GraveKnown)
		}
		if v.Graveyard != s.grave.Len() {
			return fmt.Errorf("seat %d's view counts %d graveyard cards, not %d", seat, v.Graveyard, s.grave.Len())
		}
	}
	return nil
}
