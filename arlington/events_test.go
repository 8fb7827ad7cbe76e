package arlington

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

// observer is an onlooker who sees only the public event log and works
// out from it what everyone knows, written independently of the engine.
type observer struct {
	players    int
	hand       int
	dealer     int
	tables     [][]Set
	trick      []TrickCard
	sizes      []int
	known      []Set
	graveKnown Set
	grave      int
	totals     []int
	owner      int
}

func newObserver(players int) *observer {
	return &observer{players: players, tables: make([][]Set, players), sizes: make([]int, players),
		known: make([]Set, players), totals: make([]int, players)}
}

func (o *observer) see(tb testing.TB, e Event) {
	tb.Helper()
	one := func(c card.Card) Set { x, _ := Set(0).With(c); return x }
	switch e.Kind {
	case EventDeal:
		o.hand, o.dealer = e.Hand, e.Seat
		for i := range o.players {
			o.tables[i] = nil
			o.sizes[i] = HandSize
			o.known[i] = 0
		}
		o.graveKnown = 0
		o.grave = 54 - HandSize*o.players
		o.trick = nil
	case EventScore:
		for i, p := range e.Scores {
			o.totals[i] += p
			o.grave += o.sizes[i]
			o.sizes[i] = 0
			o.known[i] = 0
		}
		o.graveKnown = 0
	case EventTake:
		o.sizes[e.Seat] += e.ToHand.Len()
		o.known[e.Seat] = o.known[e.Seat].Union(e.ToHand)
		o.graveKnown = o.graveKnown.Union(e.ToGrave)
		o.grave += e.ToGrave.Len()
		o.trick = nil
	case EventMove:
		a, seat := e.Action, e.Seat
		var played Set
		switch a.Kind {
		case LeadCard, PlayCard:
			played = one(a.Card)
			o.trick = append(o.trick, TrickCard{Seat: seat, Card: a.Card})
		case PlaySet:
			played = a.Set
			if !e.ToGrave.Empty() { // a response: the active set goes
				t := o.tables[o.owner]
				o.tables[o.owner] = t[:len(t)-1]
			}
			o.tables[seat] = append(o.tables[seat], a.Set)
			o.owner = seat
		case Kill:
			played = one(S2)
			t := o.tables[o.owner]
			o.tables[o.owner] = t[:len(t)-1]
		case PlayS2:
			played = one(S2)
			t := o.tables[a.Seat]
			o.tables[a.Seat] = append(t[:a.Index:a.Index], t[a.Index+1:]...)
		case AddCard:
			played = one(a.Card)
			o.tables[a.Seat][a.Index], _ = o.tables[a.Seat][a.Index].With(a.Card)
		case PickUp:
			played = one(a.Card)
			t, _ := o.tables[a.Seat][a.Index].Without(card.Joker)
			o.tables[a.Seat][a.Index], _ = t.With(a.Card)
			o.sizes[seat]++
			o.known[seat], _ = o.known[seat].Minus(played).With(card.Joker)
			return
		}
		o.sizes[seat] -= played.Len()
		o.known[seat] = o.known[seat].Minus(played)
		o.graveKnown = o.graveKnown.Union(e.ToGrave)
		o.grave += e.ToGrave.Len()
	}
}

// check compares the observer's knowledge with a view's public parts.
func (o *observer) check(v View) error {
	got := map[string]any{"hand": v.HandNumber, "dealer": v.Dealer, "sizes": v.HandSizes,
		"totals": v.Totals, "grave": v.Graveyard, "trick": v.Trick}
	want := map[string]any{"hand": o.hand, "dealer": o.dealer, "sizes": o.sizes,
		"totals": o.totals, "grave": o.grave, "trick": o.trick}
	if o.trick == nil {
		want["trick"] = []TrickCard{}
	}
	tables := make([][]Set, o.players)
	known := make([]Set, o.players)
	for i := range o.players {
		for k := range v.Tables[i] {
			tables[i] = append(tables[i], v.Set(i, k))
		}
		known[i], _ = SetOf(v.Known[i])
	}
	got["tables"], want["tables"] = fmt.Sprint(tables), fmt.Sprint(o.tables)
	got["known"], want["known"] = known, o.known
	gk, _ := SetOf(v.GraveKnown)
	got["graveKnown"], want["graveKnown"] = gk, o.graveKnown
	for k := range got {
		if !reflect.DeepEqual(got[k], want[k]) {
			return fmt.Errorf("%s: view %v, observer %v", k, got[k], want[k])
		}
	}
	return nil
}

