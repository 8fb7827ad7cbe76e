package rating

import (
	"math"
	"strings"
	"testing"
)

// Each bot level's starting rating predicts the measured match it comes
// from, and the levels are in their order of strength.
func TestBotStarts(t *testing.T) {
	m := Default()
	for _, x := range measured {
		t.Run(x.a+"-"+x.b, func(t *testing.T) {
			if got := m.winChance(Bot(x.a), Bot(x.b)); math.Abs(got-x.p) > 1e-9 {
				t.Errorf("%s beats %s %.4f of games in the model, measured %.4f", x.a, x.b, got, x.p)
			}
		})
	}
	order := []string{"random", "easy", "greedy", "medium", "hard", "expert", "master"}
	for i := 1; i < len(order); i++ {
		if Bot(order[i]).Mu <= Bot(order[i-1]).Mu {
			t.Errorf("%s (%.2f) not above %s (%.2f)", order[i], Bot(order[i]).Mu, order[i-1], Bot(order[i-1]).Mu)
		}
	}
	if Bot("medium") != (Rating{m.Mu, BotSigma}) {
		t.Errorf("medium starts at %+v", Bot("medium"))
	}
	if Bot("no such level") != m.New() {
		t.Errorf("an unmeasured level starts at %+v, not a new person's", Bot("no such level"))
	}
	for _, l := range order {
		t.Logf("%-7s mu %6.2f shown %d", l, Bot(l).Mu, Shown(Bot(l)))
	}
}

// winChance is the chance, in m's model, that a beats b in a two-player
// game.
func (m Model) winChance(a, b Rating) float64 {
	c := math.Sqrt(a.Sigma*a.Sigma + b.Sigma*b.Sigma + 2*m.Beta*m.Beta)
	return 1 / (1 + math.Exp((b.Mu-a.Mu)/c))
}

// A level's starting rating does not depend on how its name is typed.
func TestBotAnyCase(t *testing.T) {
	for _, typed := range []string{"Master", "EXPERT", " greedy "} {
		want := Bot(strings.ToLower(strings.TrimSpace(typed)))
		if want == Default().New() {
			t.Fatalf("%q has no measured rating", typed)
		}
		if got := Bot(typed); got != want {
			t.Errorf("Bot(%q) = %v, want %v", typed, got, want)
		}
	}
}
