package solver

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"cardtable/card"
	"cardtable/spider"
)

// The learned value: the chance that a position is won by the
// full-information solver within a node budget, estimated by logistic
// regression on features of what a player sees (valueFeatures). It is
// trained on positions of deals the player is never measured on, each
// labelled by a solve that knows the hidden cards (value_data.go); the
// fair player's value mode (valuePlan) ranks its candidate lines with it.
// docs/solver.md ("The learned value") has the design and the figures.

// valueNames names the features, in order; value.txt gives a weight to
// each by name, so that the file says what it holds.
var valueNames = [...]string{
	"bias", "faceDown", "downPiles", "spaces", "removed", "stock",
	"breakSuit", "breakRank", "complete", "cleanPiles", "topRuns",
	"kingOnDown", "upOnDown", "oneDown", "minDown", "downXstock",
	"breaksXstock", "moves", "spacesXstock",
}

// nValue is the number of features.
const nValue = len(valueNames)

// valueVec is a position's features.
type valueVec [nValue]float64

// valueFeatures describes p by what a player sees: counts of cards face
// down, spaces, suits removed, the stock, and how the face-up cards lie.
// It reads no card face down (TestValueFeaturesSeeOnlyVisible). Each
// feature is scaled to about 0..1.
func valueFeatures(p *spider.Position) valueVec {
	var f valueVec
	var down, downPiles, spaces, breakSuit, breakRank, clean, topRuns, kingOnDown, upOnDown, oneDown int
	minDown := 0
	for k := range spider.Piles {
		n, d := p.Len(k), p.Down(k)
		if n == 0 {
			spaces++
			continue
		}
		down += d
		if d > 0 {
			downPiles++
			upOnDown += n - d
			if d == 1 {
				oneDown++
			}
			if minDown == 0 || d < minDown {
				minDown = d
			}
			if p.Card(k, d).Rank() == card.King {
				kingOnDown++
			}
		}
		prev, cleanPile := p.Card(k, d), true
		for j := d + 1; j < n; j++ {
			c := p.Card(k, j)
			switch {
			case c+1 == prev:
			case c.Rank()+1 == prev.Rank():
				breakRank++
				cleanPile = false
			default:
				breakSuit++
				cleanPile = false
			}
			prev = c
		}
		if cleanPile {
			clean++
		}
		topRuns += p.Run(k)
	}
	stock := float64(p.StockLen()) / 50
	var buf [256]spider.Move
	moves := 0
	for _, m := range p.Legal(buf[:0]) {
		if m.Kind == spider.MoveCards && !p.Null(m) {
			moves++
		}
	}
	f[0] = 1
	f[1] = float64(down) / 44
	f[2] = float64(downPiles) / 10
	f[3] = float64(spaces) / 4
	f[4] = float64(p.NumRemoved()) / 8
	f[5] = stock
	f[6] = float64(breakSuit) / 20
	f[7] = float64(breakRank) / 20
	f[8] = float64(p.CompleteRuns()) / 8
	f[9] = float64(clean) / 10
	f[10] = float64(topRuns) / 50
	f[11] = float64(kingOnDown) / 8
	f[12] = float64(upOnDown) / 50
	f[13] = float64(oneDown) / 10
	f[14] = float64(minDown) / 6
	f[15] = f[1] * stock
	f[16] = f[6] * stock
	f[17] = float64(moves) / 30
	f[18] = f[3] * stock
	return f
}

// valueModel is a logistic regression on valueFeatures.
type valueModel struct {
	w valueVec
}

// prob is the model's chance that x's position is won.
func (m *valueModel) prob(x *valueVec) float64 {
	z := 0.0
	for i := range x {
		z += m.w[i] * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// value is the model's value of p: 1 for a won position.
func (m *valueModel) value(p *spider.Position) float64 {
	if p.Won() {
		return 1
	}
	x := valueFeatures(p)
	return m.prob(&x)
}

//go:embed value.txt
var valueText string

// valueModels are the embedded models by suit count (value.txt); a suit
// count without one has no value mode.
var valueModels = mustModels(valueText)

// HasValueModel reports whether a learned value is embedded for games of
// suits suits (the value mode needs one).
func HasValueModel(suits int) bool { return valueModels[suits] != nil }

// errValueFile is a malformed value file.
var errValueFile = errors.New("solver: bad value file")

func mustModels(text string) map[int]*valueModel {
	ms, err := parseModels(text)
	if err != nil {
		panic(err)
	}
	return ms
}

// parseModels reads value.txt's format: a "suits N" line starts a model,
// then "NAME WEIGHT" for every feature; '#' starts a comment.
func parseModels(text string) (map[int]*valueModel, error) {
	out := map[int]*valueModel{}
	var cur *valueModel
	var seen map[string]bool
	finish := func() error {
		if cur != nil && len(seen) != nValue {
			return fmt.Errorf("%w: a model has %d of %d weights", errValueFile, len(seen), nValue)
		}
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	for ln := 1; sc.Scan(); ln++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 2 {
			return nil, fmt.Errorf("%w: line %d: want two fields", errValueFile, ln)
		}
		if fs[0] == "suits" {
			if err := finish(); err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(fs[1])
			if err != nil || card.CheckSuits(n) != nil || out[n] != nil {
				return nil, fmt.Errorf("%w: line %d: bad or repeated suit count %q", errValueFile, ln, fs[1])
			}
			cur, seen = &valueModel{}, map[string]bool{}
			out[n] = cur
			continue
		}
		i := featureIndex(fs[0])
		v, err := strconv.ParseFloat(fs[1], 64)
		if cur == nil || i < 0 || seen[fs[0]] || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: line %d: bad weight %q", errValueFile, ln, line)
		}
		seen[fs[0]] = true
		cur.w[i] = v
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out, nil
}

func featureIndex(name string) int {
	for i, n := range valueNames {
		if n == name {
			return i
		}
	}
	return -1
}

// formatModel writes m for suits in value.txt's format.
func formatModel(b *strings.Builder, suits int, m *valueModel) {
	fmt.Fprintf(b, "suits %d\n", suits)
	for i, n := range valueNames {
		fmt.Fprintf(b, "%s %.6g\n", n, m.w[i])
	}
}
