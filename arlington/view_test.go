package arlington

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// A view survives JSON (as the web server will send it) with the same
// legal actions, and holds cards as notation strings.
func TestViewJSONRoundTrip(t *testing.T) {
	checked := 0
	randomGame(t, 4, 31, func(s *State, _ int, _ Action) {
		if s.Terminal() || len(s.History())%7 != 0 {
			return
		}
		v := s.View(s.ToMove())
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back View
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if !reflect.DeepEqual(v, back) {
			t.Fatalf("view changed through JSON:\n%+v\n%+v", v, back)
		}
		if !reflect.DeepEqual(v.Legal(), back.Legal()) {
			t.Fatal("legal actions changed through JSON")
		}
		if !strings.Contains(string(b), `"hand":["`) {
			t.Fatalf("hand not in notation: %s", b)
		}
		checked++
	})
	if checked < 10 {
		t.Fatalf("only %d views checked", checked)
	}
}

func TestSpectatorView(t *testing.T) {
	s, _ := New(Config{Players: 3}, 8)
	for _, seat := range []int{-1, 3, 99} {
		v := s.View(seat)
		if v.Seat != -1 || len(v.Hand) != 0 || v.Legal() != nil {
			t.Fatalf("seat %d: %+v", seat, v)
		}
		if len(v.HandSizes) != 3 || v.HandSizes[0] != 8 {
			t.Fatalf("spectator sees hand sizes %v", v.HandSizes)
		}
	}
	if s.Hand(5) != 0 || s.Table(-1) != nil || s.Legal(7) != nil {
		t.Fatal("out-of-range seats should give nothing")
	}
	if err := s.Apply(9, Action{Kind: Pass}); !errors.Is(err, ErrIllegal) {
		t.Fatalf("seat 9: %v", err)
	}
	if err := s.Apply(s.ToMove(), Action{Kind: PlaySet, Set: Set(1) << 60, Spectrum: Aces}); !errors.Is(err, ErrIllegal) {
		t.Fatalf("garbage set: %v", err)
	}
}

// Clone is independent of its original.
func TestCloneIndependent(t *testing.T) {
	n := 0
	randomGame(t, 3, 44, func(s *State, _ int, _ Action) {
		if s.Terminal() || len(s.History())%11 != 0 {
			return
		}
		before := s.Record().String()
		snapshot := s.Clone()
		c := s.Clone()
		for range 5 {
			if c.Terminal() {
				break
			}
			if err := c.Apply(c.ToMove(), c.Legal(c.ToMove())[0]); err != nil {
				t.Fatal(err)
			}
		}
		if s.Record().String() != before || !sameState(s, snapshot) {
			t.Fatal("playing on a clone changed the original")
		}
		for i := range s.Players() {
			if len(c.Table(i)) > 0 && len(s.tables[i]) > 0 && &c.tables[i][0] == &s.tables[i][0] {
				t.Fatal("clone shares a table")
			}
		}
		n++
	})
	if n == 0 {
		t.Fatal("no clones made")
	}
}

// Actions with stray fields are recorded in their canonical form.
func TestCanonicalActions(t *testing.T) {
	s, _ := New(Config{Players: 2}, 2)
	seat := s.ToMove()
	c := s.Hand(seat).Cards()[0]
	if err := s.Apply(seat, Action{Kind: LeadCard, Card: c, Seat: 1, Index: 4, Spectrum: Runs}); err != nil {
		t.Fatal(err)
	}
	if got := s.History()[0].Action; got != (Action{Kind: LeadCard, Card: c}) {
		t.Fatalf("recorded %#v", got)
	}
}
