package table_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
)

// The leak scan: every update each seat and a spectator received in whole
// games is checked against what that receiver may know at that moment,
// worked out apart from the views: by replaying the game's record and
// noting the cards each seat was dealt and every card that went face up.

// moment is what may be known when the game's event log had a given
// length.
type moment struct {
	hand   int                     // the hand in play
	hands  []arlington.Set         // every seat's hand (the truth)
	public map[int]arlington.Set   // per hand: every card seen face up in it so far
	dealt  map[int][]arlington.Set // per hand: each seat's dealt cards
	over   bool
}

// knowledge replays rec and returns the moment at each event count.
func knowledge(tb testing.TB, rec string) (map[int]moment, uint64) {
	tb.Helper()
	r, _, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		tb.Fatalf("record: %v", err)
	}
	s, err := arlington.New(r.Config, r.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	public := map[int]arlington.Set{}
	dealt := map[int][]arlington.Set{}
	out := map[int]moment{}
	note := func() {
		h := s.HandNumber()
		if _, ok := dealt[h]; !ok && !s.Terminal() {
			d := make([]arlington.Set, s.Players())
			for i := range d {
				d[i] = s.Hand(i)
			}
			dealt[h] = d
		}
		m := moment{hand: h, hands: make([]arlington.Set, s.Players()), public: map[int]arlington.Set{},
			dealt: map[int][]arlington.Set{}, over: s.Terminal()}
		for i := range m.hands {
			m.hands[i] = s.Hand(i)
		}
		for k, v := range public {
			m.public[k] = v
		}
		for k, v := range dealt {
			m.dealt[k] = v
		}
		out[s.EventCount()] = m
	}
	note()
	for _, mv := range r.Moves {
		h := s.HandNumber()
		public[h] = public[h].Union(actionCards(mv.Action))
		if err := s.Apply(mv.Seat, mv.Action); err != nil {
			tb.Fatal(err)
		}
		note()
	}
	return out, r.Seed
}

