package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/internal/ascii"
	"cardtable/spider"
)

// spider play: a game in the terminal, one command a line, in text or
// JSON. The game's own commands are the server's language (spider.Command);
// the rest (locate, column, save, load, help) are the terminal's.

const spiderPlayHelp = `commands, one a line (piles are 1 to 10; other names in brackets):
  move FROM TO [COUNT]  (m) move COUNT cards from the bottom of FROM onto TO
                        (without COUNT: the longest run that TO accepts)
  auto PILE [COUNT]     (a) auto-move the bottom run (or COUNT cards) of PILE:
                        remove a complete suit, else onto the same suit, any
                        suit, then a space
  deal                  (d) deal a row from the stock
  remove PILE           (r) remove the complete suit at the bottom of PILE
  undo [N]              (u) take back N moves (default 1)
  redo [N]              play again N moves taken back (default 1)
  restart               (replay) the same deal from the start
  new [DEAL]            a new game with these options: deal DEAL, else a
                        random one (this game is left unsaved)
  locate CARD           (l) where copies of CARD (such as QH) are visible,
                        and how many are in completed suits
  column PILE           (c) the visible cards of PILE, and its face-down count
  show                  print the tableau
  save [FILE]           save the game (without FILE: to the file this game
                        was last saved to or loaded from)
  load FILE             load a saved game
  hint                  suggest a move, from what you can see only
  score                 how the score is made up
  cheat [LEVEL]         this game's cheat detection; with LEVEL (none,
                        newcards, full) the one new games take
  help                  (?) this list
  quit                  (q, exit) stop
lines starting with # are skipped, so a solver's output replays as it is.
`

// runSpiderPlay starts the game (a deal, or --load) and runs the lines of
// standard input until it ends or a quit.
func runSpiderPlay(fs *pflag.FlagSet) runFunc {
	var gf gameFlags
	gf.register(fs)
	load := fs.String("load", "", "load the game saved in `file` (it sets the deal and options: those flags are refused with it)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider play: unexpected argument %q (a saved game is read with --load FILE)", pos[0])
		}
		var g *spider.Game
		if *load != "" {
			// The save file fixes the deal and every option; a flag that would
			// be silently ignored is refused instead.
			clash := setAmong(fs, "deal", "variant", "suits", "open", "relaxed", "autoremove", "cheat", "winnable")
			if len(clash) > 0 {
				verb := "does"
				if len(clash) > 1 {
					verb = "do"
				}
				return flagErr("spider play: %s %s not go with --load: the save file sets the deal and options", strings.Join(clash, ", "), verb)
			}
			if g, err = loadSpider(*load); err != nil {
				return err
			}
		} else if g, err = gf.newGame(); err != nil {
			return err
		}
		s := &spiderSession{g: g, env: env, reveal: gf.reveal, json: gf.json, file: *load, winnable: gf.winnable, cheat: g.Options().Cheat}
		s.show(nil)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // ends the input's goroutine
		in := newLineFeed(ctx, env.Stdin)
		// A person at a terminal is asked for each line, as in Arlington's
		// terminal play: without it the screen ended on the tableau or a
		// refusal, with no sign that the program was waiting. A script's
		// input, and the JSON lines, get none.
		prompts := !gf.json && inputIsTerminal(env.Stdin)
		for {
			if prompts {
				fmt.Fprint(env.Stdout, "> ")
			}
			text, err := in.next(ctx)
			if err == io.EOF {
				if prompts {
					// Ctrl+D at the prompt: the shell's own prompt
					// starts a line of its own, not after "> ".
					fmt.Fprintln(env.Stdout)
				}
				return nil
			}
			var long *longLineError
			if errors.As(err, &long) {
				// Refused like a bad command: the game goes on.
				s.refuse(err)
				continue
			}
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			line := strings.TrimSpace(text)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if quit := s.command(ctx, line); quit {
				return nil
			}
		}
	}
}

// loadSpider reads a save file; the Spider variant stops scoring on load.
func loadSpider(path string) (*spider.Game, error) {
	b, err := readInputFile(path, maxSpiderSave, "a Spider save file")
	if err != nil {
		return nil, err
	}
	g, err := spider.Load(string(b))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errUsage, path, err)
	}
	g.MarkLoaded()
	return g, nil
}

// spiderSession is one terminal game.
type spiderSession struct {
	g      *spider.Game
	env    *Env
	reveal bool
	json   bool
	// file is the file this game was last saved to or loaded from, which
	// save without a name writes (the Amiga's Save beside its Save As);
	// empty after new.
	file string
	// winnable and cheat are for the games new starts: from the proven-
	// winnable deals as play began, and the cheat level chosen for them
	// (at first the starting game's; load leaves it).
	winnable bool
	cheat    spider.CheatLevel
}

// show prints the state, with extra fields in JSON mode or lines of text
// before the tableau.
func (s *spiderSession) show(extra map[string]any, text ...string) {
	if s.json {
		out := map[string]any{}
		b, _ := json.Marshal(s.g.View(s.reveal))
		_ = json.Unmarshal(b, &out)
		for k, v := range extra {
			out[k] = v
		}
		_ = writeJSON(s.env.Stdout, out)
		return
	}
	for _, t := range text {
		fmt.Fprintln(s.env.Stdout, t)
	}
	fmt.Fprint(s.env.Stdout, renderSpider(s.g, s.reveal))
}