// Every seat's view (and a spectator's) holds exactly what an onlooker of
// every public event knows, and each view's log is the same public log.
func TestViewEqualsObserverOfPublicEvents(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			for g := range games {
				s, _ := New(Config{Players: players}, uint64(players*77+g))
				o := newObserver(players)
				seen := 0
				follow := func() {
					v := s.ViewSince(-1, seen)
					if v.EventsFrom != seen || v.EventCount != seen+len(v.Events) {
						t.Fatalf("events from %d: view says from %d, count %d with %d events", seen, v.EventsFrom, v.EventCount, len(v.Events))
					}
					for _, e := range v.Events {
						if e.N != seen {
							t.Fatalf("event numbered %d, want %d", e.N, seen)
						}
						o.see(t, e)
						seen++
					}
					for seat := -1; seat < players; seat++ {
						if err := o.check(s.View(seat)); err != nil {
							t.Fatalf("after %d events, seat %d: %v", seen, seat, err)
						}
					}
				}
				follow()
				randomGame(t, players, uint64(players*77+g), func(*State, int, Action) { follow() })
			}
		})
	}
}

// The log holds no card that was dealt face down: each card in it was
// moved face up by an action (or a trick it took).
func TestEventsHoldNoHiddenCard(t *testing.T) {
	s := randomGame(t, 4, 5, func(s *State, _ int, _ Action) {
		if err := s.CheckViews(); err != nil {
			t.Fatal(err)
		}
	})
	b, err := json.Marshal(s.View(0).Events)
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s.Events(0)) {
		t.Fatal("events do not survive JSON")
	}
}

func TestResultsAreCopies(t *testing.T) {
	s := randomGame(t, 3, 11, nil)
	r := s.Results()
	before := fmt.Sprint(s.Results())
	r[0].Scores[0] += 100
	r[0].Tables[0] = append(r[0].Tables[0], FullDeck)
	if len(r[0].Tables[1]) > 0 {
		r[0].Tables[1][0] = 0
	}
	if after := fmt.Sprint(s.Results()); after != before {
		t.Fatalf("changing Results' copy changed the game:\n%s\n%s", before, after)
	}
}

// A clone shares history but playing on either leaves the other as it was.
func TestCloneIsIndependent(t *testing.T) {
	s, _ := New(Config{Players: 3}, 3)
	r := NewRand(1)
	for range 40 {
		l := s.Legal(s.ToMove())
		_ = s.Apply(s.ToMove(), l[r.Intn(len(l))])
	}
	c := s.Clone()
	want := s.Record().String()
	wantEvents := fmt.Sprint(s.Events(0))
	for i := 0; i < 200 && !c.Terminal(); i++ {
		l := c.Legal(c.ToMove())
		_ = c.Apply(c.ToMove(), l[r.Intn(len(l))])
	}
	if s.Record().String() != want || fmt.Sprint(s.Events(0)) != wantEvents {
		t.Fatal("playing on the clone changed the original")
	}
	c2 := s.Clone()
	for range 5 {
		l := s.Legal(s.ToMove())
		_ = s.Apply(s.ToMove(), l[0])
	}
	if len(c2.History()) != 40 || c2.Record().String() != want {
		t.Fatal("playing on the original changed the clone")
	}
}

