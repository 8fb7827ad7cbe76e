package rating

import (
	"errors"
	"math"
	"testing"
)

// noTau is the model of the OpenSkill libraries' published examples:
// their default constants, no tau.
func noTau() Model {
	m := Default()
	m.Tau = 0
	return m
}

func solo(rs ...Rating) [][]Rating {
	out := make([][]Rating, len(rs))
	for i, r := range rs {
		out[i] = []Rating{r}
	}
	return out
}

func near(tb testing.TB, got, want [][]Rating) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("got %d teams, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			tb.Fatalf("team %d: got %d players, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			g, w := got[i][j], want[i][j]
			if math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
				tb.Errorf("team %d player %d: got %+v, want %+v", i, j, g, w)
			}
		}
	}
}

// The published examples of the OpenSkill libraries (openskill.js and its
// ports, Plackett-Luce model).
func TestRatePublished(t *testing.T) {
	d := Rating{25, 25.0 / 3}
	cases := []struct {
		name  string
		m     Model
		teams [][]Rating
		ranks []int
		want  [][]Rating
	}{
		{"two new players", noTau(), solo(d, d), []int{1, 2},
			solo(Rating{27.63523138347365, 8.065506316323548}, Rating{22.36476861652635, 8.065506316323548})},
		{"two new players, second wins", noTau(), solo(d, d), []int{2, 1},
			solo(Rating{22.36476861652635, 8.065506316323548}, Rating{27.63523138347365, 8.065506316323548})},
		{"four players", noTau(),
			solo(Rating{29.182, 4.782}, Rating{27.174, 4.922}, Rating{16.672, 6.217}, d), []int{1, 2, 3, 4},
			solo(Rating{30.209971908310553, 4.764898977359521}, Rating{27.64460833689499, 4.882789305097372},
				Rating{17.403586731283518, 6.100723440599442}, Rating{19.214790707434826, 7.8542613981643985})},
		{"four new players, places out of order", noTau(), solo(d, d, d, d), []int{2, 1, 4, 3},
			solo(Rating{26.552824984374855, 8.179213704945203}, Rating{27.795084971874736, 8.263160757613477},
				Rating{20.96265504062538, 8.083731307186588}, Rating{24.68943500312503, 8.083731307186588})},
		{"a tie for second", noTau(), solo(Rating{10, 8}, Rating{5, 10}, Rating{0, 12}), []int{1, 2, 2},
			solo(Rating{11.942833056030613, 7.926463661123746}, Rating{2.938193791485662, 9.65347573412201},
				Rating{-1.4023734358082325, 11.323360667700934})},
		{"a four-way tie", noTau(), solo(d, d, d, d), []int{1, 1, 1, 1},
			solo(Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477}, Rating{25, 8.263160757613477})},
		{"tau", Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 0.3},
			solo(Rating{25, 3}, Rating{25, 3}), []int{1, 2},
			solo(Rating{25.624880438870754, 2.9879993738476953}, Rating{24.375119561129246, 2.9879993738476953})},
		{"teams of two", noTau(),
			[][]Rating{{d, {32.444, 5.123}}, {{43.381, 2.421}, {25.188, 6.211}}}, []int{1, 2},
			[][]Rating{{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
				{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}}}},
		{"one player alone", noTau(), solo(d), []int{1}, solo(d)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.m.Rate(c.teams, c.ranks)
			if err != nil {
				t.Fatal(err)
			}
			near(t, got, c.want)
		})
	}
}

// The winner's rating rises and the loser's falls, and both grow surer,
// under the server's model (with tau) too.
func TestRateDirection(t *testing.T) {
	m := Default()
	got, err := m.Rate(solo(m.New(), m.New(), m.New()), []int{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !(got[1][0].Mu > got[2][0].Mu && got[2][0].Mu > got[0][0].Mu) {
		t.Errorf("means not in the order of the places: %+v", got)
	}
	for i, r := range got {
		if r[0].Sigma >= m.Sigma {
			t.Errorf("player %d: sigma %v did not shrink from %v", i, r[0].Sigma, m.Sigma)
		}
	}
}

// Ranks that are not one per team are an error, not a game rated as
// though nobody won.
func TestRateRanksLength(t *testing.T) {
	m := Default()
	for _, ranks := range [][]int{nil, {1}, {1, 2, 3, 4}} {
		got, err := m.Rate(solo(m.New(), m.New(), m.New()), ranks)
		if !errors.Is(err, ErrRanks) || got != nil {
			t.Errorf("ranks %v: %v, %v; want ErrRanks", ranks, got, err)
		}
	}
	if _, err := m.Rate(solo(m.New()), []int{1}); err != nil {
		t.Errorf("one player alone: %v", err)
	}
}

func TestRanks(t *testing.T) {
	cases := []struct {
		scores, want []int
	}{
		{[]int{32, 10}, []int{1, 2}},
		{[]int{5, 40, 33, 40}, []int{4, 1, 3, 1}},
		{[]int{7, 7, 7}, []int{1, 1, 1}},
	}
	for _, c := range cases {
		got := Ranks(c.scores)
		for i := range c.want {
			if got[i] != c.want[i] {
				t.Errorf("Ranks(%v) = %v, want %v", c.scores, got, c.want)
				break
			}
		}
	}
}

func TestShown(t *testing.T) {
	m := Default()
	cases := []struct {
		r    Rating
		want int
	}{
		{m.New(), 1000},
		{Rating{30, 2}, 1480},
		{Rating{-60, 8}, 0},
		{Rating{math.NaN(), 1}, 0},
	}
	for _, c := range cases {
		if got := Shown(c.r); got != c.want {
			t.Errorf("Shown(%+v) = %d, want %d", c.r, got, c.want)
		}
	}
}

// BenchmarkRate is one six-player game's update.
func BenchmarkRate(b *testing.B) {
	m := Default()
	teams := solo(m.New(), Bot("expert"), Bot("hard"), m.New(), Bot("random"), Rating{30, 3})
	ranks := []int{2, 1, 3, 3, 6, 5}
	for b.Loop() {
		if _, err := m.Rate(teams, ranks); err != nil {
			b.Fatal(err)
		}
	}
}
