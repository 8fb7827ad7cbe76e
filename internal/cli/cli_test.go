package cli

import (
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var update = flag.Bool("update", false, "rewrite the golden help files in testdata/help")

// commandPaths lists every command of the tree but cobra's hidden ones, as
// argument lists ("spider", "solve").
func commandPaths(c *cobra.Command, path []string) [][]string {
	out := [][]string{path}
	for _, s := range c.Commands() {
		if s.Hidden {
			continue
		}
		out = append(out, commandPaths(s, append(slices.Clone(path), s.Name()))...)
	}
	return out
}

// Every command's --help matches its golden file in testdata/help (one a
// command; "cardtable.txt" for the root, "spider_solve.txt" for spider
// solve). A command without a file, or a file without a command, fails:
// run `go test ./internal/cli -run TestHelpGolden -update` and review
// the diff.
func TestHelpGolden(t *testing.T) {
	dir := filepath.Join("testdata", "help")
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, path := range commandPaths(newRoot(&Env{}), nil) {
		name := "cardtable.txt"
		if len(path) > 0 {
			name = strings.Join(path, "_") + ".txt"
		}
		want[name] = true
		t.Run(name, func(t *testing.T) {
			out, errOut, code := run(t, "", append(path, "--help")...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			file := filepath.Join(dir, name)
			if *update {
				if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			golden, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("no golden help for %q (a new command? run with -update): %v", strings.Join(path, " "), err)
			}
			if out != string(golden) {
				t.Errorf("help of %q differs from %s (run with -update if intended):\n%s", strings.Join(path, " "), file, out)
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s: no such command (remove the file, or run with -update)", f)
		}
	}
	if len(files) == 0 && !*update {
		t.Error("no golden help files")
	}
}

// Every command's help has the same layout: a description, a Usage
// section whose first line starts with the command's path, and flags
// with two dashes.
func TestHelpLayout(t *testing.T) {
	for _, path := range commandPaths(newRoot(&Env{}), nil) {
		t.Run(strings.Join(path, " "), func(t *testing.T) {
			out, _, _ := run(t, "", append(path, "-h")...)
			desc, usage, ok := strings.Cut(out, "\n\nUsage:\n  ")
			if !ok || strings.TrimSpace(desc) == "" {
				t.Fatalf("no description or Usage section:\n%s", out)
			}
			if want := strings.Join(append([]string{"cardtable"}, path...), " "); !strings.HasPrefix(usage, want) {
				t.Errorf("synopsis %q does not start with %q", strings.SplitN(usage, "\n", 2)[0], want)
			}
			for _, bad := range []string{"do(es)", "suit(s)", " 1 seats", "(default: the first open one) (default"} {
				if strings.Contains(out, bad) {
					t.Errorf("help says %q:\n%s", bad, out)
				}
			}
		})
	}
}

// A bad flag is a usage error: exit status 2, a message naming the flag
// and where to find the command's help on stderr, nothing on stdout (the
// command did not run).
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"spider", "solve", "--nope"}, "cardtable: spider solve: unknown flag: --nope\nRun 'cardtable spider solve --help' for usage.\n"},
		{[]string{"spider", "solve", "-deal", "5"}, "cardtable: spider solve: -deal: use --deal (long flags take two dashes)\nRun 'cardtable spider solve --help' for usage.\n"},
		{[]string{"spider", "new", "-deal=5"}, "cardtable: spider new: -deal: use --deal (long flags take two dashes)\n"},
		{[]string{"spider", "new", "-help"}, "cardtable: spider new: -help: use --help (long flags take two dashes)\n"},
		{[]string{"-version"}, "cardtable: -version: use --version (long flags take two dashes)\nRun 'cardtable --help' for usage.\n"},
		{[]string{"-help"}, "cardtable: -help: use --help (long flags take two dashes)\n"},
		{[]string{"arlington", "selfplay", "-games", "4"}, "cardtable: arlington selfplay: -games: use --games (long flags take two dashes)\n"},
		{[]string{"spider", "play", "--suits", "x"}, "cardtable: spider play: --suits: \"x\" is not a whole number\nRun 'cardtable spider play --help' for usage.\n"},
		// Every number, duration and true-or-false flag's bad value is one
		// sentence, never the flag package's strconv words.
		{[]string{"serve", "--daily-mb", "abc"}, "cardtable: serve: --daily-mb: \"abc\" is not a whole number\nRun 'cardtable serve --help' for usage.\n"},
		{[]string{"arlington", "selfplay", "--games", "abc"}, "cardtable: arlington selfplay: --games: \"abc\" is not a whole number\n"},
		{[]string{"serve", "--daily-mb", "99999999999999999999"}, "cardtable: serve: --daily-mb: \"99999999999999999999\" is out of range for a whole number\n"},
		{[]string{"spider", "pool", "--seed", "-1"}, "cardtable: spider pool: --seed: \"-1\" is not a whole number of 0 or more\n"},
		{[]string{"spider", "analyze", "--load", "x", "--time", "abc"}, "cardtable: spider analyze: --time: \"abc\" is not a duration: want a number with a unit, such as 500ms, 30s, 5m or 1h30m\n"},
		{[]string{"spider", "value-train", "--l2", "lots"}, "cardtable: spider value-train: --l2: \"lots\" is not a number\n"},
		{[]string{"spider", "new", "--deal", "5", "--json=maybe"}, "cardtable: spider new: --json: \"maybe\" is not true or false\n"},
		{[]string{"spider", "play", "--deal"}, "cardtable: spider play: flag needs an argument: --deal\n"},
		{[]string{"arlington", "connect", "--seat", "two", "http://x/arlington/t/A"}, "Run 'cardtable arlington connect --help' for usage.\n"},
		{[]string{"--nope"}, "cardtable: unknown flag: --nope\nRun 'cardtable --help' for usage.\n"},
		// A typo of one of the command's flags names the flag meant; one
		// near no flag (--nope) names none.
		{[]string{"backup", "--too", "x.db"}, "cardtable: backup: unknown flag: --too (did you mean --to?)\nRun 'cardtable backup --help' for usage.\n"},
		// Two neighbouring letters swapped are one slip, even in a short
		// name: these once got no hint, counted as two letters off.
		{[]string{"spider", "new", "--dael", "5"}, "cardtable: spider new: unknown flag: --dael (did you mean --deal?)\n"},
		{[]string{"spider", "play", "--opne", "x"}, "cardtable: spider play: unknown flag: --opne (did you mean --open?)\n"},
		{[]string{"arlington", "connect", "--bto", "x"}, "cardtable: arlington connect: unknown flag: --bto (did you mean --bot?)\n"},
		{[]string{"db", "copy", "--form", "x"}, "cardtable: db copy: unknown flag: --form (did you mean --from?)\n"},
		{[]string{"serve", "--hepl"}, "cardtable: serve: unknown flag: --hepl (did you mean --help?)\n"},
		{[]string{"spider", "solve", "--ndoes", "3"}, "cardtable: spider solve: unknown flag: --ndoes (did you mean --nodes?)\n"},
		// Another command's flag, exactly, is named as that command's, not
		// as a typo of a flag of another meaning (--max-saves).
		{[]string{"serve", "--max-moves", "5"}, "cardtable: serve: unknown flag: --max-moves (--max-moves is a flag of `spider analyze bench`)\n"},
		{[]string{"spider", "analyze", "bench", "--max-saves", "3"}, "cardtable: spider analyze bench: unknown flag: --max-saves (--max-saves is a flag of `cardtable` and `serve`)\n"},
		// Another ending of the last word is near (--trusted-proxies,
		// below), a further word is not: --server is no --serve-xyz.
		{[]string{"arlington", "loadtest", "--serve-xyz", "x"}, "cardtable: arlington loadtest: unknown flag: --serve-xyz\nRun"},
		// A hidden flag is never named, however near: --serve-only is.
		{[]string{"arlington", "loadtest", "--serve-onl", "x"}, "cardtable: arlington loadtest: unknown flag: --serve-onl\nRun"},
		// Misspelt with one dash too: pflag's words ("unknown shorthand
		// flag: 't' in -too", "'l' in -lep") named no flag.
		{[]string{"backup", "-too", "x.db"}, "cardtable: backup: unknown flag: -too (did you mean --to?)\nRun 'cardtable backup --help' for usage.\n"},
		{[]string{"spider", "new", "-dael", "5"}, "cardtable: spider new: unknown flag: -dael (did you mean --deal?)\n"},
		{[]string{"-hlep"}, "cardtable: unknown flag: -hlep (did you mean --help?)\n"},
		{[]string{"serve", "--trusted-proxies", "10.0.0.1"}, "cardtable: serve: unknown flag: --trusted-proxies (did you mean --trusted-proxy?)\n"},
		{[]string{"--max-table", "5"}, "cardtable: unknown flag: --max-table (did you mean --max-tables?)\n"},
		// Both, when the command's own is one slip away.
		{[]string{"arlington", "connect", "--bots", "medium", "http://x/arlington/t/A"}, "cardtable: arlington connect: unknown flag: --bots " +
			"(did you mean --bot? --bots is a flag of `arlington loadtest`, `arlington play` and `serve bench`)\n"},
		{[]string{"nosuch"}, "cardtable: unknown command \"nosuch\" for \"cardtable\"\n"},
		{[]string{"spidr"}, "(did you mean spider?)"},
		{[]string{"spider"}, "cardtable: spider: missing subcommand\nRun 'cardtable spider --help' for usage.\n"},
		{[]string{"version", "extra"}, "cardtable: version: unexpected argument \"extra\"\nRun 'cardtable version --help' for usage.\n"},
		{[]string{"spider", "analyze", "game.txt"}, "cardtable: spider analyze: unexpected argument \"game.txt\" (a saved game is read with --load FILE)\n"},
		{[]string{"spider", "play", "game.txt"}, "cardtable: spider play: unexpected argument \"game.txt\" (a saved game is read with --load FILE)\n"},
		{[]string{"spider", "solve", "game.txt"}, "cardtable: spider solve: unexpected argument \"game.txt\" (a saved game is read with --load FILE)\n"},
		{[]string{"spider", "autoplay", "game.txt"}, "cardtable: spider autoplay: unexpected argument \"game.txt\" (a saved game is read with --load FILE)\n"},
		{[]string{"completion"}, "cardtable: completion: missing subcommand\nRun 'cardtable completion --help' for usage.\n"},
		{[]string{"completion", "tcsh"}, "cardtable: completion: unknown command \"tcsh\" for \"cardtable completion\""},
		{[]string{"completion", "bash", "extra"}, "cardtable: completion bash: unexpected argument \"extra\"\nRun 'cardtable completion bash --help' for usage.\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, "help\nquit\n", tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no output and %q", code, out, errOut, tc.want)
			}
		})
	}
}

