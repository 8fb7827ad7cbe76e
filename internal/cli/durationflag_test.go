package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestDurationFlagsSayTyped: every duration flag's error quotes the value
// as typed, and says what the flag takes: the range for a value out of
// it, the form for one that does not parse. A value out of range was
// quoted as parsed and written back ("-90s" as "-1m30s", "0.5s" as
// "500ms"): not what the user typed, so not found in their command.
func TestDurationFlagsSayTyped(t *testing.T) {
	const form = `is not a duration: want a number with a unit, such as 500ms, 30s, 5m or 1h30m`
	for _, tc := range []struct {
		name string
		args []string
		want string // the error line after "cardtable: "
	}{
		{"spider solve --time", []string{"spider", "solve", "--time", "-90s"},
			`spider solve: --time "-90s": want at least 0 (0: no limit)`},
		{"spider bench --time", []string{"spider", "bench", "--time", "-90s"},
			`spider bench: --time "-90s": want at least 0 (0: no limit)`},
		{"spider pool --time", []string{"spider", "pool", "--time", "-90s"},
			`spider pool: --time "-90s": want at least 0 (0: no limit)`},
		{"spider analyze --time", []string{"spider", "analyze", "--load", "g.save", "--time", "-90s"},
			`spider analyze: --time "-90s": want at least 0 (0: no limit)`},
		{"spider analyze --position-time", []string{"spider", "analyze", "bench", "--position-time", "-0.5s"},
			`spider analyze bench: --position-time "-0.5s": want at least 0 (0: no limit)`},
		{"serve bench --duration", []string{"serve", "bench", "--duration", "-90s"},
			`serve bench: --duration "-90s": want more than 0`},
		{"serve bench --think", []string{"serve", "bench", "--think", "-0.5s"},
			`serve bench: --think "-0.5s": want at least 0`},
		{"serve bench --kill-every", []string{"serve", "bench", "--servers", "2", "--db", "postgres://127.0.0.1:1/x", "--kills", "1", "--kill-every", "0.5s"},
			`serve bench: --kill-every "0.5s": want at least 1s`},
		{"arlington loadtest --duration", []string{"arlington", "loadtest", "--duration", "-90s"},
			`arlington loadtest: --duration "-90s": want more than 0`},
		{"arlington loadtest --think", []string{"arlington", "loadtest", "--think", "-0.5s"},
			`arlington loadtest: --think "-0.5s": want at least 0`},
		{"serve --hsts", []string{"serve", "--hsts", "0.5s"},
			`serve: --hsts "0.5s": want a max-age of a second or more (8760h is a year), or 0 for none`},
		{"arlington new-table --turn-timer", []string{"arlington", "new-table", "--server", "http://127.0.0.1:1", "--seats", "human,medium", "--turn-timer", "90m"},
			`arlington new-table: --turn-timer "90m": want whole seconds from 5s to 1h, or off`},
		// Values that do not parse: the form.
		{"spider solve --time unparsed", []string{"spider", "solve", "--time", "90"}, `spider solve: --time: "90" ` + form},
		{"serve bench --duration unparsed", []string{"serve", "bench", "--duration", "ten"}, `serve bench: --duration: "ten" ` + form},
		{"serve bench --kill-every unparsed", []string{"serve", "bench", "--kill-every", "1 m"}, `serve bench: --kill-every: "1 m" ` + form},
		{"arlington loadtest --think unparsed", []string{"arlington", "loadtest", "--think", "2"}, `arlington loadtest: --think: "2" ` + form},
		{"serve --hsts unparsed", []string{"serve", "--hsts", "1y"}, `serve: --hsts: "1y" ` + form},
		{"spider analyze --position-time unparsed", []string{"spider", "analyze", "--position-time", "x"}, `spider analyze: --position-time: "x" ` + form},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, "", tc.args...)
			first, _, _ := strings.Cut(stderr, "\n")
			if want := "cardtable: " + tc.want; code != exitUsage || first != want {
				t.Fatalf("exit %d, stderr %q; want exit %d, first line %q", code, stderr, exitUsage, want)
			}
		})
	}
}

// TestDurationFlagsKeepTyped: every duration flag of every command keeps
// the text typed (durationVar), so that a new one defined with pflag's
// own DurationVar, whose messages would quote the parsed value, fails
// here rather than in front of a user.
func TestDurationFlagsKeepTyped(t *testing.T) {
	var walk func(c *cobra.Command)
	found := 0
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "duration" {
				return
			}
			found++
			if _, ok := f.Value.(*durationValue); !ok {
				t.Errorf("%s --%s: a duration flag that does not keep the text typed (define it with durationVar)", c.CommandPath(), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot(&Env{}))
	if found < 12 {
		t.Fatalf("%d duration flags found, want the 12 or more the commands define", found)
	}
}
