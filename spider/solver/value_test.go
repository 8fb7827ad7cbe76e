package solver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"cardtable/spider"
)

func TestValueFeaturesSeeOnlyVisible(t *testing.T) {
	for _, suits := range []int{1, 4} {
		p, _ := spider.NewDeal(7, spider.Arachnid, spider.Rules{Suits: suits})
		q := permuteHidden(t, p, 3)
		if a, b := valueFeatures(p), valueFeatures(&q); a != b {
			t.Fatalf("%d suits: features %v with the real hidden cards, %v with others", suits, a, b)
		}
	}
}

func TestParseModels(t *testing.T) {
	if valueModels[4] == nil {
		t.Fatal("the embedded value.txt has no 4-suit model")
	}
	var good strings.Builder
	formatModel(&good, 2, &valueModel{w: valueVec{0: 0.5, 3: -2}})
	ms, err := parseModels("# a comment\n" + good.String())
	if err != nil || ms[2] == nil || ms[2].w[0] != 0.5 || ms[2].w[3] != -2 {
		t.Fatalf("round trip: %v, %v", ms, err)
	}
	drop := strings.Replace(good.String(), "moves 0\n", "", 1)
	for _, tt := range []struct{ name, text string }{
		{"a weight missing", drop},
		{"a weight twice", good.String() + "moves 1\n"},
		{"unknown feature", good.String() + "colour 1\n"},
		{"weight before suits", "bias 1\n"},
		{"bad number", strings.Replace(good.String(), "bias 0.5", "bias x", 1)},
		{"not finite", strings.Replace(good.String(), "bias 0.5", "bias NaN", 1)},
		{"bad suits", "suits 3\n"},
		{"three fields", "suits 4 4\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := parseModels(tt.text); !errors.Is(err, errValueFile) {
				t.Fatalf("error %v, want errValueFile", err)
			}
		})
	}
}

// TestFitValueTiny trains on the positions of one 1-suit deal, labelled
// with small budgets, and checks that the fit beats always guessing the
// commoner label on them and is the same every time.
func TestFitValueTiny(t *testing.T) {
	o := FairOptions{Samples: 2, Nodes: 2000, Rollouts: true}
	s, err := ValueData(context.Background(), 2, spider.Options{Suits: 1}, 3000, 200_000, o)
	if err != nil {
		t.Fatal(err)
	}
	won := 0
	for _, x := range s {
		if x.Won {
			won++
		}
	}
	if won == 0 || won == len(s) {
		t.Fatalf("%d of %d positions won: want both labels", won, len(s))
	}
	f, err := FitValue(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := FitValue(s, 1)
	if f.m != g.m {
		t.Fatal("two fits of the same samples differ")
	}
	base := float64(max(won, len(s)-won)) / float64(len(s))
	if _, acc := f.Score(s); acc <= base {
		t.Fatalf("accuracy %.3f, no better than the base rate %.3f (%d positions)", acc, base, len(s))
	}
}

// TestValuePlanIgnoresHiddenCards: the value mode's hint is the same
// whatever the hidden cards are, and twice the same.
func TestValuePlanIgnoresHiddenCards(t *testing.T) {
	o := FairOptions{Samples: 3, Nodes: 2000, Value: true, ValueAhead: 2}
	p, _ := spider.NewDeal(5, spider.Arachnid, spider.Rules{Suits: 4})
	a := sameHint(t, p, permuteHidden(t, p, 5), o)
	if b := sameHint(t, p, *p, o); a != b {
		t.Fatalf("hints %s and %s for the same position", a, b)
	}
	if err := p.CheckMove(a); err != nil {
		t.Fatalf("hint %s is illegal: %v", a, err)
	}
}
