package arlweb

import (
	"slices"
	"testing"

	"cardtable/arlington"
)

// checkLegalPoints: each legal action in view message m comes with what it
// does to every seat's points on the tables, as the rules package scores
// it (arlington.PointsChange on the view the receiver got); a card led or
// played scores nothing, a set led scores its points for the player. The
// page shows these on the buttons and scores nothing itself.
// (TestWSLogInWords calls it on every turn it plays.)
func checkLegalPoints(t *testing.T, m pageMsg) {
	t.Helper()
	if len(m.LegalPoints) != len(m.Legal) {
		t.Fatalf("%d legal actions with %d points", len(m.Legal), len(m.LegalPoints))
	}
	for i, s := range m.Legal {
		a, err := arlington.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		got := m.LegalPoints[i]
		if want := arlington.PointsChange(*m.View, a); !slices.Equal(got, want) || len(got) != m.View.Players {
			t.Errorf("%s: points %v, the rules say %v", s, got, want)
		}
		switch a.Kind {
		case arlington.LeadCard, arlington.PlayCard, arlington.Pass:
			if slices.ContainsFunc(got, func(x int) bool { return x != 0 }) {
				t.Errorf("%s: points %v, want none", s, got)
			}
		case arlington.PlaySet:
			if m.View.Phase == arlington.PhaseLead && got[m.Seat] != arlington.Points(a.Set) {
				t.Errorf("%s: %d points for the player, the set is worth %d", s, got[m.Seat], arlington.Points(a.Set))
			}
		}
	}
}
