package spidergame

import (
	"strconv"
	"strings"
	"time"
)

// HistoryLimit is how many of a group's latest results a Group's History
// holds; the counts cover every result.
const HistoryLimit = 1000

// Variants and SuitCounts fix the statistics groups and their order.
var (
	Variants   = []string{"arachnid", "spider"}
	SuitCounts = []int{1, 2, 4}
)

// Tally adds up a player's results into the statistics groups, so that
// every store counts them alike: the store reads the results in the order
// they count (their time, then the order stored) and adds each.
type Tally struct {
	groups []Group
	index  map[string]int
}

func groupKey(v string, s int) string { return v + "/" + strconv.Itoa(s) }

// NewTally is an empty tally: every group of Variants and SuitCounts, in
// that order, with no games.
func NewTally() *Tally {
	t := &Tally{index: map[string]int{}}
	for _, v := range Variants {
		for _, s := range SuitCounts {
			t.index[groupKey(v, s)] = len(t.groups)
			t.groups = append(t.groups, Group{Variant: v, Suits: s, History: []Result{}})
		}
	}
	return t
}

// Add counts the next result. One of a group this program does not know
// is left out (kept in the store, not shown).
func (t *Tally) Add(r Result) {
	i, ok := t.index[groupKey(strings.ToLower(r.Variant), r.Suits)]
	if !ok {
		return
	}
	g := &t.groups[i]
	g.Played++
	if r.Won {
		g.Won++
		g.CurrentStreak++
		g.LongestStreak = max(g.LongestStreak, g.CurrentStreak)
		if r.Played > 0 {
			if g.TimedWins == 0 || r.Played < g.BestTime {
				g.BestTime = r.Played
			}
			g.TimedWins++
			g.AverageTime += r.Played // the sum until Groups
		}
	} else {
		g.CurrentStreak = 0
	}
	if g.Played == 1 || r.Score > g.BestScore {
		g.BestScore = r.Score
	}
	g.History = append(g.History, r)
	if len(g.History) > HistoryLimit {
		g.History = g.History[len(g.History)-HistoryLimit:]
	}
}

// Groups ends the tally: the groups with their averages.
func (t *Tally) Groups() []Group {
	for i := range t.groups {
		if g := &t.groups[i]; g.TimedWins > 0 {
			g.AverageTime /= time.Duration(g.TimedWins)
		}
	}
	return t.groups
}
