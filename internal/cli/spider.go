package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
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
	fs.BoolVar(&gf.open, "open", false, "open tableau: every tableau card shown (the covered ones, marked |, still move as face-down cards do)")
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
		return o, flagErr("--variant: %w", err)
	}
	if err := card.CheckSuits(gf.suits); err != nil {
		return o, flagErr("--suits: %w", err)
	}
	if o.Cheat, err = spider.ParseCheatLevel(gf.cheat); err != nil {
		return o, flagErr("--cheat: %w", err)
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
			return 0, flagErr("--winnable picks the deal: it does not go with --deal")
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
		return 0, flagErr("--deal: %w", err)
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
// the stock rows. A column is 4 characters wide, the widest cell ("|QS")
// and a space, so the piles fit a terminal of 40 columns (a phone's, a
// split pane): at 5, the tenth pile wrapped onto the next line there.
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
	mark := ""
	switch {
	case v.Breakdown.Stopped:
		mark = " (frozen)" // Spider: scoring stopped at an undo, restart or load
	case v.Breakdown.Cheated:
		mark = " (halved)" // Arachnid: cheating detected
	}
	fmt.Fprintf(&b, "%s, %s, %s   score %d%s   moves %d   stock %d   completed: %s\n",
		title, plural(v.Suits, "suit"), deal, v.Score, mark, v.Moves, v.Stock, completed)
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
		head += fmt.Sprintf("%3d ", k+1)
	}
	b.WriteString(strings.TrimRight(head, " ") + "\n")
	for j := range height {
		line := ""
		for k := range cols {
			cell := ""
			if j < len(cols[k]) {
				cell = cols[k][j]
			}
			line += fmt.Sprintf("%3s ", cell)
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

// plural is "1 move", "2 moves".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
