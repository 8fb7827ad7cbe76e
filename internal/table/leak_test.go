package table_test

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/table/leakscan"
)

// The leak scan (package leakscan): every update each seat and a
// spectator received in whole games is checked against what that receiver
// may know at that moment, worked out apart from the views from the game's
// record.

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
	// The spectator is a new identity each game: one identity may watch
	// only MaxWatching tables at once, and a finished game's table stays
	// watched until the test ends.
	who := func(seat int) string {
		if seat < 0 {
			return fmt.Sprint("watcher", seed)
		}
		return fmt.Sprint("p", seat)
	}
	for seat := -1; seat < players-1; seat++ {
		subs = append(subs, mustSub(tb, t, who(seat), 0))
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
				if s, err = t.Subscribe(bg, who(r.seat), have); err != nil {
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
		know, err := leakscan.Replay(rec)
		if err != nil {
			tb.Fatal(err)
		}
		n := 0
		for _, r := range got {
			for _, u := range r.updates {
				n++
				if err := know.Check(r.seat, u, nil); err != nil {
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
	know, err := leakscan.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	seed := know.Seed
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
			m := know.At[u.View.EventCount]
			var ever arlington.Set
			for _, p := range m.Public {
				ever = ever.Union(p)
			}
			for s, hand := range m.Hands {
				if s == r.seat {
					continue
				}
				for _, c := range hand.Cards() {
					if c != card.Joker && !m.Public[m.Hand].Has(c) && (r.seat < 0 || !m.Dealt[m.Hand][r.seat].Has(c)) &&
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
			if err := know.Check(c.r.seat, u, nil); err != nil {
				t.Fatalf("the update is flagged before the plant: %v", err)
			}
			v := *u.View
			u.View = &v
			c.plant(&v, &u, hidden)
			if err := know.Check(c.r.seat, u, nil); err == nil {
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
