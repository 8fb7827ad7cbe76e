package table_test

import (
	"context"
	"errors"
	"testing"

	"cardtable/internal/table"
)

// TestNameTaken: a person may not sit under another rated person's name
// or a bot level's, whatever the case; their own rated name is theirs.
// Someone already seated (or held a seat) under a name that another
// person was rated under since keeps it at that table.
func TestNameTaken(t *testing.T) {
	ctx := context.Background()
	h := newHub(t, openStore(t), newFakeClock())
	ratedAs := func(id, name string) {
		t.Helper()
		tb := mustCreate(t, h, id, table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, Rated: true})
		if _, err := tb.Join(ctx, table.Player{ID: id, Name: name}, 0); err != nil {
			t.Fatal(err)
		}
		playOut(t, tb, map[int]string{0: id})
		roundTrip(t, h, tb)
	}
	casual := mustCreate(t, h, "c", table.Config{Players: 4, Bots: []string{"", "", "", "random"}})
	join := func(id, name string) error {
		_, err := casual.Join(ctx, table.Player{ID: id, Name: name}, -1)
		return err
	}
	if err := join("c", "Cy"); err != nil {
		t.Fatal(err)
	}
	ratedAs("a", "Ann")
	ratedAs("d", "cy") // free: c sits under it, but is not rated
	for _, name := range []string{"Ann", "aNN", " ANN ", "Random", "EXPERT", "cY"} {
		if err := join("b", name); !errors.Is(err, table.ErrNameTaken) {
			t.Errorf("b sits as %q: %v, want ErrNameTaken", name, err)
		}
	}
	if err := join("c", "CY"); err != nil {
		t.Errorf("c, seated as Cy before d was rated as cy, sits again as CY: %v", err)
	}
	if err := join("a", "ann"); err != nil {
		t.Errorf("a sits under their own rated name: %v", err)
	}
	if err := join("b", "Annie"); err != nil {
		t.Errorf("b sits as Annie: %v", err)
	}
	if s := casual.Summary(); s.Seats[0].Name != "CY" || s.Seats[1].Name != "ann" || s.Seats[2].Name != "Annie" {
		t.Errorf("the seats: %+v", s.Seats)
	}
}