// The server's flags may come from the environment; the command line wins,
// and a bad value names the variable without echoing it.
func TestServeEnvDefaults(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	t.Setenv("CARDTABLE_MAX_TABLES", "0")
	_, errOut, code := run(t, "", "serve", "--db", db)
	if code != exitUsage || !strings.Contains(errOut, "CARDTABLE_MAX_TABLES (--max-tables): want at least 1") {
		t.Errorf("CARDTABLE_MAX_TABLES=0 not read, or not named: exit %d, %q", code, errOut)
	}
	t.Run("CARDTABLE_BOT_WORKERS=-1", func(t *testing.T) {
		t.Setenv("CARDTABLE_BOT_WORKERS", "-1")
		_, errOut, code := run(t, "", "serve", "--db", db, "--max-tables", "5")
		if code != exitUsage || !strings.Contains(errOut, "CARDTABLE_BOT_WORKERS (--bot-workers): want at least 0") {
			t.Errorf("CARDTABLE_BOT_WORKERS=-1 not named: exit %d, %q", code, errOut)
		}
	})
	_, errOut, code = run(t, "", "serve", "--db", db, "--max-tables", "-1")
	if code != exitUsage || !strings.Contains(errOut, `: --max-tables "-1": want at least 1`) {
		t.Errorf("--max-tables -1 typed: exit %d, %q", code, errOut)
	}
	// The flag wins: the run gets past --max-tables to the bad --host.
	_, errOut, code = run(t, "", "--max-tables", "5", "--host", "bad host", "--db", db)
	if code != exitUsage || !strings.Contains(errOut, "--host") {
		t.Errorf("--max-tables did not win over the variable: exit %d, %q", code, errOut)
	}
	t.Setenv("CARDTABLE_MAX_TABLES", "secret-ish")
	_, errOut, code = run(t, "", "serve", "--db", db)
	if code != exitUsage || !strings.Contains(errOut, "CARDTABLE_MAX_TABLES, for --max-tables: its value is not a whole number\n") ||
		strings.Contains(errOut, "secret-ish") {
		t.Errorf("bad variable: exit %d, %q", code, errOut)
	}
	// A value that parses as its type but is refused by serve's own checks
	// names the variable too, and shows no part of the value.
	t.Setenv("CARDTABLE_MAX_TABLES", "")
	os.Unsetenv("CARDTABLE_MAX_TABLES")
	for _, tc := range []struct{ env, val string }{
		{"CARDTABLE_ADDR", "secret-ish"},
		{"CARDTABLE_ADDR", "127.0.0.1:99999"},
		{"CARDTABLE_METRICS_ADDR", "secret-ish"},
		{"CARDTABLE_INTERNAL_ADDR", "secret-ish"},
		{"CARDTABLE_LOG_FORMAT", "secret-ish"},
		{"CARDTABLE_HOST", "secret ish"},
		{"CARDTABLE_TRUSTED_PROXY", "secret-ish"},
		{"CARDTABLE_ACME", "192.0.2.77"},
	} {
		t.Run(tc.env+"="+tc.val, func(t *testing.T) {
			t.Setenv(tc.env, tc.val)
			flag := "--" + strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(tc.env, "CARDTABLE_")), "_", "-")
			_, errOut, code := run(t, "", "serve", "--db", db)
			if code != exitUsage || !strings.Contains(errOut, tc.env+" ("+flag+")") ||
				strings.Contains(errOut, "secret") || strings.Contains(errOut, "99999") || strings.Contains(errOut, "192.0.2.77") {
				t.Errorf("exit %d, %q; want exit 2 naming %s (%s) without its value", code, errOut, tc.env, flag)
			}
		})
	}
	// Only serve's flags: the variable does not reach other commands.
	t.Setenv("CARDTABLE_JSON", "x")
	if _, errOut, code := run(t, "", "spider", "new", "--deal", "1"); code != 0 {
		t.Errorf("spider new read the environment: exit %d, %q", code, errOut)
	}
}