func (s *spiderSession) refuse(err error) {
	if s.json {
		_ = writeJSON(s.env.Stdout, map[string]string{"error": err.Error()})
		return
	}
	fmt.Fprintln(s.env.Stdout, "refused:", err)
}

// command runs one line; it reports whether play should end. A command
// that succeeds shows the game after its own lines (extra fields in JSON
// mode), except quit, which shows nothing, and help, which in text mode
// prints the help alone (in JSON mode the help is the game's "message");
// one that fails is refused and changes nothing.
func (s *spiderSession) command(ctx context.Context, line string) (quit bool) {
	f := strings.Fields(line)
	verb, args := ascii.Lower(f[0]), f[1:]
	// A file name is the rest of the line, spaces and all ("save my
	// game.txt"), as in Arlington's terminal play.
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
	var err error
	var extra map[string]any
	var text []string
	if spider.IsCommand(verb) {
		extra, text, err = s.gameCommand(line)
		verb = "" // handled
	}
	// Commands that take nothing refuse an argument rather than ignore it:
	// "quit now" or "restart 3" may be typos for something else.
	switch verb {
	case "quit", "exit", "q", "help", "?", "show", "score", "replay":
		if len(args) > 0 {
			s.refuse(fmt.Errorf("%w: %s takes no arguments", spider.ErrFormat, verb))
			return false
		}
	}
	switch verb {
	case "quit", "exit", "q":
		return true
	case "help", "?":
		if s.json {
			extra = map[string]any{"message": spiderPlayHelp}
		} else {
			fmt.Fprint(s.env.Stdout, spiderPlayHelp)
			return false
		}
	case "show", "":
	case "replay":
		// The Amiga Arachnid's name for restart (Arachnid.help 1.14), a
		// word of the terminal's, not of the server's language.
		extra, text, err = s.gameCommand("restart")
	case "locate", "l":
		extra, text, err = s.locate(args)
	case "column", "c":
		extra, text, err = s.column(verb, args)
	case "save":
		extra, text, err = s.save(rest)
	case "load":
		text, err = s.load(rest)
	case "new":
		extra, text, err = s.newGame(args)
	case "cheat":
		extra, text, err = s.cheatLevel(args)
	case "score":
		extra, text, err = s.scoreLines()
	default:
		extra, text, err = s.extraCommand(ctx, verb, args)
	}
	if err != nil {
		if errors.Is(err, spider.ErrNothing) {
			err = fmt.Errorf("%w", err)
		}
		s.refuse(err)
		return false
	}
	s.show(extra, text...)
	return false
}

// gameCommand runs one of the game's own commands (moves, deal, undo...):
// one language with the server's. Its JSON line carries the move played
// in full notation, as the API's answer does (none for undo, redo and
// restart); the text says it only for auto, the one command whose move
// the player did not spell out.
func (s *spiderSession) gameCommand(line string) (extra map[string]any, text []string, err error) {
	c, err := spider.ParseCommand(line)
	if err != nil {
		return nil, nil, err
	}
	before := s.g.Score()
	m, moved, err := s.g.Apply(c)
	if err != nil {
		return nil, nil, err
	}
	text = scoreMarked(before, s.g)
	if !moved {
		return nil, text, nil
	}
	if c.Op == spider.OpAuto {
		text = append(text, "auto: "+m.String())
	}
	return map[string]any{"move": m.String()}, text, nil
}

// scoreMarked says so when a command halved the score (Arachnid's cheat
// detection) or stopped it (Spider), as the page does: the header's mark
// alone is easily missed.
func scoreMarked(before spider.GameScore, g *spider.Game) []string {
	after := g.Score()
	switch {
	case after.Cheated && !before.Cheated:
		level := map[spider.CheatLevel]string{spider.CheatFull: "full detection", spider.CheatNewCards: "new cards only"}[g.Options().Cheat]
		return []string{fmt.Sprintf("cheating detected (%s): the score is halved from now on", level)}
	case after.Stopped && !before.Stopped:
		return []string{fmt.Sprintf("scoring stopped: in Spider an undo, restart or load ends this game's scoring at %d", after.Counted)}
	}
	return nil
}