// actionCards is the cards an action shows face up.
func actionCards(a arlington.Action) arlington.Set {
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

func setOf(tb testing.TB, cs []card.Card) arlington.Set {
	x, err := arlington.SetOf(cs)
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

var cardToken = regexp.MustCompile(`\b(?:[2-9TJQKA][CDHS]|JK)\b`)

// scan checks one update received by seat (-1: a spectator) and returns
// what it must not have known, or nil.
func scan(tb testing.TB, know map[int]moment, seed uint64, seat int, u table.Update) error {
	if u.View == nil {
		return nil
	}
	v := u.View
	m, ok := know[v.EventCount]
	if !ok {
		return fmt.Errorf("update at event count %d, which the game never had", v.EventCount)
	}
	allowed := func(h int) arlington.Set {
		x := m.public[h]
		if seat >= 0 && m.dealt[h] != nil {
			x = x.Union(m.dealt[h][seat])
		}
		return x
	}
	check := func(where string, h int, x arlington.Set) error {
		if a := allowed(h); !a.Contains(x) {
			return fmt.Errorf("%s names %v, not known to seat %d at event %d", where, x.Minus(a), seat, v.EventCount)
		}
		return nil
	}
	hand := setOf(tb, v.Hand)
	if seat >= 0 && hand != m.hands[seat] {
		return fmt.Errorf("seat %d's hand shows %v, holds %v", seat, hand, m.hands[seat])
	}
	if seat < 0 && !hand.Empty() {
		return fmt.Errorf("a spectator is shown a hand %v", hand)
	}
	var now arlington.Set
	for _, tab := range v.Tables {
		for _, t := range tab {
			now = now.Union(setOf(tb, t.Cards))
		}
	}
	for _, t := range v.Trick {
		now, _ = now.With(t.Card)
	}
	for _, k := range v.Known {
		now = now.Union(setOf(tb, k))
	}
	now = now.Union(setOf(tb, v.GraveKnown))
	if err := check("the table, trick or known cards", m.hand, now); err != nil {
		return err
	}
	for _, e := range v.Events {
		x := actionCards(e.Action).Union(e.ToHand).Union(e.ToGrave)
		if err := check(fmt.Sprintf("event %d", e.N), e.Hand, x); err != nil {
			return err
		}
	}
	for _, r := range v.Results {
		for _, tab := range r.Tables {
			for _, t := range tab {
				if err := check(fmt.Sprintf("hand %d's result", r.Hand), r.Hand, setOf(tb, t)); err != nil {
					return err
				}
			}
		}
	}
	// Whatever the fields: every card the message names anywhere must be
	// one the receiver has seen in some hand, and the seed is never in it
	// before the game is over.
	u.Chat = nil // people may type card names
	js, err := json.Marshal(u)
	if err != nil {
		return err
	}
	var ever arlington.Set
	for h := range m.public {
		ever = ever.Union(allowed(h))
	}
	for h := range m.dealt {
		ever = ever.Union(allowed(h))
	}
	for _, tok := range cardToken.FindAllString(string(js), -1) {
		c, err := card.Parse(tok)
		if err != nil {
			continue
		}
		if !ever.Has(c) {
			return fmt.Errorf("the message names %v, never known to seat %d", c, seat)
		}
	}
	if !m.over && strings.Contains(string(js), strconv.FormatUint(seed, 10)) {
		return fmt.Errorf("the message holds the seed before the game is over")
	}
	return nil
}

// received is every update one receiver got.
type received struct {
	seat    int
	updates []table.Update
}

// leakGame plays one game with people in every seat but the last (a bot)
// and a spectator, each person choosing at random, and returns every
// update each received and the game's record.
func leakGame(tb testing.TB, h *table.Hub, players, target int, seed uint64) ([]*received, string) {
	tb.Helper()
	bots := make([]string, players)
	bots[players-1] = "random"
	t := mustCreate(tb, h, fmt.Sprint("creator", seed), table.Config{Players: players, Target: target, Bots: bots})
	var subs []*table.Sub
	var got []*received
	for seat := range players - 1 {
		mustJoin(tb, t, fmt.Sprint("p", seat), seat)
	}
	for seat := -1; seat < players-1; seat++ {
		subs = append(subs, mustSub(tb, t, fmt.Sprint("p", seat), 0)) // "p-1" holds no seat: a spectator
		got = append(got, &received{seat: seat})
	}
	var wg sync.WaitGroup
	for i, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := got[i]
			rng := arlington.NewRand(seed*31 + uint64(i))
			acted, have := -1, 0
			for {
				for u := range s.Updates() {
					r.updates = append(r.updates, u)
					if u.View != nil {
						have = u.View.EventCount
					}
					if over(u) {
						return
					}
					if r.seat < 0 || u.View == nil || u.View.ToMove != r.seat || u.View.EventCount == acted {
						continue
					}
					acted = u.View.EventCount
					legal := u.View.Legal()
					if err := t.Act(bg, fmt.Sprint("p", r.seat), r.seat, legal[rng.Intn(len(legal))]); err != nil {
						tb.Errorf("seat %d: %v", r.seat, err)
						return
					}
				}
				if !errors.Is(s.Err(), table.ErrSlow) {
					tb.Errorf("receiver %d: subscription ended: %v", r.seat, s.Err())
					return
				}
				// Dropped for falling behind: subscribe again from the
				// last event received, as a client does.
				var err error
				if s, err = t.Subscribe(bg, fmt.Sprint("p", r.seat), have); err != nil {
					tb.Errorf("receiver %d: subscribing again: %v", r.seat, err)
					return
				}
				defer s.Close()
			}
		}()
	}
	wg.Wait()
	rec, err := h.Record(bg, t.ID())
	if err != nil {
		tb.Fatal(err)
	}
	return got, rec
}

func leakScan(tb testing.TB, games, target int) {
	h := newHub(tb, newMemStore(), newFakeClock(), func(o *table.Options) { o.MaxPerPlayer = games; o.MaxTables = games + 1 })
	for g := range games {
		players := 2 + g%5
		got, rec := leakGame(tb, h, players, target, uint64(g+1))
		know, seed := knowledge(tb, rec)
		n := 0
		for _, r := range got {
			for _, u := range r.updates {
				n++
				if err := scan(tb, know, seed, r.seat, u); err != nil {
					tb.Fatalf("game %d (%d players): %v", g, players, err)
				}
			}
		}
		// Every receiver got every public event, in order, with none
		// missing (a receiver dropped for falling behind got the rest
		// when it subscribed again).
		for _, r := range got {
			if err := contiguous(r.updates); err != nil {
				tb.Fatalf("game %d: receiver %d: %v", g, r.seat, err)
			}
		}
		if n < len(got) {
			tb.Fatalf("game %d: %d updates scanned for %d receivers", g, n, len(got))
		}
	}
}