// TestServeEnvEmptyIsUnset: every serve variable set but empty (VAR= in
// an environment file) is the flag's default, as an empty CARDTABLE_ADDR
// already was; an empty CARDTABLE_LOG_FORMAT or CARDTABLE_MAX_TABLES was
// refused as a bad value (exit 2).
func TestServeEnvEmptyIsUnset(t *testing.T) {
	serveCmd(&Env{}).Flags().VisitAll(func(f *pflag.Flag) {
		if envFlag(f) {
			t.Setenv(envName(f.Name), "")
		}
	})
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "x.db"))
	if !strings.Contains(s.log.String(), `msg="cardtable serving"`) {
		t.Fatalf("did not start:\n%s", s.log)
	}
}

// TestServeEnvTypo: a CARDTABLE_ variable that nearly names a flag's (a
// typo in a service's environment file) is logged at start, naming it and
// the variable meant, never its value; it used to be ignored without a
// word, the server running with the default. Variables of other programs
// (the test suites') are not mentioned.
func TestServeEnvTypo(t *testing.T) {
	typos := map[string]string{
		"CARDTABLE_TRUSTED_PROXIES": "CARDTABLE_TRUSTED_PROXY",
		"CARDTABLE_MAXTABLES":       "CARDTABLE_MAX_TABLES",
		"CARDTABLE_ADR":             "CARDTABLE_ADDR",
		"CARDTABLE_ADRD":            "CARDTABLE_ADDR", // a swap: one slip
		"CARDTABLE_Log_Format":      "CARDTABLE_LOG_FORMAT",
		"CARDTABLE_MAX_SAVE":        "CARDTABLE_MAX_SAVES", // not MAX_SAVE_MB, also near
	}
	for name := range typos {
		t.Setenv(name, "secret-value")
	}
	others := []string{"CARDTABLE_REQUIRE_BROWSER", "CARDTABLE_REQUIRE_POSTGRES", "CARDTABLE_REQUIRE_SERVICES", "CARDTABLE_TEST_AS_MAIN", "CARDTABLE_JSON",
		"CARDTABLE_SERVE_ADDR", "CARDTABLE_SERVE_DB", "CARDTABLE_SIGNAL_ARGS", "CARDTABLE_TABLE_KILL_CHILD",
		"CARDTABLE_TEST_SAVE_FSIZE", "CARDTABLE_FAILOVER_KILLS", "CARDTABLE_SCREENSHOTS", "CARDTABLE_ARTIFACTS"}
	for _, name := range others {
		t.Setenv(name, "1")
	}
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "x.db"))
	log := s.log.String()
	for name, meant := range typos {
		if !strings.Contains(log, "level=WARN msg=\"environment variable ignored: it names no setting of serve\" variable="+name+" did_you_mean="+meant+"\n") {
			t.Errorf("%s not told (meant %s):\n%s", name, meant, log)
		}
	}
	for _, name := range others {
		if strings.Contains(log, name) {
			t.Errorf("%s, not serve's, told:\n%s", name, log)
		}
	}
	if strings.Contains(log, "secret-value") {
		t.Errorf("a value shown:\n%s", log)
	}
}