// locate says which piles show a card, such as QH.
func (s *spiderSession) locate(args []string) (extra map[string]any, text []string, err error) {
	if len(args) != 1 {
		return nil, nil, fmt.Errorf("%w: locate takes one card, such as QH", spider.ErrFormat)
	}
	c, err := card.Parse(args[0])
	if err != nil {
		// card.Parse's words offer a joker (JK), which Spider has not;
		// its error stays in the chain.
		return nil, nil, renamedErr{fmt.Sprintf("bad card %q: want a rank and a suit, such as QH, TS or 10S", args[0]), err}
	}
	if c.IsJoker() {
		return nil, nil, fmt.Errorf("%w: there are no jokers in Spider", spider.ErrFormat)
	}
	out := []map[string]int{}
	var where []string
	for _, l := range s.g.Locate(c) {
		out = append(out, map[string]int{"pile": l.Pile + 1, "index": l.Index})
		where = append(where, fmt.Sprintf("pile %d", l.Pile+1))
	}
	// Copies in the completed suits are counted, as the page's Locate
	// card does: a card not visible may be out of play for good.
	completed := 0
	for _, su := range s.g.Pos().Removed(nil) {
		if su == c.Suit() {
			completed++
		}
	}
	extra = map[string]any{"card": c.String(), "locations": out, "completedCopies": completed}
	line := fmt.Sprintf("%s: not visible", c)
	if len(where) > 0 {
		line = fmt.Sprintf("%s: visible in %s", c, strings.Join(where, ", "))
	}
	if completed > 0 {
		line += fmt.Sprintf("; %d in a completed suit", completed)
	}
	return extra, append(text, line), nil
}

// column lists the cards of one pile, as far as the player sees them.
func (s *spiderSession) column(verb string, args []string) (extra map[string]any, text []string, err error) {
	n, err := pileArgs(verb, args, 1, 0)
	if err != nil {
		return nil, nil, err
	}
	if n[0] > spider.Piles {
		return nil, nil, fmt.Errorf("%w: piles are 1 to 10", spider.ErrFormat)
	}
	cs := s.g.Column(n[0] - 1)
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	// The face-down count, as the page's pile label gives it; with an
	// open tableau those cards are listed too, first.
	down := s.g.View(false).Piles[n[0]-1].Down
	extra = map[string]any{"pile": n[0], "down": down, "cards": names}
	text = append(text, fmt.Sprintf("pile %d (%d face down): %s", n[0], down, strings.Join(names, " ")))
	return extra, text, nil
}

// pileArgs reads verb's arguments as pile numbers from 1 up: want of
// them, then up to optional more.
func pileArgs(verb string, args []string, want, optional int) ([]int, error) {
	if len(args) < want || len(args) > want+optional {
		what := fmt.Sprintf("%d or %d numbers", want, want+optional)
		switch {
		case optional == 0:
			what = plural(want, "number")
		case want == 0:
			what = "at most " + plural(optional, "number")
		}
		return nil, fmt.Errorf("%w: %s takes %s", spider.ErrFormat, verb, what)
	}
	out := make([]int, len(args))
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%w: %q is not a number from 1 up", spider.ErrFormat, a)
		}
		out[i] = n
	}
	return out, nil
}

// save writes the game to a file.
func (s *spiderSession) save(name string) (extra map[string]any, text []string, err error) {
	if name == "" {
		name = s.file
	}
	if name == "" {
		return nil, nil, fmt.Errorf("%w: save takes a file name (once this game is saved or loaded, save alone writes that file again)", spider.ErrFormat)
	}
	if err := saveFile(name, s.g.Save()); err != nil {
		return nil, nil, err
	}
	s.file = name
	return map[string]any{"saved": name}, []string{"saved to " + name}, nil
}

// load replaces the game by the one saved in a file.
func (s *spiderSession) load(name string) (text []string, err error) {
	if name == "" {
		return nil, fmt.Errorf("%w: load takes a file name", spider.ErrFormat)
	}
	g, err := loadSpider(name)
	if err != nil {
		// In play a bad file is refused like any command; the
		// exit-status mark is for --load. A file that cannot be read (not
		// there, a directory, too big) is said as such: no format fault.
		return nil, renamedErr{strings.TrimPrefix(err.Error(), "usage: "), err}
	}
	// Say a Spider game's stop; a cheat mark the save brings was not
	// detected now. The level for new games (cheat LEVEL) is a setting,
	// as on the page: the loaded game's own level does not reset it.
	before := spider.GameScore{Cheated: g.Cheated()}
	s.g, s.file = g, name
	return append([]string{"loaded " + name}, scoreMarked(before, g)...), nil
}

// extraCommand runs a command another package added (spiderExtraCommands);
// any other word is an unknown command.
func (s *spiderSession) extraCommand(ctx context.Context, verb string, args []string) (extra map[string]any, text []string, err error) {
	h, ok := spiderExtraCommands[verb]
	if !ok {
		return nil, nil, fmt.Errorf("%w: unknown command %q (try help)", spider.ErrFormat, verb)
	}
	if len(args) > 0 {
		return nil, nil, fmt.Errorf("%w: %s takes no arguments", spider.ErrFormat, verb)
	}
	msg, err := h(ctx, s.g)
	if err != nil {
		return nil, nil, err
	}
	return map[string]any{"message": msg}, []string{msg}, nil
}

// spiderExtraCommands are terminal-play commands that other packages add
// (the solver's hint); each returns a message to print.
var spiderExtraCommands = map[string]func(ctx context.Context, g *spider.Game) (string, error){}

// renamedErr is err with the message msg.
type renamedErr struct {
	msg string
	err error
}

func (e renamedErr) Error() string { return e.msg }
func (e renamedErr) Unwrap() error { return e.err }
