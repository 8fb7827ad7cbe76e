package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
)

const arlPlayHelp = `commands (one a line):
  help              this list
  show              the table, your hand and whose turn it is
  legal             list your legal actions, numbered
  N                 take legal action number N from the last 'legal' list
  hint              what the hard bot would do in your place (it thinks
                    for up to half a second)
  auto              let the greedy bot take this action for you
  record            print the game record so far (its seed only once
                    the game is over, or if you gave --seed); it is data,
                    so its seats count from 0
  save FILE         save the game record to FILE, to continue later with
                    --load FILE; the file holds the seed, which reveals
                    every hand, so do not read it while playing on
  quit, q           stop playing
` + arlActionsHelp

// arlActionsHelp is the part of the help that names the actions: the
// same for terminal play against bots and at an online table.
const arlActionsHelp = `actions (seats and the sets on a table count from 1; SEAT/SET names a set):
  lead 7H           lead a card (you have the lead)
  play 7H           play a card to the trick
  set runs 7H 8H 9H lead a set, naming its spectrum (aces, multiples,
                    couples, runs); without a name a single card is led as a
                    card and a larger set is in the first spectrum it fits;
                    in a set round, respond with a higher set
  pass              pass on the active set
  kill              kill the active set with the S2 (when you hold it)
  s2 3/1            play the S2 on set 1 of seat 3's table
  add 7H 3/1        add the 7H to set 1 of seat 3's table
  pickup 7H 3/1     swap the 7H for the joker in set 1 of seat 3's table
cards: rank and suit in either order (7H, H7, TS, 10S, QS, SQ), JK for a joker.`

func runArlingtonPlay(fs *pflag.FlagSet) runFunc {
	players := fs.Int("players", 4, "number of players, 2 to 6")
	seedText := fs.String("seed", "", "seed of the game (default: an unguessable one, shown at the end)")
	seat := fs.Int("seat", 1, "your seat, 1 to --players")
	botsText := fs.String("bots", "medium", "bots for the other seats, comma-separated ("+strings.Join(bot.Names, ", ")+"); a shorter list repeats")
	botSeedText := fs.String("bot-seed", "", "seed of the bots' own choices, apart from the deal (default: unguessable)")
	target := fs.Int("target", arlington.DefaultTarget, fmt.Sprintf("total score that ends the game, 1 to %d", arlMaxTarget))
	load := fs.String("load", "", "continue the game saved in `file` (it fixes players, target and seed; those flags are refused with it)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("play: unexpected argument %q", pos[0])
		}
		var s *arlington.State
		if *load != "" {
			// The record fixes these; a flag that disagreed would be dropped
			// without a word, so any of them is refused.
			fixed := setAmong(fs, "players", "target", "seed")
			if len(fixed) > 0 {
				return flagErr("%s and --load do not go together: the saved game fixes its players, target and seed", strings.Join(fixed, ", "))
			}
			if s, err = arlLoad(*load); err != nil {
				return err
			}
			*players = s.Players()
		} else if err := arlCheckTarget(*target); err != nil {
			return err
		}
		if *players < 2 || *players > arlington.MaxSeats {
			return flagErr("%s: want 2 to 6", flagValue("players", *players))
		}
		if *seat < 1 || *seat > *players {
			return flagErr("%s: want 1 to %d", flagValue("seat", *seat), *players)
		}
		me := *seat - 1 // the engine counts seats from 0
		if s == nil {
			seed, err := arlSeed("seed", *seedText)
			if err != nil {
				return err
			}
			if s, err = arlington.New(arlington.Config{Players: *players, Target: *target}, seed); err != nil {
				return badInput(err)
			}
		}
		// The bots' generators are seeded apart from the deal, so that no
		// bot's seed says anything about the cards.
		botSeed, err := arlSeed("bot-seed", *botSeedText)
		if err != nil {
			return err
		}
		names := strings.Split(*botsText, ",")
		bots := make([]bot.Bot, *players)
		levels := make([]string, *players) // as the player named them
		k := 0
		for i := range bots {
			if i == me {
				continue
			}
			typed := strings.TrimSpace(names[k%len(names)])
			b, err := bot.New(typed, bot.SeatSeed(botSeed, i)) // quotes it as typed
			if err != nil {
				return flagErr("--bots: %w", err)
			}
			levels[i] = strings.ToLower(typed)
			bots[i] = b
			k++
		}
		hard, _ := bot.LevelNamed("hard")
		p := &arlPlayer{env: env, s: s, me: me, bots: bots, levels: levels, helper: bot.NewGreedy(bot.SeatSeed(botSeed, me)),
			hinter:    bot.NewSearch(hard, bot.SeatSeed(botSeed, *players)),
			seedKnown: *seedText != ""}
		return p.run(ctx)
	}
}

// arlLoad reads a saved game. Errors say whether the file could not be
// read or which line is wrong.
func arlLoad(name string) (*arlington.State, error) {
	b, err := readInputFile(name, maxArlSave, "an Arlington save file")
	if err != nil {
		return nil, err
	}
	_, s, err := arlington.Load(bytes.NewReader(b))
	if err != nil {
		return nil, badInput(fmt.Errorf("%s: %w", name, err))
	}
	return s, nil
}

