package bot

import (
	"math"
	"testing"

	"cardtable/arlington"
)

// chooseSoft draws the legal actions in proportion to exp(score/temp):
// over many draws from positions of a real game, each action's share is
// within five standard errors of its softmax probability, an action
// more than eight temperatures below the best is never drawn, and the
// actions 4-8 temperatures below it are drawn as often, all together, as
// softmax says.
func TestChooseSoftFollowsTheScores(t *testing.T) {
	const temp, draws = 50, 4000
	s, err := arlington.New(arlington.Config{Players: 4}, 77)
	if err != nil {
		t.Fatal(err)
	}
	g, tested := NewGreedy(5), 0
	var tail tailCount
	for step := 0; step < 40 && !s.Terminal(); step++ {
		seat := s.ToMove()
		p, legal := posOfState(s, seat), s.Legal(seat)
		if len(legal) > 1 {
			tested++
			checkSoft(t, g, p, legal, temp, draws, &tail)
		}
		a, _ := g.choose(p, legal)
		if err := s.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
	if tested < 10 {
		t.Fatalf("only %d positions with a choice", tested)
	}
	// Each far action is drawn too rarely to check alone; together they
	// catch a cut-off at 5 temperatures or nearer. One at 6 or 7 takes
	// too few draws away to tell from chance here.
	if tail.want < 20 {
		t.Fatalf("actions 4-8 temperatures below the best expected %.1f times in all, too few to check", tail.want)
	}
	if se := math.Sqrt(tail.want); math.Abs(tail.got-tail.want) > 5*se {
		t.Errorf("actions 4-8 temperatures below the best drawn %v times in all, softmax says %.1f", tail.got, tail.want)
	}
}

// tailCount sums, over positions, the expected and the actual draws of
// actions between 4 and 8 temperatures below the best.
type tailCount struct{ want, got float64 }

// master's play-outs are soft with 3 and 4 players only (measured there,
// docs/bots.md), and no other ISMCTS bot's are.
func TestMasterPlayoutTemps(t *testing.T) {
	if got, want := newMaster(masterLevel, 1).temp, [7]int{3: playoutTemp, 4: playoutTemp}; got != want {
		t.Errorf("master's temperatures by table size: %v, want %v", got, want)
	}
	if got := NewISMCTS(masterLevel, 1).temp; got != [7]int{} {
		t.Errorf("a plain ISMCTS bot's temperatures: %v, want none", got)
	}
}

func checkSoft(t *testing.T, g *Greedy, p pos, legal []arlington.Action, temp, draws int, tail *tailCount) {
	t.Helper()
	scores := make([]int, len(legal))
	best := -1 << 30
	for i, a := range legal {
		scores[i] = g.score(p, a)
		best = max(best, scores[i])
	}
	want, total := make([]float64, len(legal)), 0.0
	for i, sc := range scores {
		if best-sc <= 8*temp {
			want[i] = math.Exp(-float64(best-sc) / float64(temp))
		}
		total += want[i]
	}
	got := map[arlington.Action]int{}
	for range draws {
		a, ok := g.chooseSoft(p, legal, temp)
		if !ok {
			t.Fatal("no action drawn")
		}
		got[a]++
	}
	for i, a := range legal {
		q := want[i] / total
		n := float64(got[a])
		if q == 0 {
			if n > 0 {
				t.Fatalf("%v, %d below the best, drawn %v times", a, best-scores[i], n)
			}
			continue
		}
		if d := best - scores[i]; d > 4*temp {
			tail.want += q * float64(draws)
			tail.got += n
		}
		se := math.Sqrt(q * (1 - q) * float64(draws))
		if math.Abs(n-q*float64(draws)) > 5*se+1 {
			t.Fatalf("%v drawn %v of %d times, softmax says %.1f", a, n, draws, q*float64(draws))
		}
	}
}
