package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"cardtable/card"
	"cardtable/spider"
)

// gameFlags are the flags every command that starts a Spider game shares.
type gameFlags struct {
	deal       string
	variant    string
	suits      int
	open       bool
	relaxed    bool
	autoRemove bool
	cheat      string
	reveal     bool
	json       bool
	winnable   bool
}

func (gf *gameFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&gf.deal, "deal", "", "deal number, 1 to 18446744073709551615 (default: a random one)")
	fs.StringVar(&gf.variant, "variant", "arachnid", "arachnid (extra face-down cards on piles 1-4) or spider (on 1, 4, 7, 10)")
	fs.IntVar(&gf.suits, "suits", 4, "suits in play: 1, 2 or 4")
	fs.BoolVar(&gf.open, "open", false, "open tableau: every tableau card face up")
	fs.BoolVar(&gf.relaxed, "relaxed", false, "allow dealing a row while a pile is empty")
	fs.BoolVar(&gf.autoRemove, "autoremove", false, "remove a completed suit at once instead of by choice")
	fs.StringVar(&gf.cheat, "cheat", "none", "Arachnid undo cheat detection: none, newcards or full")
	fs.BoolVar(&gf.reveal, "reveal", false, "show face-down cards and the stock (for analysis)")
	fs.BoolVar(&gf.json, "json", false, "print JSON")
	fs.BoolVar(&gf.winnable, "winnable", false, "pick a random deal the solver has proven winnable")
}

// options turns the flags into game options, reporting bad values as usage
// errors.
func (gf *gameFlags) options() (spider.Options, error) {
	var o spider.Options
	var err error
	if o.Variant, err = spider.ParseVariant(gf.variant); err != nil {
		return o, usageErr("--variant: %v", err)
	}
	if err := card.CheckSuits(gf.suits); err != nil {
		return o, usageErr("--suits: %v", err)
	}
	if o.Cheat, err = spider.ParseCheatLevel(gf.cheat); err != nil {
		return o, usageErr("--cheat: %v", err)
	}
	o.Suits, o.Open, o.Relaxed, o.AutoRemove = gf.suits, gf.open, gf.relaxed, gf.autoRemove
	return o, nil
}

// newGame starts the game the flags describe: the given deal, or a random
// one (shown, so it can be replayed).
func (gf *gameFlags) newGame() (*spider.Game, error) {
	o, err := gf.options()
	if err != nil {
		return nil, err
	}
	n, err := gf.dealNumber()
	if err != nil {
		return nil, err
	}
	return spider.NewGame(n, o)
}

func (gf *gameFlags) dealNumber() (uint64, error) {
	if gf.winnable {
		if gf.deal != "" {
			return 0, usageErr("--winnable picks the deal: it does not go with --deal")
		}
		o, err := gf.options()
		if err != nil {
			return 0, err
		}
		return winnableDeal(o, rand.Uint64())
	}
	if gf.deal == "" {
		return randomDeal(), nil
	}
	n, err := card.ParseDeal(gf.deal)
	if err != nil {
		return 0, usageErr("--deal: %v", err)
	}
	return n, nil
}

// randomDeal picks a deal number for a new game.
func randomDeal() uint64 { return card.RandomDeal(rand.Uint64()) }

