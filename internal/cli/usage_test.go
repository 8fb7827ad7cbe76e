package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"cardtable/arlington"
)

// "cardtable help COMMAND" is the command's own help, not the top-level
// usage; serve's help mentions serve bench.
func TestHelpCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout and stderr together
	}{
		{[]string{"help"}, 0, "Usage:\n  cardtable [flags]\n  cardtable COMMAND\n"},
		{[]string{"help", "spider"}, 0, "Usage:\n  cardtable spider COMMAND\n"},
		{[]string{"help", "arlington"}, 0, "Usage:\n  cardtable arlington COMMAND\n"},
		{[]string{"help", "spider", "solve"}, 0, "--nodes"},
		{[]string{"help", "serve"}, 0, "cardtable serve COMMAND\n"},
		{[]string{"serve", "-h"}, 0, "\n  bench "},
		{[]string{"help", "nosuch"}, 2, `unknown command "nosuch"`},
		{[]string{"help", "spider", "fly"}, 2, `unknown command "fly" for "cardtable spider"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; no %q in\n%s%s", code, tc.code, tc.want, out, errOut)
			}
			if len(tc.args) > 1 && tc.code == 0 && strings.Contains(out+errOut, "\n  cardtable COMMAND\n") {
				t.Errorf("the top-level usage, not the command's:\n%s%s", out, errOut)
			}
		})
	}
}

// Negative solver limits are refused (0 means no limit), naming the
// flag at fault and its value, not every limit flag together, and ending
// with the pointer to the command's help, as any bad flag value does.
func TestSolveLimitFlags(t *testing.T) {
	for _, tc := range []struct{ cmd, flags, want string }{
		{"spider solve", "--deal 1 --time -1s", `--time "-1s": want at least 0 (0: no limit)`},
		{"spider solve", "--deal 1 --nodes 5 --memory -1", `--memory "-1": want at least 0 (0: no limit)`},
		{"spider bench", "--deals 1-1 --time -1s", `--time "-1s": want at least 0 (0: no limit)`},
		{"spider bench", "--deals 1-1 --memory -1", `--memory "-1": want at least 0 (0: no limit)`},
		{"spider pool", "--time 1s --nodes -5", `--nodes "-5": want at least 0 (0: no limit)`},
		{"spider analyze bench", "--position-time -1s", `--position-time "-1s": want at least 0 (0: no limit)`},
		{"spider autoplay", "--deal 1 --samples 0", `--samples "0": want at least 1`},
		{"spider autoplay", "--deal 1 --deep-down -2", `--deep-down "-2": want at least 0`},
		{"spider autoplay", "--deal 1 --value-ahead 3", `--value-ahead "3": want 0 to 2`},
		{"spider value-train", "--line-nodes -1", `--line-nodes "-1": want at least 0`},
	} {
		args := append(strings.Fields(tc.cmd), strings.Fields(tc.flags)...)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, errOut, code := run(t, "", args...)
			want := "cardtable: " + tc.cmd + ": " + tc.want + "\nRun 'cardtable " + tc.cmd + " --help' for usage.\n"
			if code != exitUsage || errOut != want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
			}
		})
	}
}

// "unknown" says which limit stopped the search, in text and JSON.
func TestSolveUnknownSaysWhichLimit(t *testing.T) {
	for _, tc := range []struct {
		flags     []string
		text, key string
	}{
		{[]string{"--nodes", "1000"}, "unknown (stopped by the node limit)", "nodes"},
		{[]string{"--memory", "4096"}, "unknown (stopped by the memory limit)", "memory"},
		{[]string{"--time", "1ns"}, "unknown (stopped by the time limit)", "time"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			args := append([]string{"spider", "solve", "--deal", "1"}, tc.flags...)
			out, errOut, code := run(t, "", args...)
			if code != 0 || !strings.Contains(out, tc.text) {
				t.Errorf("exit %d: %s%s", code, out, errOut)
			}
			out, _, _ = run(t, "", append(args, "--json")...)
			var r struct{ Result, StoppedBy string }
			if err := json.Unmarshal([]byte(out), &r); err != nil || r.Result != "unknown" || r.StoppedBy != tc.key {
				t.Errorf("%v: %s", err, out)
			}
		})
	}
	out, _, _ := run(t, "", "spider", "solve", "--deal", "5", "--suits", "1", "--json")
	if !strings.Contains(out, `"result":"solved"`) || !strings.Contains(out, `"stoppedBy":""`) {
		t.Errorf("a solved search: %s", out)
	}
}

// Counts of one are singular.
func TestArlingtonMessagesCountOne(t *testing.T) {
	_, errOut, _ := run(t, "", "arlington", "compare", "--spectrum", "runs", "7H")
	if !strings.Contains(errOut, "got 1 argument\n") {
		t.Errorf("%q", errOut)
	}
	// A table view: "1 card" for a seat holding one (the graveyard and
	// hand sizes are the other counts shown).
	var b strings.Builder
	showView(&b, arlington.View{Players: 2, HandSizes: []int{1, 2}, Tables: make([][]arlington.TableSet, 2), Totals: []int{0, 0}, Graveyard: 1})
	if !strings.Contains(b.String(), "graveyard 1 card\n") || !strings.Contains(b.String(), "seat 1 (you): 1 card;") || !strings.Contains(b.String(), "seat 2: 2 cards;") {
		t.Errorf("%s", b.String())
	}
}

// Arlington's commands that take nothing refuse an argument: "quit now"
// does not quit and "auto 3" takes no action; the game goes on.
func TestArlingtonPlayRefusesArguments(t *testing.T) {
	out, errOut, code := arlRun(t, "quit now\nauto 3\nshow x\nlegal all\nhint me\nrecord it\nhelp me\nquit\n",
		"arlington", "play", "--players", "2", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"quit", "auto", "show", "legal", "hint", "record", "help"} {
		if !strings.Contains(out, "\n"+w+" takes no arguments\n") && !strings.Contains(out, "> "+w+" takes no arguments\n") {
			t.Errorf("%s with an argument not refused:\n%s", w, out)
		}
	}
	if strings.Contains(out, "auto: ") || strings.Count(out, "stopped; the record so far") != 1 {
		t.Errorf("an argument was ignored:\n%s", out)
	}
}

// TestArlingtonPlayQuitShort: q stops the game, as it does in Spider's
// terminal play; before, it was read as an action and refused.
func TestArlingtonPlayQuitShort(t *testing.T) {
	out, errOut, code := arlRun(t, "Q\n", "arlington", "play", "--players", "2", "--seed", "3")
	if code != 0 || !strings.Contains(out, "stopped; the record so far") || strings.Contains(out, "bad action") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
}
