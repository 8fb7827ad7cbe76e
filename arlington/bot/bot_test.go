package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/arlington"
)

func makeBots(tb testing.TB, names []string, seed uint64) []Bot {
	tb.Helper()
	out := make([]Bot, len(names))
	for i, n := range names {
		b, err := New(n, SeatSeed(seed, i))
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// Bots only ever choose legal actions, games end, and the checks hold at
// every step.
func TestBotsPlayWholeGames(t *testing.T) {
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			names := []string{"greedy", "random", "greedy", "random", "greedy", "random"}[:players]
			for g := range 3 {
				seed := uint64(players*100 + g)
				if _, err := Play(context.Background(), arlington.Config{Players: players}, seed, makeBots(t, names, seed), Check); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestPlayIsReproducible(t *testing.T) {
	names := []string{"greedy", "random", "greedy"}
	a, err := Play(context.Background(), arlington.Config{Players: 3}, 9, makeBots(t, names, 9), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Play(context.Background(), arlington.Config{Players: 3}, 9, makeBots(t, names, 9), nil)
	if a.Record().String() != b.Record().String() {
		t.Fatal("same seeds, different games")
	}
}

// The greedy bot should clearly beat random play: over 200 two-player
// games with seats alternating it wins well over half.
func TestGreedyBeatsRandom(t *testing.T) { greedyBeatsRandom(t, 60) }

// TestLongGreedyBeatsRandom is TestGreedyBeatsRandom at full size (200 instead of 60).
func TestLongGreedyBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	greedyBeatsRandom(t, 200)
}

func greedyBeatsRandom(t *testing.T, games int) {
	wins := 0.0
	for g := range games {
		names := []string{"greedy", "random"}
		gs := 0
		if g%2 == 1 {
			names[0], names[1] = names[1], names[0]
			gs = 1
		}
		s, err := Play(context.Background(), arlington.Config{Players: 2}, uint64(g), makeBots(t, names, uint64(g)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var st Stats
		st.Add(s)
		wins += st.Wins[gs]
	}
	if share := wins / float64(games); share < 0.65 {
		t.Fatalf("greedy won %.2f of %d games against random, want > 0.65", share, games)
	}
}

// Play looks at its context inside a game: cancelled before the start it
// takes no action, and cancelled mid-game it stops within CheckEvery
// actions, returning the game so far. The target, the largest, is far
// beyond any game these actions could finish.
func TestPlayStopsWhenCancelled(t *testing.T) {
	cfg := arlington.Config{Players: 4, Target: arlington.MaxTarget}
	names := []string{"random", "greedy", "random", "greedy"}
	for _, cancelAt := range []int{0, 1, 300, 1000} {
		t.Run(fmt.Sprint(cancelAt), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if cancelAt == 0 {
				cancel()
			}
			actions := 0
			check := func(*arlington.State) error {
				if actions == cancelAt && cancelAt > 0 {
					cancel()
				}
				actions++
				return nil
			}
			s, err := Play(ctx, cfg, 7, makeBots(t, names, 7), check)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, want context.Canceled", err)
			}
			if s == nil || s.Terminal() {
				t.Fatalf("want the unfinished game back, got %v", s)
			}
			played := len(s.History())
			if played < cancelAt || played > cancelAt+CheckEvery {
				t.Fatalf("cancelled after %d actions, stopped after %d; want at most %d more", cancelAt, played, CheckEvery)
			}
		})
	}
}

func TestNewUnknown(t *testing.T) {
	if _, err := New("clever", 1); err == nil {
		t.Fatal("unknown bot accepted")
	}
}

// New gives each level the search its Level says (expert: ISMCTS, the
// others PIMC), and either search at any level's budget by prefix.
func TestNewKinds(t *testing.T) {
	for _, tc := range []struct{ name, kind string }{
		{"easy", "*bot.Search"},
		{"hard", "*bot.Search"},
		{"expert", "*bot.ISMCTS"},
		{"Expert ", "*bot.ISMCTS"},
		{"pimc-expert", "*bot.Search"},
		{"ismcts-hard", "*bot.ISMCTS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := New(tc.name, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", b); got != tc.kind {
				t.Fatalf("New(%q) is %s, want %s", tc.name, got, tc.kind)
			}
		})
	}
	for _, bad := range []string{"pimc-", "ismcts-greedy", "pimc-ismcts-hard"} {
		if _, err := New(bad, 1); !errors.Is(err, ErrUnknown) {
			t.Errorf("New(%q): err %v, want ErrUnknown", bad, err)
		}
	}
}

func BenchmarkSelfplay(b *testing.B) {
	for _, players := range []int{2, 4, 6} {
		for _, kind := range []string{"random", "greedy"} {
			b.Run(fmt.Sprintf("players=%d/%s", players, kind), func(b *testing.B) {
				names := make([]string, players)
				for i := range names {
					names[i] = kind
				}
				games := 0
				for i := 0; b.Loop(); i++ {
					if _, err := Play(context.Background(), arlington.Config{Players: players}, uint64(i), makeBots(b, names, uint64(i)), nil); err != nil {
						b.Fatal(err)
					}
					games++
				}
				b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// Every level name is read in any case, everywhere a name is looked up:
// "Master" and "EXPERT" are the levels master and expert.
func TestLevelNamesAnyCase(t *testing.T) {
	for _, name := range Names {
		for _, typed := range []string{strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:], " " + name + " "} {
			t.Run(typed, func(t *testing.T) {
				want, err := New(name, 1)
				if err != nil {
					t.Fatal(err)
				}
				got, err := New(typed, 1)
				if err != nil {
					t.Fatalf("New(%q): %v", typed, err)
				}
				if got.Name() != want.Name() {
					t.Fatalf("New(%q) is %q, want %q", typed, got.Name(), want.Name())
				}
				lv, ok := LevelNamed(name)
				tlv, tok := LevelNamed(typed)
				if tok != ok || tlv != lv {
					t.Fatalf("LevelNamed(%q) = %v %v, LevelNamed(%q) = %v %v", typed, tlv, tok, name, lv, ok)
				}
			})
		}
	}
}