func runSpiderNew(fs *pflag.FlagSet) runFunc {
	var gf gameFlags
	gf.register(fs)
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider new: unexpected argument %q", pos[0])
		}
		g, err := gf.newGame()
		if err != nil {
			return err
		}
		if gf.json {
			return writeJSON(env.Stdout, g.View(gf.reveal))
		}
		fmt.Fprint(env.Stdout, renderSpider(g, gf.reveal))
		return nil
	}
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// renderSpider draws the game as text: a header, the piles as columns
// ("##" face down; with reveal or the open variant "|3D"), and with reveal
// the stock rows.
func renderSpider(g *spider.Game, reveal bool) string {
	var b strings.Builder
	v := g.View(reveal)
	deal := "custom position"
	if v.Deal != 0 {
		deal = fmt.Sprintf("deal %d", v.Deal)
	}
	completed := "none"
	if len(v.Completed) > 0 {
		completed = strings.Join(v.Completed, " ")
	}
	title := strings.ToUpper(v.Variant[:1]) + v.Variant[1:]
	fmt.Fprintf(&b, "%s, %s, %s   score %d   moves %d   stock %d   completed: %s\n",
		title, plural(v.Suits, "suit"), deal, v.Score, v.Moves, v.Stock, completed)
	cols := make([][]string, len(v.Piles))
	height := 0
	for k, pv := range v.Piles {
		for j := range pv.Down {
			if pv.Hidden != nil {
				cols[k] = append(cols[k], "|"+pv.Hidden[j])
			} else {
				cols[k] = append(cols[k], "##")
			}
		}
		cols[k] = append(cols[k], pv.Up...)
		if len(cols[k]) == 0 {
			cols[k] = []string{"--"}
		}
		height = max(height, len(cols[k]))
	}
	head := ""
	for k := range cols {
		head += fmt.Sprintf("%4d ", k+1)
	}
	b.WriteString(strings.TrimRight(head, " ") + "\n")
	for j := range height {
		line := ""
		for k := range cols {
			cell := ""
			if j < len(cols[k]) {
				cell = cols[k][j]
			}
			line += fmt.Sprintf("%4s ", cell)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for r, row := range v.StockRows {
		fmt.Fprintf(&b, "row%d: %s\n", r+1, strings.Join(row, " "))
	}
	switch {
	case v.Won:
		fmt.Fprintf(&b, "You won! Score %d.\n", v.Score)
	case v.Stuck:
		fmt.Fprintf(&b, "No moves left. Score %d.\n", v.Score)
	}
	return b.String()
}

const spiderPlayHelp = `commands, one a line (piles are 1 to 10; a short form in brackets):
  move FROM TO [COUNT]  (m) move COUNT cards from the bottom of FROM onto TO
                        (without COUNT: the longest run that TO accepts)
  auto PILE [COUNT]     (a) auto-move the bottom run (or COUNT cards) of PILE:
                        remove a complete suit, else onto the same suit, any
                        suit, then a space
  deal                  (d) deal a row from the stock
  remove PILE           (r) remove the complete suit at the bottom of PILE
  undo [N]              (u) take back N moves (default 1)
  redo [N]              replay N moves taken back (default 1)
  restart               the same deal from the start
  locate CARD           (l) where copies of CARD (such as QH) are visible
  column PILE           (c) the visible cards of PILE
  show                  print the tableau
  save FILE             save the game
  load FILE             load a saved game
  hint                  suggest a move, from what you can see only
  help                  (?) this list
  quit                  (q, exit) stop
lines starting with # are skipped, so a solver's output replays as it is.
`

func runSpiderPlay(fs *pflag.FlagSet) runFunc {
	var gf gameFlags
	gf.register(fs)
	load := fs.String("load", "", "load the game saved in `file` (it sets the deal and options: those flags are refused with it)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("spider play: unexpected argument %q", pos[0])
		}
		var g *spider.Game
		if *load != "" {
			// The save file fixes the deal and every option; a flag that would
			// be silently ignored is refused instead.
			var clash []string
			fs.Visit(func(f *pflag.Flag) {
				switch f.Name {
				case "deal", "variant", "suits", "open", "relaxed", "autoremove", "cheat", "winnable":
					clash = append(clash, "--"+f.Name)
				}
			})
			if len(clash) > 0 {
				verb := "does"
				if len(clash) > 1 {
					verb = "do"
				}
				return usageErr("spider play: %s %s not go with --load: the save file sets the deal and options", strings.Join(clash, ", "), verb)
			}
			if g, err = loadSpider(*load); err != nil {
				return err
			}
		} else if g, err = gf.newGame(); err != nil {
			return err
		}
		s := &spiderSession{g: g, env: env, reveal: gf.reveal, json: gf.json}
		s.show(nil)
		in := newLineReader(env.Stdin)
		for {
			text, err := in.next()
			if err == io.EOF {
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
// mode); one that fails is refused and changes nothing.
func (s *spiderSession) command(ctx context.Context, line string) (quit bool) {
	f := strings.Fields(line)
	verb, args := strings.ToLower(f[0]), f[1:]
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
	case "quit", "exit", "q", "help", "?", "show":
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
	case "locate", "l":
		extra, text, err = s.locate(args)
	case "column", "c":
		extra, text, err = s.column(verb, args)
	case "save":
		extra, text, err = s.save(args)
	case "load":
		text, err = s.load(args)
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
// one language with the server's. Only auto says more than the game shows,
// the move it chose.
func (s *spiderSession) gameCommand(line string) (extra map[string]any, text []string, err error) {
	c, err := spider.ParseCommand(line)
	if err != nil {
		return nil, nil, err
	}
	m, _, err := s.g.Apply(c)
	if err == nil && c.Op == spider.OpAuto {
		text = append(text, "auto: "+m.String())
		extra = map[string]any{"move": m.String()}
	}
	return extra, text, err
}

// locate says which piles show a card, such as QH.
func (s *spiderSession) locate(args []string) (extra map[string]any, text []string, err error) {
	if len(args) != 1 {
		return nil, nil, fmt.Errorf("%w: locate takes one card, such as QH", spider.ErrFormat)
	}
	c, err := card.Parse(args[0])
	if err != nil {
		return nil, nil, err
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
	extra = map[string]any{"card": c.String(), "locations": out}
	if len(where) == 0 {
		text = append(text, fmt.Sprintf("%s: not visible", c))
	} else {
		text = append(text, fmt.Sprintf("%s: visible in %s", c, strings.Join(where, ", ")))
	}
	return extra, text, nil
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
	extra = map[string]any{"pile": n[0], "cards": names}
	text = append(text, fmt.Sprintf("pile %d: %s", n[0], strings.Join(names, " ")))
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
func (s *spiderSession) save(args []string) (extra map[string]any, text []string, err error) {
	if len(args) != 1 {
		return nil, nil, fmt.Errorf("%w: save takes a file name", spider.ErrFormat)
	}
	if err := saveFile(args[0], s.g.Save()); err != nil {
		return nil, nil, err
	}
	return map[string]any{"saved": args[0]}, []string{"saved to " + args[0]}, nil
}

// load replaces the game by the one saved in a file.
func (s *spiderSession) load(args []string) (text []string, err error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("%w: load takes a file name", spider.ErrFormat)
	}
	g, err := loadSpider(args[0])
	if err != nil {
		// In play a bad file is refused like any command; the
		// exit-status mark is for --load.
		msg := strings.TrimPrefix(err.Error(), "usage: ")
		if errors.Is(err, spider.ErrFormat) {
			return nil, renamedErr{msg, err}
		}
		return nil, fmt.Errorf("%w: %s", spider.ErrFormat, msg)
	}
	s.g = g
	return []string{"loaded " + args[0]}, nil
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

// plural is "1 move", "2 moves".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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
