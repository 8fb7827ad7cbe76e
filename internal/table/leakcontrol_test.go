package table_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/table/leakscan"
)

// The leak scan's controls for the first deal's cut and for the message
// read as a whole: each plants one leak in a real update a spectator got
// and must see it caught.

// scanFixture is a six-seat game (six cut cards: some lie in hands), as
// its spectator got it, and the cut worked out from the record apart
// from the scan.
type scanFixture struct {
	know      *leakscan.Knowledge
	cut       []card.Card
	spectator *received
}

func newScanFixture(t *testing.T) *scanFixture {
	h := newHub(t, newMemStore(), newFakeClock())
	got, rec := leakGame(t, h, 6, 8, 98)
	know, err := leakscan.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	s, err := arlington.New(r.Config, r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	f := &scanFixture{know: know, cut: s.Cut(), spectator: got[0]}
	if f.spectator.seat != -1 || len(f.cut) != 6 {
		t.Fatalf("receivers out of order, or a cut of %d cards", len(f.cut))
	}
	return f
}

// firstDeal is the spectator's update carrying the first deal's event, a
// copy whose events and log may be changed, that event's index, and a
// card then hidden from the spectator (in a hand, never face up).
func (f *scanFixture) firstDeal(t *testing.T) (table.Update, int, card.Card) {
	for _, u := range f.spectator.updates {
		if u.View == nil {
			continue
		}
		for i, e := range u.View.Events {
			if e.Kind != arlington.EventDeal || e.Hand != 1 {
				continue
			}
			v := *u.View
			v.Events = slices.Clone(v.Events)
			u.View = &v
			u.Log = slices.Clone(u.Log)
			u.Seats = slices.Clone(u.Seats)
			m := f.know.At[v.EventCount]
			for _, c := range m.Hands[0].Cards() {
				if c != card.Joker && !m.Ever(-1).Has(c) {
					return u, i, c
				}
			}
			t.Fatal("no card hidden from the spectator")
		}
	}
	t.Fatal("no update carries the first deal")
	return table.Update{}, 0, 0
}

// plant is one leak: it changes a clean update and returns it, with the
// message as sent when that differs from the update's JSON (else nil).
type plant func(t *testing.T, f *scanFixture) (table.Update, []byte)

// mustCatch checks each plant's update was clean before the plant and is
// caught after it.
func mustCatch(t *testing.T, f *scanFixture, cases []struct {
	name  string
	plant plant
}) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, raw := c.plant(t, f)
			if err := f.know.Check(f.spectator.seat, u, raw); err == nil {
				t.Fatal("not caught")
			} else {
				t.Log(err)
			}
		})
	}
}

// clean fails t if u, as it was received, is flagged.
func (f *scanFixture) clean(t *testing.T, u table.Update) {
	t.Helper()
	if err := f.know.Check(f.spectator.seat, u, nil); err != nil {
		t.Fatalf("flagged before the plant: %v", err)
	}
}

