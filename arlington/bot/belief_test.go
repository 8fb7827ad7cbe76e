package bot

import (
	"context"
	"fmt"
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

// lostTrick finds, in games of random bots with players seats, a view in
// which the only evidence is one opponent playing to a trick without
// taking it, and returns the view and that evidence.
func lostTrick(tb testing.TB, players int) (arlington.View, evidence) {
	tb.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		s, err := arlington.New(arlington.Config{Players: players}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		rb := NewRandom(seed)
		for !s.Terminal() {
			v := s.View(s.ToMove())
			if ev := newBelief(v).ev; len(ev) == 1 && ev[0].kind == evDuck && v.HandSizes[ev[0].seat] >= 4 {
				return v, ev[0]
			}
			a, err := rb.Act(context.Background(), v)
			if err != nil {
				tb.Fatal(err)
			}
			if err := s.Apply(v.Seat, a); err != nil {
				tb.Fatal(err)
			}
		}
	}
	tb.Fatalf("no lone let-through trick in 200 random games of %d", players)
	return arlington.View{}, evidence{}
}

// A trick let through while holding a higher card of the suit is read
// with the weight fitted for the table size (expert lets one through
// about half the time with 2 players, a fifth with 4): the odds that the
// seat hides such a card shrink by that weight against the worlds
// without a belief.
func TestBeliefLetThroughTrick(t *testing.T) {
	for _, players := range []int{2, 4} {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			v, e := lostTrick(t, players)
			known, err := arlington.SetOf(v.Known[e.seat])
			if err != nil {
				t.Fatal(err)
			}
			higher := func(s *arlington.State) bool { return higherOfSuit(s.Hand(e.seat).Minus(known), e.best) }
			const draws = 2000
			var prior, believed int
			b := newBelief(v)
			ru, rb := arlington.NewRand(3), arlington.NewRand(4)
			for range draws {
				u, err := sample(v, ru)
				if err != nil {
					t.Fatal(err)
				}
				w, err := b.sample(rb)
				if err != nil {
					t.Fatal(err)
				}
				if higher(u) {
					prior++
				}
				if higher(w) {
					believed++
				}
			}
			odds := func(k int) float64 { return float64(k) / float64(draws-k) }
			if prior < draws/10 || prior > draws*9/10 {
				t.Fatalf("seat %d hides a card above %v in %d of %d worlds: too one-sided to compare", e.seat, e.best, prior, draws)
			}
			ratio, want := odds(believed)/odds(prior), weightsFor(players).duck
			t.Logf("%d players: above %v in %d worlds, %d believed of %d; odds ratio %.2f, weight %.2f", players, e.best, prior, believed, draws, ratio, want)
			if ratio < want*0.75 || ratio > want*1.33 {
				t.Fatalf("odds ratio %.2f, want about the weight %.2f", ratio, want)
			}
		})
	}
}