// `cardtable --version` and `cardtable version` print the build.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, errOut, code := run(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "cardtable ") || !strings.Contains(out, ", commit ") || errOut != "" {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	if _, _, code := run(t, "", "version", "extra"); code == 0 {
		t.Error("version took an argument")
	}
}

// `cardtable completion SHELL` prints a completion script.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, code := run(t, "", "completion", sh)
		if code != 0 || !strings.Contains(out, "cardtable") || len(out) < 1000 {
			t.Errorf("%s: exit %d, %d bytes, %q", sh, code, len(out), errOut)
		}
	}
}

// `cardtable` with serve's flags, or with none at all, serves: the root
// command is serve (its flags from the environment too).
func TestRootServes(t *testing.T) {
	t.Run("flags", func(t *testing.T) {
		url, _ := runServer(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "a.db"))
		getOK(t, url)
	})
	t.Run("environment", func(t *testing.T) {
		t.Setenv("CARDTABLE_ADDR", "127.0.0.1:0")
		t.Setenv("CARDTABLE_DB", filepath.Join(t.TempDir(), "b.db"))
		url, errb := runServer(t)
		getOK(t, url)
		if !strings.Contains(errb.String(), "b.db") {
			t.Errorf("CARDTABLE_DB not used: %s", errb)
		}
	})
}

func getOK(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
}
