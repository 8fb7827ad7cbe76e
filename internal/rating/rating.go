// Package rating is the Weng-Lin Bayesian rating of players in games of
// any number of players (Weng and Lin, "A Bayesian Approximation Method
// for Online Ranking", JMLR 2011), under its Plackett-Luce model: the one
// the OpenSkill libraries use by default, with their default constants,
// so their published examples check this code. Each rating is a normal
// belief about a player's skill: Mu its mean, Sigma its spread. It is pure
// arithmetic: no I/O, no clock.
package rating

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrRanks is returned by Rate for ranks that are not one per team.
var ErrRanks = errors.New("ranks are not one per team")

// Rating is a belief about one player's skill.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Model holds the constants of the update.
type Model struct {
	Mu, Sigma float64 // a new player's rating
	// Beta is the spread of one game's performance around a skill.
	Beta float64
	// Kappa keeps a variance from shrinking below Kappa times itself in
	// one update (and so from reaching zero).
	Kappa float64
	// Tau is added (in quadrature) to every Sigma before an update, so a
	// rating never freezes and follows a player who improves.
	Tau float64
}

// Default is the model the server uses: OpenSkill's constants (mu 25,
// sigma 25/3, beta 25/6, kappa 0.0001) with its recommended tau of
// sigma/100.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New is the rating of a player who has played no game.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Ordinal is a conservative estimate of r's skill, mu - 3 sigma: the
// player's skill is above it with about 99.9% certainty. A new player's
// is 0, and it rises as games narrow sigma.
func Ordinal(r Rating) float64 { return r.Mu - 3*r.Sigma }

// Shown is the number players see for r: the Ordinal on a familiar scale,
// 1000 + 20 * Ordinal, rounded, never below 0. A new player shows 1000.
func Shown(r Rating) int {
	v := math.Round(1000 + 20*Ordinal(r))
	if v < 0 || math.IsNaN(v) {
		return 0
	}
	return int(v)
}

type team struct {
	mu, sigmaSq float64
	rank        int
	index       int // in the caller's order
}

// Rate is the teams' ratings after one game in which team i finished in
// place ranks[i] (1 is first; equal places are a tie). teams and ranks
// have the same length (else ErrRanks: a result that cannot be meant);
// each team has at least one player. The result has the teams' shape and
// order. Fewer than two teams change no Mu (every Sigma still grows by
// Tau).
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(ranks) != len(teams) {
		return nil, fmt.Errorf("%w: %d ranks for %d teams", ErrRanks, len(ranks), len(teams))
	}
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = make([]Rating, len(t))
		for j, r := range t {
			if m.Tau > 0 {
				r.Sigma = math.Sqrt(r.Sigma*r.Sigma + m.Tau*m.Tau)
			}
			out[i][j] = r
		}
	}
	if len(teams) < 2 {
		return out, nil
	}
	ts := make([]team, len(teams))
	for i, t := range out {
		ts[i] = team{rank: ranks[i], index: i}
		for _, r := range t {
			ts[i].mu += r.Mu
			ts[i].sigmaSq += r.Sigma * r.Sigma
		}
	}
	sort.SliceStable(ts, func(a, b int) bool { return ts[a].rank < ts[b].rank })
	betaSq := m.Beta * m.Beta
	c := 0.0
	for _, t := range ts {
		c += t.sigmaSq + betaSq
	}
	c = math.Sqrt(c)
	// sumQ[q]: the strengths of the teams placed at q's place or below;
	// ties[q]: how many teams share q's place.
	sumQ := make([]float64, len(ts))
	ties := make([]float64, len(ts))
	for q, tq := range ts {
		for _, ti := range ts {
			if ti.rank >= tq.rank {
				sumQ[q] += math.Exp(ti.mu / c)
			}
			if ti.rank == tq.rank {
				ties[q]++
			}
		}
	}
	for i, ti := range ts {
		strength := math.Exp(ti.mu / c)
		var omega, delta float64
		for q, tq := range ts {
			if tq.rank > ti.rank {
				continue
			}
			p := strength / sumQ[q]
			if q == i {
				omega += (1 - p) / ties[q]
			} else {
				omega -= p / ties[q]
			}
			delta += p * (1 - p) / ties[q]
		}
		gamma := math.Sqrt(ti.sigmaSq) / c
		omega *= ti.sigmaSq / c
		delta *= gamma * ti.sigmaSq / (c * c)
		for j, r := range out[ti.index] {
			share := r.Sigma * r.Sigma / ti.sigmaSq
			out[ti.index][j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
		}
	}
	return out, nil
}

// Ranks is each player's place from their final scores, the highest
// first: 1 plus the number of players who scored more (equal scores
// share a place).
func Ranks(scores []int) []int {
	out := make([]int, len(scores))
	for i, s := range scores {
		out[i] = 1
		for _, o := range scores {
			if o > s {
				out[i]++
			}
		}
	}
	return out
}
