package cardtable_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"cardtable/internal/cli"
)

// readmeTryCommands are the commands under the README's "A few to try:",
// one indented line each, without the program name.
func readmeTryCommands(tb testing.TB) [][]string {
	tb.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		tb.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "A few to try:\n")
	if !ok {
		tb.Fatal(`README.md has no "A few to try:" list`)
	}
	var out [][]string
	for _, line := range strings.Split(strings.TrimLeft(rest, "\n"), "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "    ") || len(f) == 0 {
			break
		}
		if f[0] != "cardtable" {
			tb.Fatalf("README try list: %q does not start with cardtable", line)
		}
		out = append(out, f[1:])
	}
	if len(out) < 3 {
		tb.Fatalf("found only %d commands to try in README.md", len(out))
	}
	return out
}

// The README's "A few to try" commands really run (TestDocsCommands only
// checks every documented command against its --help): in process, the
// interactive ones with "quit" as their input, each ending with exit 0
// and printing what it is for. The solve takes seconds under -race, so
// the short suite bounds it by nodes and checks its summary line; the
// long one solves it whole.
func TestReadmeTryCommandsRun(t *testing.T) { testReadmeTry(t, testing.Short()) }

func TestLongReadmeTryCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("solves deal 617 whole; the short suite bounds it")
	}
	testReadmeTry(t, false)
}

func testReadmeTry(t *testing.T, short bool) {
	want := map[string]string{
		"spider play":    "1   2   3   4   5", // the tableau's pile numbers
		"spider solve":   "\nremove ",         // a winning line ends removing suits
		"arlington play": "seat 1",
	}
	if short {
		want["spider solve"] = "# deal 617 (arachnid, 4 suits): unknown (stopped by the node limit)"
	}
	for _, args := range readmeTryCommands(t) {
		name := strings.Join(args[:2], " ")
		if short && name == "spider solve" {
			args = append(args, "--nodes", "20000")
		}
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expected output for %q: add it here", name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var out, errOut bytes.Buffer
			code := cli.Run(ctx, args, strings.NewReader("quit\n"), &out, &errOut)
			if code != 0 || !strings.Contains(out.String(), w) {
				t.Fatalf("exit %d, want 0 and %q in the output\nstdout:\n%.3000s\nstderr:\n%s", code, w, out.String(), errOut.String())
			}
		})
	}
}
