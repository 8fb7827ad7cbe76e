package bot

import (
	"context"
	"testing"

	"cardtable/arlington"
)

// passedOnBigSet finds, in greedy games, a view in which an opponent of
// the seat to move passed on a set worth 4 or more this hand while the
// S2 was nowhere the seat could see: the evidence that opponent holds no
// S2. It returns the view and the opponent.
func passedOnBigSet(tb testing.TB) (arlington.View, int) {
	tb.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		s, err := arlington.New(arlington.Config{Players: 4}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		g := NewGreedy(seed)
		for !s.Terminal() {
			v := s.View(s.ToMove())
			for _, e := range newBelief(v).ev {
				if e.kind == evPass && e.pts >= 4 && s2Unseen(v) && v.HandSizes[e.seat] >= 3 {
					return v, e.seat
				}
			}
			a, err := g.Act(context.Background(), v)
			if err != nil {
				tb.Fatal(err)
			}
			if err := s.Apply(v.Seat, a); err != nil {
				tb.Fatal(err)
			}
		}
	}
	tb.Fatal("no pass on a set worth 4 with the S2 unseen in 200 greedy games")
	return arlington.View{}, 0
}

// The belief reads a pass on a valuable set as a sign the passer holds no
// S2: its worlds give that seat the S2 far less often than uniform worlds
// do, and every world it deals agrees with the view.
func TestBeliefPassMeansNoS2(t *testing.T) {
	v, opp := passedOnBigSet(t)
	b := newBelief(v)
	const draws = 600
	uniform, believed := 0, 0
	ru, rb := arlington.NewRand(1), arlington.NewRand(1)
	for range draws {
		u, err := arlington.Sample(v, ru)
		if err != nil {
			t.Fatal(err)
		}
		if u.Hand(opp).Has(arlington.S2) {
			uniform++
		}
		w, err := b.sample(rb)
		if err != nil {
			t.Fatal(err)
		}
		if err := arlington.SameKnowledge(v, worldView(w, v)); err != nil {
			t.Fatal(err)
		}
		if w.Hand(opp).Has(arlington.S2) {
			believed++
		}
	}
	t.Logf("seat %d holds the S2 in %d uniform worlds, %d believed, of %d", opp, uniform, believed, draws)
	if uniform < draws/20 {
		t.Fatalf("uniform worlds give seat %d the S2 only %d times in %d: nothing to compare", opp, uniform, draws)
	}
	if 2*believed > uniform {
		t.Fatalf("believed worlds give seat %d the S2 %d times, uniform %d: want at most half", opp, believed, uniform)
	}
}

// With no evidence (the first decision of a hand) the belief adds
// nothing: master deals the searches' worlds (sample) as they come.
func TestBeliefWithoutEvidence(t *testing.T) {
	s, _ := arlington.New(arlington.Config{Players: 4}, 5)
	v := s.View(s.ToMove())
	if ev := newBelief(v).ev; len(ev) != 0 {
		t.Fatalf("evidence before anyone acted: %+v", ev)
	}
}
