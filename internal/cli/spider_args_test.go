package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// Terminal commands check their arguments: undo and redo take an optional
// count (all of it is done, or nothing), and commands that take nothing
// refuse an argument instead of ignoring it. Each line's output is checked
// against the state after it.
func TestSpiderPlayArguments(t *testing.T) {
	steps := []struct {
		cmd  string
		want string // an error's text, or "moves N"
	}{
		{"deal", "moves 1"},
		{"deal", "moves 2"},
		{"undo 2", "moves 0"},
		{"redo x", `"x" is not a number from 1 up`},
		{"redo 3", "only 2 moves to redo"},
		{"redo 1", "moves 1"},
		{"undo 0", `"0" is not a number from 1 up`},
		{"undo 1 2", "undo takes at most 1 number"},
		{"quit now", "quit takes no arguments"},
		{"show x", "show takes no arguments"},
		{"restart 1", "restart takes no arguments"},
		{"help me", "help takes no arguments"},
		{"hint please", "hint takes no arguments"},
		{"deal 2", "deal takes no arguments"},
		{"column", "column takes 1 number"},
		{"move 1", "move takes 2 or 3 numbers"},
		{"redo", "moves 2"},
		{"undo 3", "only 2 moves to undo"},
		{"redo", "no move to redo"},
		{"u", "moves 1"},
		{"undo 1", "moves 0"},
		{"undo", "no move to undo"},
		{"redo 2", "moves 2"},
	}
	var script strings.Builder
	for _, s := range steps {
		script.WriteString(s.cmd + "\n")
	}
	script.WriteString("quit\n")
	out, errOut, code := run(t, script.String(), "spider", "play", "--deal", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(steps)+1 {
		t.Fatalf("%d output lines for %d commands (and the start):\n%s", len(lines), len(steps), out)
	}
	for i, s := range steps {
		var got struct {
			Error string
			Moves *int
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &got); err != nil {
			t.Fatal(err)
		}
		desc := got.Error
		if got.Moves != nil {
			desc = "moves " + strconv.Itoa(*got.Moves)
		}
		if !strings.Contains(desc, s.want) {
			t.Errorf("%q: got %q, want %q", s.cmd, desc, s.want)
		}
	}
}
