package solver

import (
	"context"
	"errors"
	"math"
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

// TestFitValueTiny fits a rule the features carry (won when few cards are
// face down, with every tenth label flipped) and checks that the fit finds
// it, the same every time.
func TestFitValueTiny(t *testing.T) {
	var s []ValueSample
	for i := range 200 {
		var x ValueSample
		x.X[0], x.X[1], x.X[5] = 1, float64(i%20)/20, float64(i%7)/7
		x.Won = i%20 < 8 != (i%10 == 0)
		s = append(s, x)
	}
	f, err := FitValue(s, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := FitValue(s, 0.01)
	if f.m != g.m {
		t.Fatal("two fits of the same samples differ")
	}
	if _, acc := f.Score(s); acc < 0.85 {
		t.Fatalf("accuracy %.3f, want at least 0.85", acc)
	}
	if f.m.w[1] >= 0 {
		t.Fatalf("weight of the cards face down %g, want negative", f.m.w[1])
	}
	if _, err := FitValue(nil, 1); err == nil {
		t.Fatal("a fit of no samples succeeded")
	}
}

// TestLongValueData labels the positions along the solver's line of a
// 1-suit deal and their siblings, and checks that a model fitted to them
// predicts them better than their base rate does.
func TestLongValueData(t *testing.T) {
	if testing.Short() {
		t.Skip(longSkip)
	}
	t.Parallel()
	s, err := ValueData(context.Background(), 2, spider.Options{Suits: 1}, 300, 200_000, FairOptions{})
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
	r := float64(won) / float64(len(s))
	base := -r*math.Log(r) - (1-r)*math.Log(1-r)
	if ll, _ := f.Score(s); ll >= base {
		t.Fatalf("log-loss %.3f, no better than the base rate's %.3f (%d positions)", ll, base, len(s))
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

// Whatever a weights file holds is read or refused without a panic, and
// a model read writes back as text that reads the same.
func FuzzParseModels(f *testing.F) {
	f.Add(valueText)
	f.Add("suits 4\nbias 1\n")
	f.Add("suits 2 # c\n")
	f.Fuzz(func(t *testing.T, text string) {
		ms, err := parseModels(text)
		if err != nil {
			return
		}
		for s, m := range ms {
			var b strings.Builder
			formatModel(&b, s, m)
			back, err := parseModels(b.String())
			if err != nil || back[s] == nil || back[s].w != m.w {
				t.Fatalf("%d suits: %v read back as %v (%v)", s, m.w, back[s], err)
			}
		}
	})
}
