package arlington

import (
	"fmt"
	"slices"
	"testing"
)

// TestPointsChange: for every legal action of random games (2 to 6
// players), the change PointsChange tells is the change of the tables'
// points the engine shows once the action is played (within the hand:
// scoring clears the tables). Every kind of action that moves points is
// met.
func TestPointsChange(t *testing.T) {
	kinds := map[Kind]int{}
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			seed := uint64(players*77 + 1)
			s, err := New(Config{Players: players, Target: 12}, seed)
			if err != nil {
				t.Fatal(err)
			}
			r := NewRand(seed)
			for moves := 0; !s.Terminal() && moves < 3000; moves++ {
				seat := s.ToMove()
				v := s.View(seat)
				before := TablePoints(v)
				legal := s.Legal(seat)
				for _, a := range legal {
					c := s.Clone()
					if err := c.Apply(seat, a); err != nil {
						t.Fatalf("%v: %v", a, err)
					}
					if cv := c.View(seat); cv.HandNumber != v.HandNumber || len(cv.Results) != len(v.Results) {
						continue // the hand was scored: its tables are gone
					}
					after := TablePoints(c.View(seat))
					want := make([]int, players)
					for i := range want {
						want[i] = after[i] - before[i]
					}
					got := PointsChange(v, a)
					if !slices.Equal(got, want) {
						t.Fatalf("move %d, seat %d, %v: PointsChange %v, the engine's tables changed by %v", moves, seat, a, got, want)
					}
					if slices.ContainsFunc(got, func(x int) bool { return x != 0 }) {
						kinds[a.Kind]++
					}
				}
				if err := s.Apply(seat, legal[r.Intn(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	for _, k := range []Kind{PlaySet, AddCard, PlayS2} {
		if kinds[k] == 0 {
			t.Errorf("no %v changed the points: the games saw too little (%v)", k, kinds)
		}
	}
	if got := PointsChange(View{Seat: 0, Tables: [][]TableSet{{}}}, Action{Kind: PlayS2, Seat: 3, Index: 9}); !slices.Equal(got, []int{0}) {
		t.Errorf("an action on a set that is not there: %v, want no change", got)
	}
}

// BenchmarkPointsChange: the points of every legal action of one view,
// as the server adds them to each view message for the player to move
// (a position with sets on the tables and many actions).
func BenchmarkPointsChange(b *testing.B) {
	s, err := New(Config{Players: 4, Target: 32}, 7)
	if err != nil {
		b.Fatal(err)
	}
	r := NewRand(7)
	best, bestN := s.Clone(), 0
	for moves := 0; !s.Terminal() && moves < 400; moves++ {
		seat := s.ToMove()
		legal := s.Legal(seat)
		if len(legal) > bestN {
			best, bestN = s.Clone(), len(legal)
		}
		if err := s.Apply(seat, legal[r.Intn(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	v := best.View(best.ToMove())
	legal := v.Legal()
	b.ResetTimer()
	for range b.N {
		for _, a := range legal {
			PointsChange(v, a)
		}
	}
	b.ReportMetric(float64(len(legal)), "actions")
}
