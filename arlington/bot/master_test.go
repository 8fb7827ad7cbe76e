package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"cardtable/arlington"
)

// smallMaster is master cut to a small budget with no time bound, so that
// a game is quick and reproducible under -race.
func smallMaster(seed uint64) Bot {
	lv := masterLevel
	lv.Worlds, lv.Candidates, lv.Time = 2, 3, 0
	return newMaster(lv, seed)
}

// beliefCheck wraps a bot: before each decision it deals a world from
// the belief of the view and checks it against the view.
type beliefCheck struct {
	Bot
	r *arlington.Rand
}

func (c beliefCheck) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	if len(v.Legal()) > 0 {
		w, err := newBelief(v).sample(c.r)
		if err != nil {
			return arlington.Action{}, err
		}
		if err := w.CheckCards(); err != nil {
			return arlington.Action{}, fmt.Errorf("believed world: %w", err)
		}
		if err := arlington.SameKnowledge(v, worldView(w, v)); err != nil {
			return arlington.Action{}, err
		}
	}
	return c.Bot.Act(ctx, v)
}

// Master plays whole legal games at every table size, with the cards
// accounted for and no view holding a hidden card after every action,
// and every world its belief deals agrees with the view it was dealt from.
func TestMasterPlaysEveryTableSize(t *testing.T) {
	for players := 2; players <= arlington.MaxSeats; players++ {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			seats := make([]Bot, players)
			for i := range seats {
				seats[i] = beliefCheck{smallMaster(SeatSeed(7, i)), arlington.NewRand(uint64(i))}
			}
			s, err := Play(context.Background(), arlington.Config{Players: players, Target: 6}, uint64(players), seats, Check)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Terminal() {
				t.Fatal("game not over")
			}
		})
	}
}

// master is the level New makes, with its time bound well inside the 2 s
// a decision may take.
func TestMasterLevel(t *testing.T) {
	b, err := New("master", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := b.(*Master)
	if !ok || m.Name() != "master" {
		t.Fatalf("New(master) is %T %q", b, b.Name())
	}
	if m.lv.Time <= 0 || m.lv.Time > 1500*time.Millisecond {
		t.Fatalf("master thinks up to %v, want a bound of at most 1.5 s", m.lv.Time)
	}
}

// Past its time bound master answers with a legal action from what it
// has searched; a caller's deadline stops it with the context's error.
// The budget here would take hours, so the test ends only if both stop.
func TestMasterDeadline(t *testing.T) {
	s, _ := arlington.New(arlington.Config{Players: 6}, 3)
	v := s.View(s.ToMove())
	huge := masterLevel
	huge.Worlds = 1 << 30
	t.Run("own bound", func(t *testing.T) {
		lv := huge
		lv.Time = 20 * time.Millisecond
		a, err := newMaster(lv, 1).Act(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(v.Seat, a); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("caller's deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := newMaster(huge, 1).Act(ctx, v); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want context.DeadlineExceeded", err)
		}
	})
}

// Master decides from what the seat's view says and nothing else: the
// view as a remote client receives it (JSON, no shared memory with the
// game) gives the same decisions, and the decisions are reproducible.
func TestMasterUsesOnlyTheView(t *testing.T) {
	for _, players := range []int{2, 5} {
		views := positions(t, players, 11, 9)
		if len(views) > 6 {
			views = views[:6]
		}
		for i, v := range views {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var wire arlington.View
			if err := json.Unmarshal(b, &wire); err != nil {
				t.Fatal(err)
			}
			x, err := smallMaster(5).Act(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			y, err := smallMaster(5).Act(context.Background(), wire)
			if err != nil {
				t.Fatal(err)
			}
			if x != y {
				t.Errorf("%d players, position %d: %v from the view, %v from its JSON", players, i, x, y)
			}
		}
	}
}

// Master values a hand by the standing it leaves: with four players, a
// point to a seat far behind costs it less than a point to the leader,
// where the hand's difference alone (expert's value) ranks the two
// hands the other way. With two players the two values agree.
func TestStandingValues(t *testing.T) {
	before := []int{20, 25, 0, 0}
	// A: master (seat 0) scores 3, the seat far behind 6, the leader 0.
	// B: master scores 3, the leader 4, the others nothing.
	a, b := []int{23, 25, 6, 0}, []int{23, 29, 0, 0}
	sa, sb := standing(a, before, nil)[0], standing(b, before, nil)[0]
	if sa != 3 || sb != -1 {
		t.Errorf("standing: A %v, B %v; want 3 and -1", sa, sb)
	}
	ha, hb := handOf(a, before, nil)[0], handOf(b, before, nil)[0]
	if ha >= hb {
		t.Errorf("hand values A %v, B %v: the hand's difference no longer prefers B, so this case shows nothing", ha, hb)
	}
	for _, c := range []struct {
		name                  string
		after, before, winner []int
	}{
		{"hand", []int{9, 4}, []int{3, 5}, nil},
		{"won", []int{33, 30}, []int{25, 28}, []int{0}},
		{"lost", []int{28, 35}, []int{25, 28}, []int{1}},
		{"tied", []int{33, 33}, []int{25, 28}, []int{0, 1}},
	} {
		t.Run("two players/"+c.name, func(t *testing.T) {
			got, want := standing(c.after, c.before, c.winner), handOf(c.after, c.before, c.winner)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("standing %v, hand values %v", got, want)
			}
		})
	}
}
