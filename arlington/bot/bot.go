// Package bot holds baseline Arlington opponents and a self-play runner.
// A bot sees only its seat's arlington.View, never the State, so it can
// sit at a live table exactly as a person does.
package bot

import (
	"errors"
	"fmt"
	"strings"

	"cardtable/arlington"
)

// Bot chooses an action for the seat of the view it is given. It is
// called only when that seat is to move, and must return one of
// v.Legal().
type Bot interface {
	Name() string
	Act(v arlington.View) arlington.Action
}

// Names lists the bots New knows.
var Names = []string{"random", "greedy"}

// ErrUnknown is returned by New for a name it does not know.
var ErrUnknown = errors.New("unknown bot")

// New makes the bot called name, seeded with seed.
func New(name string, seed uint64) (Bot, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "random":
		return NewRandom(seed), nil
	case "greedy":
		return NewGreedy(seed), nil
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknown, name, strings.Join(Names, " or "))
}

// Random plays a uniformly random legal action.
type Random struct{ r *arlington.Rand }

// NewRandom returns a random-legal bot.
func NewRandom(seed uint64) *Random { return &Random{r: arlington.NewRand(seed)} }

// Name is "random".
func (*Random) Name() string { return "random" }

// Act picks one legal action at random.
func (b *Random) Act(v arlington.View) arlington.Action {
	legal := v.Legal()
	if len(legal) == 0 {
		return arlington.Action{}
	}
	return legal[b.r.Intn(len(legal))]
}
