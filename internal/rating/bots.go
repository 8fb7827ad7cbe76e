package rating

import (
	"math"
	"strings"
)

// BotSigma is every bot level's starting Sigma: the measured matches fix
// each level's place to within about a point (the 95% intervals of 400
// games), and the rest allows for bots playing people differently from
// each other.
const BotSigma = 2.0

// A measured match: duplicate self-play of two bot levels, 400 games to
// 32 points (docs/benchmarks.md, "Arlington bots"); a won a games' share
// p of the games.
type match struct {
	a, b string
	p    float64
}

// measured places every level but the anchor against one already placed.
var measured = []match{
	{"easy", "medium", 1 - 0.729},
	{"random", "easy", 1 - 0.965},
	{"hard", "medium", 0.660},
	{"expert", "hard", 0.711},
	{"greedy", "expert", 1 - 0.905},
	// The bots of commit a759888 (docs/bots.md, "master against expert").
	{"master", "expert", 0.672},
}

// anchor is the level placed where a new person starts.
const anchor = "medium"

var bots = botStarts(Default())

// botStarts places each bot level so that, in m's two-player model, it
// beats the level it was measured against as often as it did: the gap in
// Mu is c * logit(p), c being the model's spread for two players of
// BotSigma. medium starts at a new person's Mu.
func botStarts(m Model) map[string]Rating {
	c := math.Sqrt(2 * (BotSigma*BotSigma + m.Beta*m.Beta))
	out := map[string]Rating{anchor: {Mu: m.Mu, Sigma: BotSigma}}
	for _, x := range measured {
		mu := out[x.b].Mu + c*math.Log(x.p/(1-x.p))
		out[x.a] = Rating{Mu: mu, Sigma: BotSigma}
	}
	return out
}

// Bot is the starting rating of a bot level (see botStarts); a level with
// no measured match starts as a new person does. Level names are read in
// any case, as bot.New reads them.
func Bot(level string) Rating {
	if r, ok := bots[strings.ToLower(strings.TrimSpace(level))]; ok {
		return r
	}
	return Default().New()
}
