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

// loneEvidence finds, in games of random bots with players seats, a
// view whose only evidence is one opponent decision that ok accepts,
// and returns the view and that evidence.
func loneEvidence(tb testing.TB, players int, ok func(arlington.View, evidence) bool) (arlington.View, evidence) {
	tb.Helper()
	for seed := uint64(1); seed < 400; seed++ {
		s, err := arlington.New(arlington.Config{Players: players}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		rb := NewRandom(seed)
		for !s.Terminal() {
			v := s.View(s.ToMove())
			if ev := newBelief(v).ev; len(ev) == 1 && v.HandSizes[ev[0].seat] >= 4 && ok(v, ev[0]) {
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
	tb.Fatalf("no view with the evidence wanted in 400 random games of %d", players)
	return arlington.View{}, evidence{}
}

// oddsRatio is how the odds of in shrink from the searches' worlds
// (sample) to the belief's, over draws worlds each; it fails if the
// searches' worlds are too one-sided to compare.
func oddsRatio(tb testing.TB, v arlington.View, in func(*arlington.State) bool) float64 {
	tb.Helper()
	const draws = 2000
	var prior, believed int
	b := newBelief(v)
	ru, rb := arlington.NewRand(3), arlington.NewRand(4)
	for range draws {
		u, err := sample(v, ru)
		if err != nil {
			tb.Fatal(err)
		}
		w, err := b.sample(rb)
		if err != nil {
			tb.Fatal(err)
		}
		if in(u) {
			prior++
		}
		if in(w) {
			believed++
		}
	}
	if prior < draws/20 || prior > draws*19/20 {
		tb.Fatalf("%d of %d worlds: too one-sided to compare", prior, draws)
	}
	odds := func(k int) float64 { return float64(k) / float64(draws-k) }
	tb.Logf("%d of %d worlds, %d believed", prior, draws, believed)
	return odds(believed) / odds(prior)
}

// oddsCase is a table size and the odds ratio wanted there.
type oddsCase struct {
	players int
	lo, hi  float64
}

// checkOdds finds, for each case, a view whose one piece of evidence
// find accepts, and checks that the belief shrinks the odds of what of
// the evidence's seat says by a ratio in the case's range.
func checkOdds(t *testing.T, cases []oddsCase, find func(arlington.View, evidence) bool, what func(testing.TB, arlington.View, evidence) func(*arlington.State) bool) {
	for _, c := range cases {
		t.Run(fmt.Sprintf("players=%d", c.players), func(t *testing.T) {
			v, e := loneEvidence(t, c.players, find)
			ratio := oddsRatio(t, v, what(t, v, e))
			if ratio < c.lo || ratio > c.hi {
				t.Fatalf("evidence %+v: odds ratio %.2f, want %.2f to %.2f", e, ratio, c.lo, c.hi)
			}
		})
	}
}

// A trick let through while holding a higher card of the suit is read
// as expert was counted to play: with 4 players (where it takes four
// such tricks in five) as strong evidence, with 2 (where it lets about
// half go) as milder. The odds that the seat hides such a card shrink by
// the table's weight against the worlds without a belief.
func TestBeliefLetThroughTrick(t *testing.T) {
	checkOdds(t, []oddsCase{{2, 0.35, 0.7}, {4, 0.12, 0.3}},
		func(_ arlington.View, e evidence) bool { return e.kind == evDuck },
		func(tb testing.TB, v arlington.View, e evidence) func(*arlington.State) bool {
			known, err := arlington.SetOf(v.Known[e.seat])
			if err != nil {
				tb.Fatal(err)
			}
			return func(s *arlington.State) bool { return higherOfSuit(s.Hand(e.seat).Minus(known), e.best) }
		})
}

// A pass on a 2-point set is read as expert was counted to play: with 2
// players (where it kills such a set two times in three with the S2) as
// evidence against the S2, with 4 (where it leaves it to the others
// seven times in eight) as next to none.
func TestBeliefPassOnACheapSet(t *testing.T) {
	checkOdds(t, []oddsCase{{2, 0.2, 0.5}, {4, 0.75, 1.1}},
		func(v arlington.View, e evidence) bool { return e.kind == evPass && e.pts == 2 && s2Unseen(v) },
		func(_ testing.TB, _ arlington.View, e evidence) func(*arlington.State) bool {
			return func(s *arlington.State) bool { return s.Hand(e.seat).Has(arlington.S2) }
		})
}
