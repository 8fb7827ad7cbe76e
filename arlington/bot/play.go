package bot

import (
	"context"
	"errors"
	"fmt"

	"cardtable/arlington"
)

// MaxMoves bounds a game in Play; no real game comes near it (a hand
// ends within a few hundred actions), so reaching it means a bug.
const MaxMoves = 1_000_000

// ErrTooLong is returned by Play when a game passes MaxMoves.
var ErrTooLong = errors.New("game did not end")

// CheckEvery is how many actions Play takes between looks at its
// context: often enough that a cancelled game stops within a millisecond
// or so, rarely enough to cost nothing measurable.
const CheckEvery = 256

// Play plays one whole game with bots[i] in seat i, each shown only its
// seat's view. If check is not nil it is called after every action and
// its error stops the game. Play stops early, returning the game so far
// and an error wrapping ctx.Err(), once ctx is done.
func Play(ctx context.Context, cfg arlington.Config, seed uint64, bots []Bot, check func(*arlington.State) error) (*arlington.State, error) {
	if len(bots) != cfg.Players {
		return nil, fmt.Errorf("%d bots for %d players", len(bots), cfg.Players)
	}
	s, err := arlington.New(cfg, seed)
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(s); err != nil {
			return s, err
		}
	}
	var after func(int, arlington.Action) error
	if check != nil {
		after = func(int, arlington.Action) error { return check(s) }
	}
	return s, Run(ctx, s, bots, after)
}

// Run is the one game loop (self-play, terminal play and tests): it plays
// s on to its end, asking seats[s.ToMove()] for each action with that
// seat's view. A person at the terminal is a Bot too. after, if not nil,
// is called after every action; its error, a seat's error or an illegal
// choice stops the game where it is. Run looks at ctx before the first
// action and every CheckEvery actions after (seats see it at every Act).
func Run(ctx context.Context, s *arlington.State, seats []Bot, after func(seat int, a arlington.Action) error) error {
	if len(seats) != s.Players() {
		return fmt.Errorf("%d seats for %d players", len(seats), s.Players())
	}
	for moves := 0; !s.Terminal(); moves++ {
		if moves >= MaxMoves {
			return fmt.Errorf("%w after %d actions (seed %d)", ErrTooLong, moves, s.Seed())
		}
		if moves%CheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("stopped after %d actions: %w", moves, err)
			}
		}
		seat := s.ToMove()
		a, err := seats[seat].Act(ctx, s.View(seat))
		if err != nil {
			return fmt.Errorf("seat %d (%s): %w", seat, seats[seat].Name(), err)
		}
		if err := s.Apply(seat, a); err != nil {
			return fmt.Errorf("seat %d (%s) chose %v: %w", seat, seats[seat].Name(), a, err)
		}
		if after != nil {
			if err := after(seat, a); err != nil {
				return fmt.Errorf("after seat %d's %v: %w", seat, a, err)
			}
		}
	}
	return nil
}

// Check is the self-play check: all 54 cards accounted for and no view
// holding another seat's cards.
func Check(s *arlington.State) error {
	if err := s.CheckCards(); err != nil {
		return err
	}
	return s.CheckViews()
}

// Stats sums games for each seat.
type Stats struct {
	Games  int
	Hands  int       // hands played in all games
	Wins   []float64 // a shared win counts 1/k to each of k winners
	Points []int     // points scored in all hands
}

// Add counts a finished game.
func (st *Stats) Add(s *arlington.State) {
	n := s.Players()
	if st.Wins == nil {
		st.Wins = make([]float64, n)
		st.Points = make([]int, n)
	}
	st.Games++
	w := s.Winners()
	for _, seat := range w {
		st.Wins[seat] += 1 / float64(len(w))
	}
	for _, hand := range s.Scores() {
		st.Hands++
		for i, p := range hand {
			st.Points[i] += p
		}
	}
}

// WinShare is seat's share of the wins.
func (st *Stats) WinShare(seat int) float64 {
	if st.Games == 0 {
		return 0
	}
	return st.Wins[seat] / float64(st.Games)
}

// MeanPerHand is seat's mean score per hand.
func (st *Stats) MeanPerHand(seat int) float64 {
	if st.Hands == 0 {
		return 0
	}
	return float64(st.Points[seat]) / float64(st.Hands)
}

// SeatSeed derives a bot's seed from a game's seed, so every seat plays
// differently but reproducibly.
func SeatSeed(gameSeed uint64, seat int) uint64 {
	return gameSeed*0x9e3779b97f4a7c15 + uint64(seat)*0xbf58476d1ce4e5b9 + 1
}