// rawWith is u's JSON changed by edit on its decoded form.
func rawWith(t *testing.T, u table.Update, edit func(msg map[string]any)) []byte {
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	var msg map[string]any
	if err := json.Unmarshal(b, &msg); err != nil {
		t.Fatal(err)
	}
	edit(msg)
	if b, err = json.Marshal(msg); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLeakScanChecksTheCut: the first deal's event must carry each seat's
// real card, and the cut being public is no leave to name its cards
// elsewhere in a message while they lie hidden in hands.
func TestLeakScanChecksTheCut(t *testing.T) {
	mustCatch(t, newScanFixture(t), []struct {
		name  string
		plant plant
	}{
		{"a cut card named while hidden in another hand", cutCardNamed},
		{"two seats' cut cards swapped", cutSwapped},
		{"the cut on a later event", cutOnALaterEvent},
		{"a second cut key after one holding a hidden card", cutTwice},
		{"a key twice, the second folded", keyTwiceInCapitals},
	})
}

func cutCardNamed(t *testing.T, f *scanFixture) (table.Update, []byte) {
	for _, u := range f.spectator.updates {
		if u.View == nil {
			continue
		}
		m := f.know.At[u.View.EventCount]
		var seen arlington.Set // face up in a hand so far
		for h, p := range m.Public {
			if h >= 1 {
				seen = seen.Union(p)
			}
		}
		for s, hand := range m.Hands {
			for _, c := range f.cut {
				if m.Hand == 1 && c != card.Joker && hand.Has(c) && !seen.Has(c) {
					f.clean(t, u)
					u.Seats = slices.Clone(u.Seats)
					u.Seats[0].Name = "holds " + c.String()
					t.Logf("%v, cut by seat %d, hidden in seat %d's hand at event %d", c, slices.Index(f.cut, c), s, u.View.EventCount)
					return u, nil
				}
			}
		}
	}
	t.Fatal("no cut card lies hidden in a hand")
	return table.Update{}, nil
}

func cutSwapped(t *testing.T, f *scanFixture) (table.Update, []byte) {
	u, i, _ := f.firstDeal(t)
	f.clean(t, u)
	e := &u.View.Events[i]
	e.Cut = slices.Clone(e.Cut)
	j := slices.IndexFunc(e.Cut, func(c card.Card) bool { return c != e.Cut[0] })
	e.Cut[0], e.Cut[j] = e.Cut[j], e.Cut[0]
	return u, nil
}

func cutOnALaterEvent(t *testing.T, f *scanFixture) (table.Update, []byte) {
	for _, u := range f.spectator.updates {
		if u.View == nil {
			continue
		}
		for i, e := range u.View.Events {
			if e.N > 0 {
				f.clean(t, u)
				v := *u.View
				v.Events = slices.Clone(v.Events)
				v.Events[i].Cut = slices.Clone(f.cut)
				u.View = &v
				return u, nil
			}
		}
	}
	t.Fatal("no update carries a later event")
	return table.Update{}, nil
}

// cutTwice: the first deal's event with a "cut" holding a hidden card
// before the real one; a decoder keeps the last, the real cut.
func cutTwice(t *testing.T, f *scanFixture) (table.Update, []byte) {
	u, _, hidden := f.firstDeal(t)
	f.clean(t, u)
	raw, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	fake := slices.Clone(f.cut)
	fake[0] = hidden
	fj, err := json.Marshal(arlington.Cards(fake))
	if err != nil {
		t.Fatal(err)
	}
	key := []byte(`"cut":`)
	if bytes.Count(raw, key) != 1 {
		t.Fatalf("the message has %d cut keys", bytes.Count(raw, key))
	}
	raw = bytes.Replace(raw, key, append(append(slices.Clone(key), fj...), append([]byte(","), key...)...), 1)
	var got table.Update
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	return got, raw
}

// keyTwiceInCapitals: Go's decoder takes a key whatever its case, so
// "Cut" after "cut" would set the same field, the last one kept; a key
// that comes twice in any case is refused, folded as the decoder folds
// ("extraſ" is "extras" to it). The keys here hold no card, so only that
// rule can catch it.
func keyTwiceInCapitals(t *testing.T, f *scanFixture) (table.Update, []byte) {
	u, _, _ := f.firstDeal(t)
	f.clean(t, u)
	raw, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	raw = append([]byte(`{"extras":0,"extraſ":0,`), raw[1:]...)
	var got table.Update
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	return got, raw
}

// TestLeakScanReadsTheWholeMessage: a hidden card anywhere in the message
// outside the chat is caught, in either form a card is written ("AD" as
// JSON carries cards, "A♦" as the log words it), wherever it stands in a
// string, in fields the view code never writes too.
func TestLeakScanReadsTheWholeMessage(t *testing.T) {
	mustCatch(t, newScanFixture(t), []struct {
		name  string
		plant plant
	}{
		{"in a field of the view of its own", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, _, hidden := f.firstDeal(t)
			f.clean(t, u)
			return u, rawWith(t, u, func(msg map[string]any) {
				msg["view"].(map[string]any)["debug"] = "next: " + hidden.String()
			})
		}},
		{"in a field of an event of its own", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, i, hidden := f.firstDeal(t)
			f.clean(t, u)
			return u, rawWith(t, u, func(msg map[string]any) {
				e := msg["view"].(map[string]any)["events"].([]any)[i].(map[string]any)
				e["peek"] = []string{hidden.String()}
			})
		}},
		{"in words in the log", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, i, hidden := f.firstDeal(t)
			f.clean(t, u)
			u.Log[i] += " Ann holds the " + arlington.CardWords(hidden) + "."
			return u, nil
		}},
		{"right after a newline in a name", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, _, hidden := f.firstDeal(t)
			f.clean(t, u)
			u.Seats[0].Name = "holds\n" + hidden.String()
			return u, nil
		}},
		{"in angle brackets in a name", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, _, hidden := f.firstDeal(t)
			f.clean(t, u)
			u.Seats[0].Name = "<" + hidden.String() + ">"
			return u, nil
		}},
		{"a joker in words in the log", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, i := f.noJokerSeen(t)
			u.Log[i] += " Ann holds a joker."
			return u, nil
		}},
		{"jokers in capitals in a name", func(t *testing.T, f *scanFixture) (table.Update, []byte) {
			u, _ := f.noJokerSeen(t)
			u.Seats[0].Name = "two JOKERS"
			return u, nil
		}},
	})
}

// noJokerSeen is firstDeal's update, checked clean, at a moment the
// spectator has seen no joker: naming one is then a leak.
func (f *scanFixture) noJokerSeen(t *testing.T) (table.Update, int) {
	u, i, _ := f.firstDeal(t)
	f.clean(t, u)
	if f.know.At[u.View.EventCount].Ever(-1).Has(card.Joker) {
		t.Fatal("the spectator has seen a joker by the first deal")
	}
	return u, i
}
