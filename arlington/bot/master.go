package bot

import (
	"time"

	"cardtable/arlington"
)

// masterLevel is the master level's budget: ISMCTS (ismcts.go) with more
// play-outs and candidates than expert, worlds dealt from a belief over
// deals (belief.go), a budget that grows as the hand nears its end,
// where play-outs are short and the hand is decided, and softer play-outs
// with 3 or 4 players (playoutTemp). It is not in Levels:
// its search is not the plain ISMCTS or PIMC the "ismcts-"/"pimc-" names
// measure.
var masterLevel = Level{Name: "master", Worlds: 96, Time: 1200 * time.Millisecond, Noise: 0, Candidates: 14, Tree: true}

// masterEndgame is how many times its opening budget master spends on a
// decision when the hands are nearly empty (scaled linearly in between).
const masterEndgame = 3

// playoutTemp is the play-outs' softmax temperature with 3 or 4 players,
// in the greedy score's hundredths of a point: each seat plays near
// greedy play's best, not only the best, so a plan that holds only if
// every other seat makes greedy play's one choice counts for less.
// Against three expert it won 48.5% of 400 games, 10.8 points more than
// with greedy play-outs, and against two 55.7% of 300, 7.3 more
// (docs/bots.md); 2, 5 and 6 players keep greedy play-outs (not
// measured there).
const playoutTemp = 50

// tableFactor is twice master's budget factor for each number of players.
var tableFactor = [7]int{2: 6, 3: 6, 4: 6, 5: 2, 6: 2}

// Master is the strongest level: ISMCTS over worlds from a belief. Its
// Time (1.2 s) is a hard stop well inside the 2 s a decision may take (a
// loaded machine can wake it late); a context with an earlier deadline
// stops it earlier.
type Master struct{ *ISMCTS }

// NewMaster returns a master bot seeded with seed.
func NewMaster(seed uint64) *Master { return newMaster(masterLevel, seed) }

// newMaster is a master bot with lv's budget (tests cut it down).
func newMaster(lv Level, seed uint64) *Master {
	b := NewISMCTS(lv, seed)
	b.plan = masterPlan
	b.score = standingValues
	b.temp[3], b.temp[4] = playoutTemp, playoutTemp
	b.policyOthers, b.rootFloor = true, true
	return &Master{b}
}

// standingValues values a played-out hand for each seat by how it moved
// the seat's standing in the game: its lead over the best of the others'
// totals after the hand less that lead before it, with handValues' bonus
// for a game won or lost. With two players it is handValues; with more
// it weighs a point to the leader more than a point to a seat far
// behind, which the hand alone cannot see and which decides who wins a
// game of several hands (docs/bots.md, "master").
func standingValues(s *arlington.State, before []int) []float64 {
	return standing(s.Totals(), before, s.Winners())
}

// standing is standingValues from the totals after and before the hand
// and the game's winners (nil: the game goes on).
func standing(after, before, winners []int) []float64 {
	vals := make([]float64, len(after))
	for me := range after {
		vals[me] = float64(lead(after, me)-lead(before, me)) + winValue(winners, me)
	}
	return vals
}

// lead is t[seat] less the largest of the others' t.
func lead(t []int, seat int) int {
	best, seen := 0, false
	for i, x := range t {
		if i != seat && (!seen || x > best) {
			best, seen = x, true
		}
	}
	return t[seat] - best
}

// Name is "master".
func (m *Master) Name() string { return m.lv.Name }

// masterPlan is master's budget and sampler for a decision on v: iters
// times the table's factor (3 with 2 to 4 players, 1 with 5 or 6: play-
// outs are cheaper with fewer hands, and the 6-player median must stay
// within 0.5 s), times up to masterEndgame as the
// cards in hand run out, and worlds from the belief of v's evidence
// (the searches' worlds when there is none).
func masterPlan(v arlington.View, iters int) (int, sampler) {
	iters = iters * tableFactor[min(max(v.Players, 2), 6)] / 2
	dealt, left := 8*v.Players, 0
	for _, n := range v.HandSizes {
		left += n
	}
	if dealt > 0 { // a view with no players: sample says why it is wrong
		played := max(0, min(dealt, dealt-left))
		iters += iters * (masterEndgame - 1) * played / dealt
	}
	// With no evidence every world weighs 1: the belief deals the
	// searches' worlds (sample) as they come.
	return iters, newBelief(v).sample
}
