package cli

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/card"
)

// arlParseSet reads cards from one or more arguments ("SQ HT", "QS", "JK"),
// refusing unknown cards and cards given twice as bad input.
func arlParseSet(args []string) (arlington.Set, error) {
	var cs []card.Card
	for _, a := range args {
		a = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(a), "{"), "}")
		list, err := card.ParseList(a)
		if err != nil {
			return 0, badInput(err)
		}
		cs = append(cs, list...)
	}
	if len(cs) == 0 {
		return 0, usageErr("no cards given")
	}
	s, err := arlington.SetOf(cs)
	if err != nil {
		return 0, badInput(err)
	}
	return s, nil
}

// arlSetAnswer is what set --json prints: the engine's analysis and, for
// cards that are no set, why (the words the page shows).
type arlSetAnswer struct {
	arlington.SetInfo
	Why string `json:"why,omitempty"`
}

func runArlingtonSet(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, `print {"legal": bool, "spectra": [...], "points": N}, with "why" when not legal`)
	return func(_ context.Context, env *Env, pos []string) error {
		var err error
		s, err := arlParseSet(pos)
		if err != nil {
			return err
		}
		info := arlington.AnalyzeSet(s)
		if *asJSON {
			b, err := json.Marshal(arlSetAnswer{SetInfo: info, Why: arlington.WhyNotSet(s)})
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, string(b))
			return nil
		}
		if !info.Legal {
			fmt.Fprintf(env.Stdout, "%v: not a legal set\nwhy: %s\n", s, arlington.WhyNotSet(s))
			return nil
		}
		names := make([]string, len(info.Spectra))
		for i, sp := range info.Spectra {
			names[i] = sp.String()
		}
		fmt.Fprintf(env.Stdout, "%v: legal set\nspectra: %s\npoints: %d\n", s, strings.Join(names, " "), info.Points)
		return nil
	}
}

func runArlingtonCompare(fs *pflag.FlagSet) runFunc {
	spName := fs.String("spectrum", "", "the spectrum: aces, multiples, couples or runs (required)")
	return func(_ context.Context, env *Env, pos []string) error {
		var err error
		if *spName == "" {
			return flagErr("compare: --spectrum is required (aces, multiples, couples or runs)")
		}
		sp, err := arlington.ParseSpectrum(*spName)
		if err != nil {
			return flagErr("--spectrum: %w", err)
		}
		if len(pos) != 2 {
			return usageErr(`compare: want two sets, such as "SQ HQ" "7S 7H 7D"; got %s`, plural(len(pos), "argument"))
		}
		a, err := arlParseSet(pos[:1])
		if err != nil {
			return err
		}
		b, err := arlParseSet(pos[1:])
		if err != nil {
			return err
		}
		c, err := arlington.Compare(sp, a, b)
		if err != nil {
			return badInput(err)
		}
		fmt.Fprintln(env.Stdout, map[int]string{1: "higher", 0: "equal", -1: "lower"}[c])
		return nil
	}
}

// arlTableFlags are the flags shared by selfplay and bench.
type arlTableFlags struct {
	players, games, target int
	seats                  string
	seed                   uint64
}

func (f *arlTableFlags) register(fs interface {
	IntVar(*int, string, int, string)
	StringVar(*string, string, string, string)
	Uint64Var(*uint64, string, uint64, string)
}, games int) {
	fs.IntVar(&f.players, "players", 4, "number of players, 2 to 6")
	fs.IntVar(&f.games, "games", games, "number of games")
	fs.IntVar(&f.target, "target", arlington.DefaultTarget, fmt.Sprintf("total score that ends a game, 1 to %d", arlMaxTarget))
	fs.StringVar(&f.seats, "seats", "", "bots by seat, comma-separated: "+strings.Join(bot.Names, ", ")+" (default greedy for every seat); a shorter list repeats")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the first game; game i uses seed+i")
}