type arlPlayer struct {
	env    *Env
	s      *arlington.State
	me     int // the player's seat, from 0
	bots   []bot.Bot
	levels []string    // each bot's level as the player named it
	helper *bot.Greedy // plays 'auto'
	hinter bot.Bot     // answers 'hint'
	in     *lineFeed
	inErr  error // why input ended (io.EOF at its end)
	// prompts: standard input is a terminal, so a person reads the "> "
	// prompt; a script piped in gets none in its output.
	prompts bool
	auto    bool // the action being taken came from 'auto'
	legal   []arlington.Action
	// nar tells the public events in the words of the page's log
	// (arlington.Narrator); it has told every event before nar.Told().
	nar *arlington.Narrator
	// prompted is set once the position has been shown since the last
	// action.
	prompted bool
	// seedKnown is set when the player chose the seed (--seed): only then
	// may a live game's seed be shown, as it determines every hand.
	seedKnown bool
}

func (p *arlPlayer) out(format string, args ...any) { fmt.Fprintf(p.env.Stdout, format, args...) }

func (p *arlPlayer) run(ctx context.Context) error {
	seed := "seed shown at the end"
	if p.seedKnown {
		seed = fmt.Sprintf("seed %d", p.s.Seed())
	}
	p.out("Arlington: %d players, you are seat %d, %s, target %d. Type 'help' for commands.\n",
		p.s.Players(), arlSeat(p.me), seed, p.s.Config().Target)
	p.nar = arlington.NewNarrator(p.seatNames())
	if n := len(p.s.History()); n > 0 {
		p.out("continuing after %d actions, hand %d\n", n, p.s.HandNumber())
		// The narrator follows the whole game (an added card names its
		// set); what was played before the save is not told again.
		for _, e := range p.s.Events(0) {
			p.nar.Tell(e)
		}
	}
	// A new game's first line, the first deal's event, tells the cut.
	// One game loop for bots and people (bot.Run): the player is the
	// seat whose Act reads commands.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the input's goroutine
	p.in = newLineFeed(ctx, p.env.Stdin)
	p.prompts = inputIsTerminal(p.env.Stdin)
	seats := append([]bot.Bot(nil), p.bots...)
	seats[p.me] = (*arlHuman)(p)
	p.tell("")
	err := bot.Run(ctx, p.s, seats, func(seat int, a arlington.Action) error {
		mark := ""
		if seat == p.me && p.auto {
			mark = "auto: "
		}
		p.tell(mark)
		p.legal = nil
		p.prompted = false
		p.auto = false
		return nil
	})
	switch {
	case errors.Is(err, errArlQuit):
		p.out("stopped; the record so far:\n%s%s", recordNote, p.record())
		return nil
	case errors.Is(err, errArlInputEnded):
		p.out("\ninput ended before the game did\n")
		if p.inErr == io.EOF {
			return nil
		}
		return p.inErr
	case err != nil:
		return err
	}
	p.out("game over after %s (seed %d). totals: %s\n", plural(p.s.HandNumber(), "hand"), p.s.Seed(), arlInts(p.s.Totals()))
	p.out("%s\n", arlWinners(p.s.Winners(), p.s.Totals(), p.levels, p.me))
	return nil
}

func arlInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}

// seatNames are the seats as the narration names them: numbered from 1,
// as the commands number them ("add 7H 3/1"), with the bot's level or
// "you".
func (p *arlPlayer) seatNames() []string {
	names := make([]string, p.s.Players())
	for i := range names {
		if i == p.me {
			names[i] = fmt.Sprintf("seat %d (you)", arlSeat(i))
		} else {
			names[i] = fmt.Sprintf("seat %d (%s)", arlSeat(i), p.levels[i])
		}
	}
	return names
}

// tell prints the public events not yet told, one sentence each, in the
// words of the table page's log; mark goes before the first (it says an
// action came from 'auto'). A scored hand is followed by the totals.
func (p *arlPlayer) tell(mark string) {
	for _, e := range p.s.Events(p.nar.Told()) {
		p.out("%s%s\n", mark, p.nar.Tell(e))
		mark = ""
		if e.Kind == arlington.EventScore {
			// An action scores at most one hand, so the totals now are
			// the totals after it.
			p.out("totals after hand %d: %s\n", e.Hand, arlInts(p.s.Totals()))
		}
	}
}

// arlHuman is the player's seat in the game loop: its Act reads commands
// until one is an action the rules allow.
type arlHuman arlPlayer

// Name is "you".
func (*arlHuman) Name() string { return "you" }

var (
	errArlQuit       = errors.New("the player quit")
	errArlInputEnded = errors.New("input ended")
)

