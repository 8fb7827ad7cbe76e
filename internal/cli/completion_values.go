package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/spider"
)

// flagChoices are the values of the flags that take one of a few words,
// by flag name and type (the same name and type mean the same values in
// every command; --bots of the load benchmarks, a number, is another
// flag): shell completion offers them after the flag, where it offered
// the directory's files. A list flag (bots by seat, comma-separated)
// offers them after its last comma.
var flagChoices = map[string]struct {
	kind   string // the flag's pflag type
	values []string
	list   bool
}{
	"variant":    {kind: "string", values: names(spider.Arachnid, spider.Spider)},
	"suits":      {kind: "int", values: []string{"1", "2", "4"}},
	"cheat":      {kind: "string", values: names(spider.CheatNone, spider.CheatNewCards, spider.CheatFull)},
	"mode":       {kind: "string", values: []string{"solve", "autoplay"}},
	"player":     {kind: "string", values: []string{"greedy", "fair"}},
	"spectrum":   {kind: "string", values: names(arlington.Spectra[:]...)},
	"log-format": {kind: "string", values: []string{"text", "json"}},
	"bot":        {kind: "string", values: bot.Names},
	"bot-level":  {kind: "string", values: bot.Names},
	"bots":       {kind: "string", values: bot.Names, list: true},
	"seats":      {kind: "string", values: bot.Names, list: true},
}

// names are the words of vs, as the rules packages write (and read) them.
func names[T fmt.Stringer](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// newTableSeats is new-table's --seats: a seat is a person's too.
var newTableSeats = append([]string{"human"}, bot.Names...)

// completeFlagValues registers flagChoices' completions on every command
// of the tree under c that has such a flag.
func completeFlagValues(c *cobra.Command) {
	for name, ch := range flagChoices {
		f := c.LocalFlags().Lookup(name)
		if f == nil || f.Value.Type() != ch.kind {
			continue
		}
		values := ch.values
		if name == "seats" && c.Name() == "new-table" {
			values = newTableSeats
		}
		_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
			prefix := ""
			if ch.list {
				if i := strings.LastIndex(typed, ","); i >= 0 {
					prefix = typed[:i+1]
				}
			}
			var out []string
			for _, v := range values {
				out = append(out, prefix+v)
			}
			if ch.list {
				// Another seat's level may follow: no space after it.
				return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		})
	}
	for _, sub := range c.Commands() {
		completeFlagValues(sub)
	}
}
