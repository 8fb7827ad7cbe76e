package arlweb

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
)

// leadBesideSet is a two-seat table of people, "Ann" (the client ann) and
// other (named otherName), played from the server's side until Ann has
// the lead and holds a card c that the rules let her add to a set on the
// other's table, put into one in place of a joker, or (the S2) play on
// one: the position in which the preview names the other's set. With
// alone, c is a set alone (an ace, the 2♥, a joker), else it is no set
// alone. Seats lead a set whenever they can (so sets lie on the tables),
// and otherwise take a random legal action. With needSet, Ann must also
// hold a set she can lead, returned as set.
func leadBesideSet(t *testing.T, e *env, otherName string, needSet, alone bool) (tb *table.Table, ann, other *client, c card.Card, set arlington.Set) {
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
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		av := ownView(t, tb, ann, e)
		if av.Phase == arlington.PhaseOver {
			break
		}
		mover := ann
		if av.ToMove != av.Seat {
			mover = other
		} else if av.Phase == arlington.PhaseLead {
			c, set = card.None, 0
			for _, a := range av.Legal() {
				switch {
				case a.Kind == arlington.PlaySet:
					set = a.Set
				case a.Seat != 1-av.Seat:
				case a.Kind == arlington.PlayS2 && !alone:
					c = arlington.S2
				case (a.Kind == arlington.AddCard || a.Kind == arlington.PickUp) && legalAlone(a.Card) == alone:
					c = a.Card
				}
			}
			if c != card.None && (set != 0 || !needSet) {
				return tb, ann, other, c, set
			}
		}
		v := ownView(t, tb, mover, e)
		legal := v.Legal()
		if len(legal) == 0 {
			t.Fatalf("seat %d to move with no legal action: %+v", v.Seat, v)
		}
		a := legal[rng.IntN(len(legal))]
		if v.Phase == arlington.PhaseLead {
			for _, l := range legal {
				if l.Kind == arlington.PlaySet {
					a = l
					break
				}
			}
		}
		if err := tb.Act(context.Background(), playerOf(t, mover, e), v.Seat, a); err != nil {
			t.Fatalf("seat %d: %v: %v", v.Seat, a, err)
		}
	}
	t.Fatal("Ann never had the lead with a card for a set on the other's table")
	panic("unreachable")
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
	e := newEnv(t, Limits{})
	tb, ann, _, c, _ := leadBesideSet(t, e, "Bob", false, alone)
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
