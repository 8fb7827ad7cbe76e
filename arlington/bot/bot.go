// Package bot holds baseline Arlington opponents and a self-play runner.
// A bot sees only its seat's arlington.View, never the State, so it can
// sit at a live table exactly as a person does.
package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cardtable/arlington"
)

// Bot chooses an action for the seat of the view it is given. It is
// called only when that seat is to move, and returns one of v.Legal(), or
// an error: ctx ended (wrapping ctx.Err(), promptly), or the view has no
// legal action (ErrNoAction). A bot's randomness is its own, seeded apart
// from the deal. A Bot is not safe for concurrent use.
type Bot interface {
	Name() string
	Act(ctx context.Context, v arlington.View) (arlington.Action, error)
}

// ErrNoAction is returned by Act for a view whose seat may not act.
var ErrNoAction = errors.New("no legal action in this view")

// Names lists the bots New knows.
var Names = []string{"random", "greedy", "easy", "medium", "hard", "expert", "master"}

// ErrUnknown is returned by New for a name it does not know.
var ErrUnknown = errors.New("unknown bot")

// New makes the bot called name, seeded with seed. Names are read in any
// case, with spaces around them ignored: "Master" is master.
func New(name string, seed uint64) (Bot, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	switch key {
	case "random":
		return NewRandom(seed), nil
	case "greedy":
		return NewGreedy(seed), nil
	case "master":
		return NewMaster(seed), nil
	}
	if lv, ok := LevelNamed(key); ok {
		if lv.Tree {
			return NewISMCTS(lv, seed), nil
		}
		return NewSearch(lv, seed), nil
	}
	// A level's budget with either search, for measurement
	// (docs/bots.md): "ismcts-hard", "pimc-expert". Not offered levels.
	for _, pre := range []string{"ismcts-", "pimc-"} {
		lv, ok := LevelNamed(strings.TrimPrefix(key, pre))
		if !ok || !strings.HasPrefix(key, pre) {
			continue
		}
		if pre == "ismcts-" {
			return NewISMCTS(lv, seed), nil
		}
		return NewSearch(lv, seed), nil
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknown, name, strings.Join(Names, ", "))
}

// Random plays a uniformly random legal action.
type Random struct{ r *arlington.Rand }

// NewRandom returns a random-legal bot.
func NewRandom(seed uint64) *Random { return &Random{r: arlington.NewRand(seed)} }

// Name is "random".
func (*Random) Name() string { return "random" }

// Act picks one legal action at random.
func (b *Random) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	if err := ctx.Err(); err != nil {
		return arlington.Action{}, err
	}
	legal := v.Legal()
	if len(legal) == 0 {
		return arlington.Action{}, fmt.Errorf("%w: seat %d", ErrNoAction, v.Seat)
	}
	return legal[b.r.Intn(len(legal))], nil
}
