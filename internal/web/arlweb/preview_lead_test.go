package arlweb

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// besideSet is a deal of a two-seat game (seed) and the moves from it
// (seat by seat) after which seat 0, Ann, has the lead and holds the card
// c whose move onto a set on seat 1's table the preview must name: c can
// be added to that set, be put into it in place of a joker, or (the S2)
// be played on it, and the words name every set of that move (three at
// most; the S2 on exactly one set, since on several they say "any set on
// the tables"). set is a set Ann can lead then, when asked for.
type besideSet struct {
	seed  uint64
	seats []int
	moves []arlington.Action
	c     card.Card
	set   arlington.Set
}

// findBesideSet finds a besideSet in the engine alone, which is quick:
// the first deal (by seed) in which the seats, leading a set whenever they
// can and otherwise taking a random legal action, bring Ann such a card
// within 120 moves. With alone, c is a set alone (an ace, the 2♥, a
// joker), else it is no set alone; with needSet, Ann also holds a set to
// lead.
func findBesideSet(tb testing.TB, needSet, alone bool) besideSet {
	tb.Helper()
	for seed := uint64(1); seed < 2000; seed++ {
		s, err := arlington.New(arlington.Config{Players: 2, Target: table.MaxTarget}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		d := besideSet{seed: seed}
		rng := rand.New(rand.NewPCG(seed, 2))
		for range 120 {
			seat := s.ToMove()
			if s.Terminal() {
				break
			}
			legal := s.Legal(seat)
			if seat == 0 && s.Phase() == arlington.PhaseLead {
				d.c, d.set = namedOnOther(legal, 1, alone)
				if d.c != card.None && (d.set != 0 || !needSet) {
					return d
				}
			}
			a := legal[rng.IntN(len(legal))]
			if s.Phase() == arlington.PhaseLead {
				if i := slices.IndexFunc(legal, func(a arlington.Action) bool { return a.Kind == arlington.PlaySet }); i >= 0 {
					a = legal[i]
				}
			}
			if err := s.Apply(seat, a); err != nil {
				tb.Fatalf("seed %d, seat %d: %v: %v", seed, seat, a, err)
			}
			d.seats, d.moves = append(d.seats, seat), append(d.moves, a)
		}
	}
	tb.Fatalf("no deal below seed 2000 brings Ann the lead with a card the words must name a set on the other's table for (set alone %v, a set to lead %v)", alone, needSet)
	panic("unreachable")
}

// namedOnOther is, among the lead actions legal, the first card (a set
// alone or not, as alone asks) that has a move onto a set of seat
// other's table and whose words name every set of that move (tableWords:
// three a move, the rest counted; the S2 named on one set only), or
// card.None; and the last set legal offers to lead (0 when none).
func namedOnOther(legal []arlington.Action, other int, alone bool) (card.Card, arlington.Set) {
	type move struct {
		c card.Card
		k arlington.Kind
	}
	var order []move
	seats := map[move][]int{}
	var set arlington.Set
	for _, a := range legal {
		m := move{a.Card, a.Kind}
		switch a.Kind {
		case arlington.PlaySet:
			set = a.Set
			continue
		case arlington.PlayS2:
			m.c = arlington.S2
		case arlington.AddCard, arlington.PickUp:
		default:
			continue
		}
		if _, seen := seats[m]; !seen {
			order = append(order, m)
		}
		seats[m] = append(seats[m], a.Seat)
	}
	for _, m := range order {
		on := seats[m]
		named := len(on) <= 3
		if m.k == arlington.PlayS2 {
			named = len(on) == 1
		}
		if named && legalAlone(m.c) == alone && slices.Contains(on, other) {
			return m.c, set
		}
	}
	return card.None, set
}

// leadBesideSet is a two-seat table of people, "Ann" (the client ann) and
// other (named otherName), in e (dealt from d.seed: newSeededEnvWeb),
// played from the server's side through d's moves, so that Ann has the
// lead and holds d.c: the position in which the preview names the
// other's set.
func leadBesideSet(t *testing.T, e *env, d besideSet, otherName string) (tb *table.Table, ann, other *client) {
	t.Helper()
	var got created
	cfg := table.Config{Players: 2, Bots: []string{"", ""}, Target: table.MaxTarget, TurnSeconds: -1}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann, other = e.client(), e.client()
	ann.join(got.ID, "Ann")
	other.join(got.ID, otherName)
	tb, err := e.hub.Table(got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := ownView(t, tb, ann, e).Seat; s != 0 {
		t.Fatalf("Ann sits at seat %d; the deal was found for seat 0", s)
	}
	players := []string{playerOf(t, ann, e), playerOf(t, other, e)}
	for i, a := range d.moves {
		if err := tb.Act(context.Background(), players[d.seats[i]], d.seats[i], a); err != nil {
			t.Fatalf("move %d, seat %d: %v: %v (the table did not deal seed %d as the engine does)", i, d.seats[i], a, err, d.seed)
		}
	}
	v := ownView(t, tb, ann, e)
	if c, _ := namedOnOther(v.Legal(), 1, legalAlone(d.c)); v.Phase != arlington.PhaseLead || v.ToMove != 0 || c != d.c {
		t.Fatalf("after the found moves Ann's view is %v, to move %d, with the card %s, not the lead with the %s", v.Phase, v.ToMove, c, d.c)
	}
	return tb, ann, other
}

// legalAlone: the card alone is a set (an ace, the 2♥, a joker), which
// the preview tells as a set besides what else it can do.
func legalAlone(c card.Card) bool {
	s, _ := arlington.Set(0).With(c)
	return arlington.Legal(s)
}

// TestPreviewAtTableNamesSeats: asked at a table in the lead, the preview
// names the sets on the tables by their seats' names: for Ann, with a
// card that fits a set on Bob's table, "Bob's set", never "seat 2's".
func TestPreviewAtTableNamesSeats(t *testing.T) { previewNamesSeats(t, false) }

// TestPreviewAtTableSetAloneNamesSeats: as TestPreviewAtTableNamesSeats,
// for a card that is a set alone (an ace, the 2♥, a joker), told as a
// set besides; its preview once named no set on the tables.
func TestPreviewAtTableSetAloneNamesSeats(t *testing.T) { previewNamesSeats(t, true) }

// previewNamesSeats asks Ann's preview of a card that fits a set on Bob's
// table, a set alone or not (leadBesideSet).
func previewNamesSeats(t *testing.T, alone bool) {
	d := findBesideSet(t, false, alone)
	e := newSeededEnvWeb(t, Limits{}, web.Options{}, d.seed)
	tb, ann, _ := leadBesideSet(t, e, d, "Bob")
	c := d.c
	body, _ := json.Marshal(map[string]any{"cards": []string{c.String()}})
	var got previewAnswer
	if code := ann.do("POST", "/api/arlington/tables/"+tb.Summary().ID+"/preview", string(body), &got); code != http.StatusOK {
		t.Fatalf("preview of the %s: %d", c, code)
	}
	t.Logf("the %s: %s", c, got.Say)
	if !strings.Contains(got.Say, "Bob's set ") || strings.Contains(got.Say, "seat 2's") {
		t.Errorf("preview of the %s, which fits a set on Bob's table: %q; want it to name Bob's set", c, got.Say)
	}
	if isSet := strings.Contains(got.Say, " alone is a set ("); isSet != alone || got.Legal != alone {
		t.Errorf("preview of the %s (a set alone: %v): legal %v, %q", c, alone, got.Legal, got.Say)
	}
}