// TestLeakScan is quick: short games (target 8) at 2, 3 and 4 seats.
func TestLeakScan(t *testing.T) { leakScan(t, 3, 8) }

func TestLongLeakScan(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	leakScan(t, 25, 0) // whole games to 32, five at each of 2 to 6 seats
}

// TestLeakScanCatchesPlantedLeaks is the scan's control: a real game's
// updates, each with one leak planted, must each be caught.
func TestLeakScanCatchesPlantedLeaks(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	got, rec := leakGame(t, h, 4, 8, 99)
	know, seed := knowledge(t, rec)
	spectator, seat0 := got[0], got[1]
	if spectator.seat != -1 || seat0.seat != 0 {
		t.Fatal("receivers out of order")
	}
	// pick is a mid-game update of r and a card hidden from r then (in
	// another seat's hand and never face up in this hand).
	// With never, the card was never face up in any hand so far either
	// (the message-wide check knows no hands).
	pick := func(r *received, never bool) (table.Update, card.Card) {
		for _, u := range r.updates[1:] {
			if u.View == nil || len(u.View.Events) == 0 || u.View.EventCount < 12 {
				continue
			}
			m := know[u.View.EventCount]
			var ever arlington.Set
			for _, p := range m.public {
				ever = ever.Union(p)
			}
			for s, hand := range m.hands {
				if s == r.seat {
					continue
				}
				for _, c := range hand.Cards() {
					if c != card.Joker && !m.public[m.hand].Has(c) && (r.seat < 0 || !m.dealt[m.hand][r.seat].Has(c)) &&
						(!never || !ever.Has(c)) {
						return u, c
					}
				}
			}
		}
		t.Fatal("no hidden card to plant")
		return table.Update{}, 0
	}
	cases := []struct {
		name  string
		r     *received
		never bool
		plant func(v *arlington.View, u *table.Update, c card.Card)
	}{
		{"another hand's card in the trick", spectator, false, func(v *arlington.View, _ *table.Update, c card.Card) {
			v.Trick = append(v.Trick, arlington.TrickCard{Seat: 1, Card: c})
		}},
		{"a hidden card said known", seat0, false, func(v *arlington.View, _ *table.Update, c card.Card) {
			v.Known = append([]arlington.Cards(nil), v.Known...)
			v.Known[1] = append(append(arlington.Cards(nil), v.Known[1]...), c)
		}},
		{"another hand's card in one's own", seat0, false, func(v *arlington.View, _ *table.Update, c card.Card) {
			v.Hand = append(append(arlington.Cards(nil), v.Hand...), c)
		}},
		{"a hidden card gone to the graveyard in an event", spectator, false, func(v *arlington.View, _ *table.Update, c card.Card) {
			e := v.Events[len(v.Events)-1]
			e.ToGrave, _ = e.ToGrave.With(c)
			v.Events = append(append([]arlington.Event(nil), v.Events[:len(v.Events)-1]...), e)
		}},
		{"a hidden card in a display name", spectator, true, func(_ *arlington.View, u *table.Update, c card.Card) {
			u.Seats = append([]table.SeatInfo(nil), u.Seats...)
			u.Seats[0].Name = "holds " + c.String()
		}},
		{"the seed in a display name", spectator, false, func(_ *arlington.View, u *table.Update, _ card.Card) {
			u.Seats = append([]table.SeatInfo(nil), u.Seats...)
			u.Seats[0].Name = strconv.FormatUint(seed, 10)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, hidden := pick(c.r, c.never)
			if err := scan(t, know, seed, c.r.seat, u); err != nil {
				t.Fatalf("the update is flagged before the plant: %v", err)
			}
			v := *u.View
			u.View = &v
			c.plant(&v, &u, hidden)
			if err := scan(t, know, seed, c.r.seat, u); err == nil {
				t.Fatalf("planted %v: not caught", hidden)
			}
		})
	}
}

// contiguous checks that a receiver's updates carry the public events from
// the first on, each update going on where the last stopped, to the end.
func contiguous(ups []table.Update) error {
	have := 0
	for _, u := range ups {
		if u.View == nil {
			continue
		}
		if u.View.EventsFrom > have {
			return fmt.Errorf("events %d to %d never arrived", have, u.View.EventsFrom)
		}
		have = max(have, u.View.EventCount)
	}
	if len(ups) == 0 || !over(ups[len(ups)-1]) {
		return fmt.Errorf("the updates end before the game does")
	}
	return nil
}
