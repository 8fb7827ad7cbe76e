package bot

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"cardtable/arlington"
)

// TestBotsProposeOnlyLegalActions: at positions of many random deals for
// 2 to 6 players, in every phase (the lead, a trick, a set round), every
// bot (the hint's level among them, with small budgets) answers an action
// its view lists and the rules accept. The positions come from random
// play, which reaches far more odd corners (players without cards, sets
// on every table, jokers on tables) than the bots' own games do.
func TestBotsProposeOnlyLegalActions(t *testing.T) { botsProposeOnlyLegal(t, 4, 3) }

// TestLongBotsProposeOnlyLegalActions is TestBotsProposeOnlyLegalActions
// over 30 deals per table size instead of 4, asking at every position
// instead of every third.
func TestLongBotsProposeOnlyLegalActions(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	botsProposeOnlyLegal(t, 30, 1)
}

func botsProposeOnlyLegal(t *testing.T, deals, every int) {
	bots := harnessBots()
	names := make([]string, 0, len(bots))
	for n := range bots {
		names = append(names, n)
	}
	sort.Strings(names)
	ctx := context.Background()
	for players := 2; players <= arlington.MaxSeats; players++ {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			asked := map[arlington.Phase]int{}
			for d := range deals {
				seed := uint64(players*1000 + d)
				s, err := arlington.New(arlington.Config{Players: players, Target: 32}, seed)
				if err != nil {
					t.Fatal(err)
				}
				walk := arlington.NewRand(seed)
				for step := 0; !s.Terminal(); step++ {
					seat := s.ToMove()
					legal := s.Legal(seat)
					if step%every == 0 {
						asked[s.Phase()]++
						v := s.View(seat)
						name := names[(step/every+d)%len(names)]
						a, err := bots[name](SeatSeed(seed, step)).Act(ctx, v)
						if err != nil {
							t.Fatalf("seed %d step %d: %s: %v", seed, step, name, err)
						}
						if !slices.Contains(v.Legal(), a) {
							t.Fatalf("seed %d step %d (%v): %s proposed %v, not among the view's legal actions %v", seed, step, s.Phase(), name, a, v.Legal())
						}
						if err := s.Check(seat, a); err != nil {
							t.Fatalf("seed %d step %d (%v): %s proposed %v, refused: %v", seed, step, s.Phase(), name, a, err)
						}
					}
					if err := s.Apply(seat, legal[walk.Intn(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
			t.Logf("asked %d times in the lead, %d in tricks, %d in set rounds", asked[arlington.PhaseLead], asked[arlington.PhaseTrick], asked[arlington.PhaseRound])
			for _, ph := range []arlington.Phase{arlington.PhaseLead, arlington.PhaseTrick, arlington.PhaseRound} {
				if asked[ph] == 0 {
					t.Fatalf("no bot was asked in phase %v: %v", ph, asked)
				}
			}
		})
	}
}
