package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The command lines of the shipped deployment files (deploy/) are
// cardtable's: each runs with --help added, so an unknown flag or
// command fails here as a rotted command in the docs does.

var (
	composeCommand = regexp.MustCompile(`(?m)^\s*command: (serve .*)$`)
	unitExec       = regexp.MustCompile(`(?m)^ExecStart=\S+/cardtable (.*)$`)
)

func TestDeployCommands(t *testing.T) {
	for _, tc := range []struct {
		file string
		re   *regexp.Regexp
		want int
	}{
		{"compose.yaml", composeCommand, 3},
		{"cardtable.service", unitExec, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "..", "deploy", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			cmds := tc.re.FindAllStringSubmatch(string(b), -1)
			if len(cmds) != tc.want {
				t.Fatalf("%d cardtable command lines, want %d", len(cmds), tc.want)
			}
			for _, c := range cmds {
				// Each server of several names where the others reach it:
				// its own host name is no name in the others' network.
				if tc.file == "compose.yaml" && !strings.Contains(c[1], "--internal-addr ") {
					t.Errorf("cardtable %s: no --internal-addr", c[1])
				}
				args := append(strings.Fields(c[1]), "--help")
				out, errOut, code := arlRun(t, "", args...)
				if code != exitOK || !strings.Contains(out, "Usage:") {
					t.Errorf("cardtable %s: exit %d: %s", c[1], code, errOut)
				}
			}
		})
	}
}