// Act prompts and reads lines, answering commands, until the player gives
// an action the rules allow (a refusal is reported and asked again).
func (h *arlHuman) Act(ctx context.Context, _ arlington.View) (arlington.Action, error) {
	p := (*arlPlayer)(h)
	for {
		if err := ctx.Err(); err != nil {
			return arlington.Action{}, err
		}
		if !p.prompted {
			p.show()
			p.prompted = true
		}
		if p.prompts {
			p.out("> ")
		}
		text, err := p.in.next(ctx)
		if ctx.Err() != nil {
			return arlington.Action{}, ctx.Err()
		}
		var long *longLineError
		if errors.As(err, &long) {
			p.out("%v\n", err)
			continue
		}
		if err != nil {
			p.inErr = err
			return arlington.Action{}, errArlInputEnded
		}
		a, quit, err := p.command(ctx, strings.TrimSpace(text))
		switch {
		case err != nil:
			return arlington.Action{}, err
		case quit:
			return arlington.Action{}, errArlQuit
		case a != nil:
			if err := p.s.Check(p.me, *a); err != nil {
				var re *arlington.RuleError
				if errors.As(err, &re) {
					p.out("refused, rule %q: %s\n", re.Rule, re.Reason)
					if why := arlSetWhy(*a); why != "" {
						p.out("why: %s\n", why)
					}
					p.auto = false
					continue
				}
				return arlington.Action{}, err
			}
			return *a, nil
		}
	}
}

// command handles one line: an action to take, a request to stop, or
// neither (the command was answered here).
func (p *arlPlayer) command(ctx context.Context, line string) (act *arlington.Action, quit bool, err error) {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "":
		return nil, false, nil
	case "help", "?", "show", "legal", "hint", "auto", "record", "quit", "q", "exit":
		// An argument is refused, not ignored: "quit now" or "auto 3"
		// may mean something else (as in Spider's terminal play).
		if rest != "" {
			p.out("%s takes no arguments\n", word)
			return nil, false, nil
		}
	}
	switch strings.ToLower(word) {
	case "help", "?":
		p.out("%s\n", arlPlayHelp)
		return nil, false, nil
	case "show":
		p.show()
		return nil, false, nil
	case "legal":
		p.legal = p.s.Legal(p.me)
		for i, a := range p.legal {
			p.out("%3d  %s\n", i+1, arlActionText(a))
		}
		return nil, false, nil
	case "hint":
		// The hard bot's choice from the player's own view; it thinks at
		// most its level's time.
		a, err := p.hinter.Act(ctx, p.s.View(p.me))
		if err != nil {
			return nil, false, err
		}
		p.out("the %s bot would play: %s\n", p.hinter.Name(), arlActionText(a))
		return nil, false, nil
	case "auto":
		a, err := p.helper.Act(ctx, p.s.View(p.me))
		if err != nil {
			return nil, false, err
		}
		p.auto = true
		return &a, false, nil
	case "record":
		p.out("%s%s", recordNote, p.record())
		return nil, false, nil
	case "save":
		if rest == "" {
			p.out("usage: save FILE\n")
			return nil, false, nil
		}
		// The file must hold the seed to continue the game; it is written
		// but not shown (see docs/rules-arlington.md, "Terminal play").
		if err := saveFile(rest, p.s.Record().String()); err != nil {
			p.out("%v\n", err)
			return nil, false, nil
		}
		p.out("saved to %s; continue with --load %s\n", rest, rest)
		if !p.seedKnown && !p.s.Terminal() {
			p.out("(the file holds the seed, which reveals every hand: do not read it while you play on)\n")
		}
		return nil, false, nil
	case "quit", "q", "exit":
		return nil, true, nil
	}
	if n, err := strconv.Atoi(line); err == nil {
		if n < 1 || n > len(p.legal) {
			p.out("no action %d: type 'legal' for the numbered list\n", n)
			return nil, false, nil
		}
		a := p.legal[n-1]
		return &a, false, nil
	}
	a, err := arlParseAction(line, p.s.Players())
	if err != nil {
		p.out("%v\ntype 'help' for commands\n", err)
		return nil, false, nil
	}
	return &a, false, nil
}

// arlSetWhy is why the cards of a refused set are no set at all (the
// words of 'arlington set' and the page), "" for another action or for
// a set refused for something else (not in hand, not higher, another
// spectrum's).
func arlSetWhy(a arlington.Action) string {
	if a.Kind != arlington.PlaySet {
		return ""
	}
	return arlington.WhyNotSet(a.Set)
}

// recordNote heads a record printed among lines that count seats from 1:
// the record is the save file's data format, which counts from 0
// (docs/cli.md); a '#' line, so the text still loads.
const recordNote = "# the game record: data, so seats count from 0 (seat 1 above is 0 here)\n"

// record is the game record as the player may see it: with the seed
// once the game is over or if the player chose it, else with the seed line
// replaced by a comment (use save to keep a game that can continue).
func (p *arlPlayer) record() string {
	text := p.s.Record().String()
	if p.seedKnown || p.s.Terminal() {
		return text
	}
	seedLine := fmt.Sprintf("seed %d\n", p.s.Seed())
	return strings.Replace(text, seedLine, "# seed hidden until the game is over ('save FILE' keeps it)\n", 1)
}