// A sampled world agrees with the view it was drawn from in everything the
// view knows, accounts for all 54 cards, and draws later deals from a seed
// of its own.
func TestSampleAgreesWithView(t *testing.T) {
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			r := NewRand(uint64(players))
			steps := 0
			randomGame(t, players, uint64(players)*31, func(s *State, _ int, _ Action) {
				steps++
				if s.Terminal() || steps%3 != 0 {
					return
				}
				seat := s.ToMove()
				v := s.View(seat)
				w, err := Sample(v, r)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.CheckCards(); err != nil {
					t.Fatalf("sampled world: %v", err)
				}
				if err := SameKnowledge(v, w.View(seat)); err != nil {
					t.Fatalf("sampled world: %v", err)
				}
				for i := range players {
					k, _ := SetOf(v.Known[i])
					if !w.Hand(i).Contains(k) {
						t.Fatalf("seat %d holds %v in the world, known to hold %v", i, w.Hand(i), k)
					}
				}
				if w.Seed() == s.Seed() {
					t.Fatal("the world has the real game's seed")
				}
			})
		})
	}
}

// Sampled worlds vary: over many samples an opponent's unknown cards are
// not always the same, and never include a card the seat can see.
func TestSampleVaries(t *testing.T) {
	s, _ := New(Config{Players: 4}, 8)
	v := s.View(s.ToMove())
	other := (v.Seat + 1) % 4
	r := NewRand(2)
	hands := map[Set]bool{}
	for range 50 {
		w, err := Sample(v, r)
		if err != nil {
			t.Fatal(err)
		}
		hands[w.Hand(other)] = true
		if w.Hand(v.Seat) != s.Hand(v.Seat) {
			t.Fatal("own hand changed")
		}
	}
	if len(hands) < 40 {
		t.Fatalf("only %d different hands in 50 samples", len(hands))
	}
}

func TestSampleRefusesBadViews(t *testing.T) {
	s, _ := New(Config{Players: 3}, 8)
	v := s.View(0)
	v.HandSizes = []int{8, 8, 60}
	if _, err := Sample(v, NewRand(1)); err == nil {
		t.Fatal("impossible hand size accepted")
	}
	v = s.View(0)
	v.Known = v.Known[:1]
	if _, err := Sample(v, NewRand(1)); err == nil {
		t.Fatal("short known list accepted")
	}
}

// "The Hand": the players cut for the first deal face up, so the first
// deal's public event carries each seat's cut card and the narrator tells
// it; later deals carry none. The cut survives JSON.
func TestFirstDealEventCarriesTheCut(t *testing.T) {
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			s := randomGame(t, players, uint64(players*77), nil)
			deals := 0
			for _, e := range s.Events(0) {
				if e.Kind != EventDeal {
					continue
				}
				deals++
				want := []card.Card(nil)
				if e.Hand == 1 {
					want = s.Cut()
				}
				if !slices.Equal(e.Cut, want) {
					t.Fatalf("hand %d's deal event holds the cut %v, want %v", e.Hand, e.Cut, want)
				}
				b, err := json.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				var back Event
				if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back.Cut, want) {
					t.Fatalf("hand %d: %s read back with the cut %v (%v)", e.Hand, b, back.Cut, err)
				}
			}
			if deals < 2 {
				t.Fatalf("%d deals: no later deal to check", deals)
			}
			names := make([]string, players)
			for i := range names {
				names[i] = fmt.Sprintf("P%d", i)
			}
			first := NewNarrator(names).Tell(s.Events(0)[0])
			for i, c := range s.Cut() {
				w := CutCardWords(c)
				if !strings.Contains(first, fmt.Sprintf("P%d %s", i, w)) && !strings.Contains(first, fmt.Sprintf("P%d cut %s", i, w)) {
					t.Fatalf("the first deal told as %q: no word of P%d's cut, %s", first, i, w)
				}
			}
			if !strings.Contains(first, fmt.Sprintf("so P%d, with the highest suit card, deals", s.Results()[0].Dealer)) {
				t.Fatalf("the first deal told as %q, want P%d dealing", first, s.Results()[0].Dealer)
			}
		})
	}
}
