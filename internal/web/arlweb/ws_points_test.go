package arlweb

import (
	"slices"
	"testing"

	"cardtable/arlington"
)

// TestWSLegalPoints: each legal action in a view message comes with what
// it does to every seat's points on the tables, as the rules package
// scores it: a card led scores nothing, a set led scores its points for
// the player. The page shows these on the buttons and scores nothing
// itself.
func TestWSLegalPoints(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b := e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	b.join(id, "Bob")
	wa, wb := a.pageDial(id, -1), b.pageDial(id, -1)
	va, vb := wa.view(), wb.view()
	cur := va
	if vb.View.ToMove == vb.Seat {
		cur = vb
	}
	if len(cur.Legal) == 0 || len(cur.LegalPoints) != len(cur.Legal) {
		t.Fatalf("%d legal actions with %d points", len(cur.Legal), len(cur.LegalPoints))
	}
	sets := 0
	for i, s := range cur.Legal {
		act, err := arlington.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		got := cur.LegalPoints[i]
		if len(got) != cur.View.Players {
			t.Fatalf("%s: points %v for %d seats", s, got, cur.View.Players)
		}
		want := make([]int, cur.View.Players)
		switch act.Kind {
		case arlington.PlaySet:
			want[cur.Seat] = arlington.Points(act.Set)
			sets++
		case arlington.LeadCard:
		default:
			t.Fatalf("a first lead offers %s", s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: points %v, want %v", s, got, want)
		}
	}
	if sets == 0 {
		t.Logf("the first hand offers no set to lead; only cards were checked")
	}
}
