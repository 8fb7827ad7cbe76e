package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"cardtable/arlington"
)

// harnessBots are every bot, the search levels (as PIMC and as ISMCTS) and master cut to small budgets with
// no time bound (so that a game is quick and reproducible under -race).
func harnessBots() map[string]func(seed uint64) Bot {
	out := map[string]func(uint64) Bot{
		"random": func(s uint64) Bot { return NewRandom(s) },
		"greedy": func(s uint64) Bot { return NewGreedy(s) },
	}
	for _, lv := range Levels {
		small := lv
		small.Worlds, small.Candidates, small.Time = 2, 3, 0
		out["pimc-"+lv.Name] = func(s uint64) Bot { return NewSearch(small, s) }
		out["ismcts-"+lv.Name] = func(s uint64) Bot { return NewISMCTS(small, s) }
	}
	out["master"] = smallMaster
	return out
}

// sampleCheck wraps a bot: before each decision it draws a world from
// the view and checks that it agrees with the view.
type sampleCheck struct {
	Bot
	r *arlington.Rand
}

func (c sampleCheck) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	w, err := arlington.Sample(v, c.r)
	if err != nil {
		return arlington.Action{}, err
	}
	if err := w.CheckCards(); err != nil {
		return arlington.Action{}, fmt.Errorf("sampled world: %w", err)
	}
	if err := arlington.SameKnowledge(v, w.View(v.Seat)); err != nil {
		return arlington.Action{}, err
	}
	// The searches' own worlds (the S2 placed as a kept card) too.
	if w, err = sample(v, c.r); err != nil {
		return arlington.Action{}, fmt.Errorf("sample: %w", err)
	}
	if err := w.CheckCards(); err != nil {
		return arlington.Action{}, fmt.Errorf("sampled world: %w", err)
	}
	if err := arlington.SameKnowledge(v, worldView(w, v)); err != nil {
		return arlington.Action{}, err
	}
	return c.Bot.Act(ctx, v)
}

// Every bot goes through the same tests (as OpenSpiel runs every game
// through one harness): whole random games where every action is legal
// (Run applies it), the cards are accounted for and no view holds a
// hidden card after every action, worlds sampled from its views agree
// with them; the same seed gives the same game; a cancelled context
// returns promptly.
func TestHarness(t *testing.T) {
	games := [][2]int{{2, 1}, {4, 2}}
	if !testing.Short() {
		games = append(games, [2]int{3, 3}, [2]int{6, 4})
	}
	for name, mk := range harnessBots() {
		t.Run(name, func(t *testing.T) {
			for _, g := range games {
				players, seed := g[0], uint64(g[1])
				cfg := arlington.Config{Players: players, Target: 8}
				play := func() *arlington.State {
					seats := make([]Bot, players)
					for i := range seats {
						other := NewGreedy(SeatSeed(seed, i))
						seats[i] = Bot(other)
						if i%2 == 0 {
							seats[i] = sampleCheck{mk(SeatSeed(seed, i)), arlington.NewRand(seed)}
						}
					}
					s, err := Play(context.Background(), cfg, seed, seats, Check)
					if err != nil {
						t.Fatalf("%d players: %v", players, err)
					}
					return s
				}
				a, b := play(), play()
				if a.Record().String() != b.Record().String() {
					t.Fatalf("%d players, seed %d: two games differ", players, seed)
				}
			}
			// A cancelled context: Act answers with its error.
			s, _ := arlington.New(arlington.Config{Players: 3}, 1)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := mk(1).Act(ctx, s.View(s.ToMove())); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled context: err %v", err)
			}
			// A view whose seat may not act: an error, not a made-up action.
			other := (s.ToMove() + 1) % 3
			if _, err := mk(1).Act(context.Background(), s.View(other)); !errors.Is(err, ErrNoAction) {
				t.Fatalf("not its turn: err %v", err)
			}
		})
	}
}

// A search cancelled while it thinks returns promptly with the context's
// error: the budget here would take minutes, so the test ends only if
// the search stops on cancellation.
func TestSearchStopsWhenCancelled(t *testing.T) {
	huge := Level{Name: "huge", Worlds: 1 << 30, Candidates: 50}
	s, _ := arlington.New(arlington.Config{Players: 4}, 3)
	v := s.View(s.ToMove())
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		_, err := NewSearch(huge, 1).Act(ctx, v)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

// Past its level's time (or the context's deadline) a search answers with
// what it has, a legal action, rather than an error.
func TestSearchAnswersAtDeadline(t *testing.T) {
	lv := Level{Name: "timed", Worlds: 1 << 30, Candidates: 50, Time: 1}
	s, _ := arlington.New(arlington.Config{Players: 4}, 3)
	v := s.View(s.ToMove())
	a, err := NewSearch(lv, 1).Act(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(v.Seat, a); err != nil {
		t.Fatal(err)
	}
}

// The search with a fixed node budget is reproducible from its seed, on
// however many goroutines.
func TestSearchReproducible(t *testing.T) {
	s, _ := arlington.New(arlington.Config{Players: 4}, 12)
	v := s.View(s.ToMove())
	var got []arlington.Action
	for _, workers := range []int{1, 3} {
		lv := Level{Name: "x", Worlds: 6, Candidates: 8, Noise: 0.5, Workers: workers}
		b := NewSearch(lv, 99)
		for range 3 {
			a, err := b.Act(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, a)
		}
	}
	if fmt.Sprint(got[:3]) != fmt.Sprint(got[3:]) {
		t.Fatalf("1 worker chose %v, 3 workers %v", got[:3], got[3:])
	}
}

// TestISMCTSSameOnEveryMachine: expert's tree search decides the same
// whatever GOMAXPROCS says (its tree count is fixed, not one per core).
func TestISMCTSSameOnEveryMachine(t *testing.T) {
	s, _ := arlington.New(arlington.Config{Players: 3}, 21)
	v := s.View(s.ToMove())
	lv, ok := LevelNamed("expert")
	if !ok {
		t.Fatal("no expert level")
	}
	lv.Worlds, lv.Time = 8, 0 // a small budget, no time bound: decided by nodes alone
	var got []string
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		a, err := NewISMCTS(lv, 99).Act(context.Background(), v)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.String())
	}
	if got[0] != got[1] {
		t.Fatalf("GOMAXPROCS 1 chose %s, 4 chose %s", got[0], got[1])
	}
}