// bots makes the seat list and checks the flags.
func (f *arlTableFlags) bots() ([]string, error) {
	if f.players < 2 || f.players > arlington.MaxSeats {
		return nil, flagErr("%s: want 2 to 6", flagValue("players", f.players))
	}
	if f.games < 1 {
		return nil, flagErr("%s: want at least 1", flagValue("games", f.games))
	}
	if err := arlCheckTarget(f.target); err != nil {
		return nil, err
	}
	if f.seed > math.MaxUint64-uint64(f.games-1) {
		return nil, flagErr("%s with %s runs past the largest seed, %d (game i uses seed+i)",
			flagValue("seed", f.seed), flagValue("games", f.games), uint64(math.MaxUint64))
	}
	names := []string{"greedy"}
	if f.seats != "" {
		names = strings.Split(f.seats, ",")
	}
	if len(names) > f.players {
		return nil, flagErr("%s lists %s for %s", flagValue("seats", f.seats), plural(len(names), "bot"), flagValue("players", f.players))
	}
	out := make([]string, f.players)
	for i := range out {
		// The report names each level as the lobby does, however typed.
		out[i] = strings.ToLower(strings.TrimSpace(names[i%len(names)]))
		if _, err := bot.New(out[i], 0); err != nil {
			return nil, flagErr("--seats: %w", err)
		}
	}
	return out, nil
}

// arlMaxTarget bounds --target. The rules' target is 32; a game's cost
// grows faster than its length (each view carries every finished hand),
// so on the 2-core development machine a 6-player game to 1000 takes a few
// seconds and one to 100,000 would take hours.
const arlMaxTarget = arlington.MaxTarget

// arlCheckTarget refuses a --target outside 1 to arlMaxTarget, the same
// for every subcommand.
func arlCheckTarget(t int) error {
	if t < 1 || t > arlMaxTarget {
		return flagErr("%s: want 1 to %d (the rules play to %d)", flagValue("target", t), arlMaxTarget, arlington.DefaultTarget)
	}
	return nil
}

func arlMakeBots(names []string, seed uint64) []bot.Bot {
	out := make([]bot.Bot, len(names))
	for i, n := range names {
		out[i], _ = bot.New(n, bot.SeatSeed(seed, i))
	}
	return out
}

func runArlingtonBench(fs *pflag.FlagSet) runFunc {
	var f arlTableFlags
	f.register(fs, 200)
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("unexpected argument %q", pos[0])
		}
		names, err := f.bots()
		if err != nil {
			return err
		}
		actions := 0
		start := time.Now()
		if err := f.playGames(ctx, names, nil, func(s *arlington.State) { actions += len(s.History()) }); err != nil {
			return err
		}
		sec := time.Since(start).Seconds()
		fmt.Fprintf(env.Stdout, "arlington bench: %d players (%s), %d games, %d actions in %.2f s: %.1f games/s, %.0f actions/s\n",
			f.players, strings.Join(names, ","), f.games, actions, sec, float64(f.games)/sec, float64(actions)/sec)
		return nil
	}
}

// playGames plays the flags' games with the named bots, seeds counting up
// from --seed, calling check after every action (if not nil) and done with
// each finished game. It stops at the first error or when ctx ends.
func (f *arlTableFlags) playGames(ctx context.Context, names []string, check func(*arlington.State) error, done func(*arlington.State)) error {
	cfg := arlington.Config{Players: f.players, Target: f.target}
	for g := range f.games {
		if err := ctx.Err(); err != nil {
			return err
		}
		seed := f.seed + uint64(g)
		s, err := bot.Play(ctx, cfg, seed, arlMakeBots(names, seed), check)
		if err != nil {
			return fmt.Errorf("game %d (seed %d): %w", g+1, seed, err)
		}
		done(s)
	}
	return nil
}

// arlSeed reads a --seed value, or picks an unguessable one when empty:
// a seed from the clock could be found by trying the nanoseconds around
// the start until one deals the player's own hand, and with it every
// other hand.
func arlSeed(s string) (uint64, error) {
	if s == "" {
		var b [8]byte
		_, _ = crand.Read(b[:]) // never fails (crypto/rand.Read documents it)
		return binary.LittleEndian.Uint64(b[:]), nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, flagErr("--seed must be a whole number, not %q", s)
	}
	return n, nil
}
