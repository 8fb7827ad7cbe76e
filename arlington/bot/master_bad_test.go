package bot

import (
	"context"
	"testing"

	"cardtable/arlington"
)

// A view no game could give (a remote client's server may send anything)
// gets an error or an action from master, never a panic: a player count
// of zero, or a pass on a set by a seat the table does not have.
func TestMasterBadView(t *testing.T) {
	var v arlington.View
	for _, p := range positions(t, 2, 11, 9) {
		if len(p.Legal()) > 1 {
			v = p
			break
		}
	}
	if len(v.Legal()) < 2 {
		t.Fatal("no position with a choice")
	}
	passBy := func(seat int) func(v *arlington.View) {
		return func(v *arlington.View) {
			set, _ := arlington.SetOf(v.Hand[:1])
			v.Events = append(v.Events,
				arlington.Event{Hand: v.HandNumber, Kind: arlington.EventMove, Seat: 1 - v.Seat, Action: arlington.Action{Kind: arlington.PlaySet, Set: set}},
				arlington.Event{Hand: v.HandNumber, Kind: arlington.EventMove, Seat: seat, Action: arlington.Action{Kind: arlington.Pass}})
		}
	}
	cases := map[string]func(v *arlington.View){
		"no players":      func(v *arlington.View) { v.Players = 0 },
		"pass by seat 9":  passBy(9),
		"pass by seat -1": passBy(-1),
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			bad := v
			bad.Events = append([]arlington.Event(nil), v.Events...)
			mutate(&bad)
			a, err := smallMaster(1).Act(context.Background(), bad)
			if bad.Players == 0 && err == nil {
				t.Fatalf("a view of no players: %v, no error", a)
			}
			r := arlington.NewRand(1)
			for range 8 {
				_, _ = newBelief(bad).sample(r)
			}
		})
	}
}
