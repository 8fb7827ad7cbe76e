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

// TestHostingNginxLocation: the location block of docs/hosting.md's nginx
// sample is the one TestServeBehindNginx runs nginx with (proxyServer),
// as the page says, directive for directive.
func TestHostingNginxLocation(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "hosting.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := locationBlock(t, regexp.MustCompile("(?s)```nginx\n(.*?)```").FindStringSubmatch(string(b)))
	tested := locationBlock(t, []string{"", proxyServer("127.0.0.1:1", "127.0.0.1:8080")})
	if doc != tested {
		t.Fatalf("docs/hosting.md's location block:\n%s\nthe tests':\n%s", doc, tested)
	}
}

// locationBlock is the directives of m[1]'s "location / { }", comments
// dropped, one a line.
func locationBlock(t *testing.T, m []string) string {
	t.Helper()
	if m == nil {
		t.Fatal("no nginx sample")
	}
	loc := regexp.MustCompile(`(?s)location / \{(.*?)\}`).FindStringSubmatch(m[1])
	if loc == nil {
		t.Fatalf("no location block in %s", m[1])
	}
	var out []string
	for _, line := range strings.Split(loc[1], "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
