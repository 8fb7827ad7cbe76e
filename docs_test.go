package cardtable_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"cardtable/internal/cli"
)

// Every command the README and docs show is checked here, so none can rot
// as flags, subcommands, tests and benchmarks change:
//
//   - cardtable ... (also go run ./cmd/cardtable ..., after VAR=value or
//     chrt -f N; VAR=value may come before any command): the command line
//     (cli.Run, what cmd/cardtable runs) is given the same arguments and
//     --help; it must exit 0, and a word after a command whose help lists
//     subcommands must be one of them (cobra answers --help after an
//     unknown word with the parent's help and status 0);
//   - go test ...: every package must exist; -run and -bench must match at
//     least one test or benchmark there (read from the _test.go files the
//     -tags select, as go test -list would); an unanchored -bench must not
//     match a benchmark in the middle of its name (-bench Load also runs
//     BenchmarkArlingtonLoad); flags after -args must be defined by the
//     package's tests;
//   - go run/build/install/vet: the packages must exist;
//   - make X: the Makefile must have target X.
//
// Commands are read from indented code lines (after a blank line) and from
// ```sh, ```shell, ```bash and ```console blocks that start with one of
// the prefixes below, and from `inline code` that does. Untagged ``` blocks
// are file contents or output, not commands. In a command, [optional]
// parts are checked as if given, a|b takes the first choice, | between
// commands is a pipe, > and >> end a command, "#" or two spaces and a word
// start a description, and the placeholders of docPlaceholders stand for a
// sample value.

// docPrefixes are the beginnings that make a code line a command.
var docPrefixes = []string{"cardtable", "go test ", "go run ", "go build ", "go install ",
	"go vet ", "make", "chrt "}

// docPlaceholders are the capitalised words docs write for a value the
// reader chooses, and the sample each is checked with.
var docPlaceholders = map[string]string{
	"N": "1", "S": "1", "T": "32", "K": "1", "B": "1", "G": "10", "J": "1", "V": "arachnid",
	"D": "10s", "FILE": "game.txt", "PATH": "cardtable.db", "URL": "http://127.0.0.1:8080",
	"LINK": "http://127.0.0.1:8080/arlington/t/1", "NAME": "Ann", "LEVEL": "medium",
	"SPEC": "human,medium", "PID": "1", "CARD": "7H", "ADDR": "127.0.0.1:8080",
	"HOST": "127.0.0.1", "PORT": "8080", "ID": "1", "DIR": "backups", "COMMAND": "spider",
}

func TestDocsCommands(t *testing.T) {
	files := append([]string{"README.md", "CONTRIBUTING.md"}, mustGlob(t, "docs/*.md")...)
	c := newDocChecker(t)
	type found struct {
		file string
		docCommand
	}
	var all []found
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) && f == "CONTRIBUTING.md" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, dc := range docCommands(string(data)) {
			all = append(all, found{f, dc})
		}
	}
	if len(all) < 20 {
		t.Errorf("found only %d commands in the docs: is the extraction broken?", len(all))
	}
	// A few at a time.
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, f := range all {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := c.check(f.text); err != nil {
				t.Errorf("%s:%d: %s\n\t%v", f.file, f.line, f.text, err)
			}
		})
	}
	wg.Wait()
	t.Logf("%d commands checked", len(all))
}

// The check catches each kind of rot it is there for, and passes the same
// commands written right.
func TestDocsCommandsCatchRot(t *testing.T) {
	c := newDocChecker(t)
	for _, tc := range []struct {
		cmd  string
		good bool
	}{
		{"go test -run '^$' -bench Load -benchtime 20000x ./internal/loadgen", false},
		{"go test -run '^$' -bench '^BenchmarkLoad$' -benchtime 20000x ./internal/loadgen", true},
		{"go test -run '^$' -bench ArlingtonLoad ./internal/loadgen", true},
		{"go test -run NoSuchTestAnywhere ./spider", false},
		{"go test -run '^$' -bench NoSuchBench ./spider", false},
		{"go test ./nosuch/package", false},
		{"go test -tags measure -run TestMeasure ./spider/solver -args -deals 1-100", true},
		{"go test -run TestMeasure ./spider/solver", false}, // needs -tags measure
		{"go test -tags measure -run TestMeasure ./spider/solver -args -nosuch 1", false},
		{"cardtable spider play --deal N --suits 4", true},
		{"cardtable spider play --no-such-flag", false},
		{"cardtable spider play -deal 5", false},
		{"cardtable spider nosuch", false},
		{"cardtable nosuch --addr 127.0.0.1:8080", false},
		{"cardtable completion bash", true},
		{"cardtable arlington connect LINK --seat 1", true},
		{"cardtable spider new --suits notanumber", false},
		{"GOMAXPROCS=1 go run ./cmd/cardtable spider bench --mode solve|autoplay [--jobs J]", true},
		{"CARDTABLE_SCREENSHOTS=docs/img go test -run TestLongScreenshots ./internal/web/", true},
		{"CARDTABLE_SCREENSHOTS=docs/img go test -run TestNoSuchScreenshots ./internal/web/", false},
		{"cardtable spider analyze --load game.txt | cardtable spider play --nosuch", false},
		{"make test", true},
		{"make nosuch", false},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			err := c.check(tc.cmd)
			if tc.good && err != nil {
				t.Errorf("refused a good command: %v", err)
			}
			if !tc.good && err == nil {
				t.Error("passed a rotten command")
			}
		})
	}
}

func mustGlob(t testing.TB, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type docCommand struct {
	line int
	text string
}

var inlineCode = regexp.MustCompile("`([^`]+)`")

// docCommands finds the commands in a Markdown text.
func docCommands(text string) []docCommand {
	lines := strings.Split(text, "\n")
	var out []docCommand
	var prose strings.Builder // the text outside code, for inline code
	proseLine := []int{}      // line number of each prose line
	fence, fenceShell := false, false
	prevBlank, prevCode := true, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trim := strings.TrimSpace(l)
		if strings.HasPrefix(trim, "```") {
			if !fence {
				info := strings.TrimSpace(strings.TrimPrefix(trim, "```"))
				fenceShell = slices.Contains([]string{"sh", "shell", "bash", "console"}, info)
			}
			fence = !fence
			prevBlank, prevCode = false, false
			continue
		}
		indented := strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")
		code := fence || (indented && trim != "" && (prevBlank || prevCode))
		if code {
			if (!fence || fenceShell) && isDocCommand(strings.TrimPrefix(trim, "$ ")) {
				start := i
				cmd := strings.TrimPrefix(trim, "$ ")
				for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
					i++
					cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
				}
				out = append(out, docCommand{start + 1, cmd})
			}
		} else {
			prose.WriteString(l)
			prose.WriteByte('\n')
			proseLine = append(proseLine, i+1)
		}
		prevBlank, prevCode = trim == "", code && !fence
	}
	p := prose.String()
	for _, m := range inlineCode.FindAllStringSubmatchIndex(p, -1) {
		span := strings.Join(strings.Fields(p[m[2]:m[3]]), " ")
		if isDocCommand(span) {
			out = append(out, docCommand{proseLine[strings.Count(p[:m[0]], "\n")], span})
		}
	}
	return out
}

var envPrefix = regexp.MustCompile(`^(?:[A-Z][A-Z0-9_]*=\S*\s+)+`)

func isDocCommand(s string) bool {
	s = envPrefix.ReplaceAllString(s, "") // VAR=value cardtable ...
	for _, p := range docPrefixes {
		if strings.HasPrefix(s, p) {
			// "cardtable" alone or followed by a space: not cardtable_player.
			rest := s[len(p):]
			return strings.HasSuffix(p, " ") || strings.HasSuffix(p, "=") || rest == "" || rest[0] == ' '
		}
	}
	return false
}

// docTokens turns a command as the docs write it into the argument lists of
// the commands of its pipeline.
func docTokens(s string) ([][]string, error) {
	s = strings.ReplaceAll(s, "[flags]", "") // a synopsis's "any of its flags"
	var cmds [][]string
	var cur []string
	var tok strings.Builder
	inTok, quoted, alt := false, false, false
	depth := 0
	flush := func() {
		if inTok {
			w := tok.String()
			if !quoted {
				w = substitutePlaceholders(w)
			}
			cur = append(cur, w)
		}
		tok.Reset()
		inTok, quoted, alt = false, false, false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(s[i+1:], ch)
			if j < 0 {
				return nil, fmt.Errorf("unclosed quote")
			}
			if !alt {
				tok.WriteString(s[i+1 : i+1+j])
			}
			inTok, quoted = true, true
			i += j + 1
		case ch == '#' && !inTok:
			i = len(s)
		case ch == ' ' || ch == '\t':
			flush()
			// Two spaces and a word: the description of a synopsis line.
			if rest := strings.TrimLeft(s[i:], " \t"); len(s[i:])-len(rest) >= 2 &&
				rest != "" && !strings.ContainsRune(`-[|\>]`, rune(rest[0])) {
				i = len(s)
			}
		case ch == '[':
			depth++
		case ch == ']':
			depth--
		case ch == '|' && !inTok:
			if depth == 0 { // a pipe; within [...], a choice: check both
				cmds = append(cmds, cur)
				cur = nil
			}
		case ch == '|':
			alt = true // a|b: the first
		case ch == '>' || ch == '<':
			flush()
			cmds = append(cmds, cur)
			return cmds, nil
		default:
			if !alt {
				tok.WriteByte(ch)
			}
			inTok = true
		}
	}
	flush()
	return append(cmds, cur), nil
}

var placeholderWord = regexp.MustCompile(`\b[A-Z][A-Z_]*\b(\.\.\.)?`)

func substitutePlaceholders(w string) string {
	return placeholderWord.ReplaceAllStringFunc(w, func(p string) string {
		if v, ok := docPlaceholders[strings.TrimSuffix(p, "...")]; ok {
			return v
		}
		return p
	})
}

type docChecker struct {
	t    testing.TB
	make map[string]bool

	mu   sync.Mutex
	help map[string]docHelp // by arguments, joined
	pkgs map[string]*pkgNames
}

type docHelp struct {
	err  error
	subs []string // the subcommands the help lists
	out  string
}

// newDocChecker reads the Makefile's targets.
func newDocChecker(t testing.TB) *docChecker {
	t.Helper()
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+)[ \t]*:([^=]|$)`).FindAllStringSubmatch(string(mk), -1) {
		targets[m[1]] = true
	}
	return &docChecker{t: t, make: targets, help: map[string]docHelp{}, pkgs: map[string]*pkgNames{}}
}

func (c *docChecker) check(text string) error {
	cmds, err := docTokens(text)
	if err != nil {
		return err
	}
	for _, args := range cmds {
		if err := c.checkOne(args); err != nil {
			return err
		}
	}
	return nil
}

func (c *docChecker) checkOne(args []string) error {
	for len(args) > 0 && strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "-") {
		args = args[1:] // VAR=value
	}
	if len(args) >= 3 && args[0] == "chrt" {
		args = args[3:] // chrt -f N
	}
	// "cardtable arlington ...", "--seats ...": more of the same, not checked.
	for i := slices.Index(args, "..."); i >= 0; i = slices.Index(args, "...") {
		if i > 0 && strings.HasPrefix(args[i-1], "-") {
			i--
		}
		args = slices.Delete(args, i, slices.Index(args, "...")+1)
	}
	switch {
	case len(args) == 0:
		return nil // `GOMAXPROCS=1` in prose: a setting, not a command
	case args[0] == "cardtable":
		return c.checkCardtable(args[1:])
	case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/cardtable":
		return c.checkCardtable(args[3:])
	case args[0] == "go" && len(args) > 1 && args[1] == "test":
		return c.checkGoTest(args[2:])
	case args[0] == "go" && len(args) > 1 && slices.Contains([]string{"run", "build", "install", "vet"}, args[1]):
		for _, a := range args[2:] {
			if strings.HasPrefix(a, "./") {
				if _, err := c.packages(a); err != nil {
					return err
				}
			}
		}
		return nil
	case args[0] == "make":
		for _, a := range args[1:] {
			if !strings.Contains(a, "=") && !strings.HasPrefix(a, "-") && !c.make[a] {
				return fmt.Errorf("the Makefile has no target %q", a)
			}
		}
		return nil
	}
	return fmt.Errorf("no check for this command (%q): extend docs_test.go", args[0])
}

// checkCardtable asks the program whether args are a valid command line.
func (c *docChecker) checkCardtable(args []string) error {
	// Walk the subcommands: a word after a command that lists subcommands
	// must be one of them.
	for i := 0; i < len(args) && !strings.HasPrefix(args[i], "-"); i++ {
		h := c.helpOf(args[:i])
		if h.err != nil {
			return h.err
		}
		if len(h.subs) == 0 {
			break
		}
		if !slices.Contains(h.subs, args[i]) {
			return fmt.Errorf("%q is not a subcommand of %s (it has %s)", args[i],
				strings.Join(append([]string{"cardtable"}, args[:i]...), " "), strings.Join(h.subs, ", "))
		}
	}
	return c.helpOf(args).err
}

// helpCommands finds the list of subcommands in a command's help: the
// lines after a "Commands:" heading, up to a blank line.
var (
	helpCommands = regexp.MustCompile(`(?m)^(?:Available )?[Cc]ommands:[ \t]*\n((?:  .*\n)+)`)
	helpSub      = regexp.MustCompile(`(?m)^  ([a-z][a-z0-9-]*)(?: |$)`)
)

func (c *docChecker) helpOf(args []string) docHelp {
	key := strings.Join(args, "\x00")
	c.mu.Lock()
	h, ok := c.help[key]
	c.mu.Unlock()
	if ok {
		return h
	}
	// The command line itself answers, as the program would: cli.Run is
	// what cmd/cardtable calls. --help stops every command before it runs.
	var out bytes.Buffer
	code := cli.Run(context.Background(), append(slices.Clone(args), "--help"), strings.NewReader(""), &out, &out)
	h = docHelp{out: out.String()}
	if code != 0 {
		h.err = fmt.Errorf("cardtable %s --help: exit status %d\n%s", strings.Join(args, " "), code, out.String())
	}
	for _, list := range helpCommands.FindAllStringSubmatch(out.String(), -1) {
		for _, m := range helpSub.FindAllStringSubmatch(list[1], -1) {
			h.subs = append(h.subs, m[1])
		}
	}
	c.mu.Lock()
	c.help[key] = h
	c.mu.Unlock()
	return h
}

// goTestValueFlags are go test's flags that take a value.
var goTestValueFlags = []string{"run", "bench", "benchtime", "count", "timeout", "tags", "cpu",
	"parallel", "skip", "list", "coverprofile", "cpuprofile", "memprofile", "o", "exec", "shuffle"}

// goTestBoolFlags are go test's own bool flags, and -update, which the
// golden-file tests define.
var goTestBoolFlags = []string{"v", "short", "race", "benchmem", "json", "failfast", "cover", "update"}

func (c *docChecker) checkGoTest(args []string) error {
	flags := map[string]string{}
	var patterns, testArgs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-args" || a == "--args" {
			testArgs = args[i+1:]
			break
		}
		if !strings.HasPrefix(a, "-") {
			patterns = append(patterns, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case slices.Contains(goTestBoolFlags, name):
		case slices.Contains(goTestValueFlags, name):
			if !hasVal {
				if i+1 >= len(args) {
					return fmt.Errorf("go test -%s needs a value", name)
				}
				i++
				val = args[i]
			}
			flags[name] = val
		default:
			return fmt.Errorf("unknown go test flag %s", a)
		}
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	var names pkgNames
	for _, p := range patterns {
		dirs, err := c.packages(p)
		if err != nil {
			return err
		}
		for _, d := range dirs {
			n, err := c.namesIn(d, flags["tags"])
			if err != nil {
				return err
			}
			names.tests = append(names.tests, n.tests...)
			names.benchmarks = append(names.benchmarks, n.benchmarks...)
			names.flags = append(names.flags, n.flags...)
		}
	}
	if run, ok := flags["run"]; ok && run != "^$" {
		re, err := topRegexp(run)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(names.tests, re.MatchString) {
			return fmt.Errorf("-run %s matches no test in %s", run, strings.Join(patterns, " "))
		}
	}
	if bench, ok := flags["bench"]; ok {
		re, err := topRegexp(bench)
		if err != nil {
			return err
		}
		anchored := regexp.MustCompile("^(?:" + re.String() + ")")
		matched := 0
		for _, b := range names.benchmarks {
			if !re.MatchString(b) {
				continue
			}
			matched++
			if !anchored.MatchString(b) && !anchored.MatchString(strings.TrimPrefix(b, "Benchmark")) {
				return fmt.Errorf("-bench %s also runs %s, matching the middle of its name: anchor it (-bench '^Benchmark...$')", bench, b)
			}
		}
		if matched == 0 {
			return fmt.Errorf("-bench %s matches no benchmark in %s", bench, strings.Join(patterns, " "))
		}
	}
	for _, a := range testArgs {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") &&
			!slices.Contains(names.flags, name) && !strings.HasPrefix(name, "test.") {
			return fmt.Errorf("-args %s: no test flag %q in %s", a, name, strings.Join(patterns, " "))
		}
	}
	return nil
}

// topRegexp is the first level of a -run or -bench pattern (go test splits
// it at slashes outside brackets and parentheses).
func topRegexp(p string) (*regexp.Regexp, error) {
	depth := 0
	for i, ch := range p {
		switch ch {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '\\':
			// the next rune is escaped; a slash after a backslash still splits in go test
		case '/':
			if depth == 0 {
				p = p[:i]
				return regexp.Compile(p)
			}
		}
	}
	return regexp.Compile(p)
}

// packages resolves a package pattern (./dir or ./dir/...) to directories.
func (c *docChecker) packages(p string) ([]string, error) {
	dir, all := strings.CutSuffix(p, "/...")
	if p == "./..." || p == "..." {
		dir, all = ".", true
	}
	dir = filepath.Clean(dir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no package %s", p)
	}
	if !all {
		if !hasGo(dir) {
			return nil, fmt.Errorf("no Go files in %s", p)
		}
		return []string{dir}, nil
	}
	var dirs []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() && hasGo(path) {
			dirs = append(dirs, path)
		}
		return nil
	})
	return dirs, err
}

func hasGo(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}

type pkgNames struct {
	tests, benchmarks []string // top-level Test, Example, Fuzz; Benchmark
	flags             []string // flags the tests define (flag.String("name", ...))
}

var (
	testFuncDecl = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)\w*)\(`)
	testFlagDecl = regexp.MustCompile(`\bflag\.\w+\("([^"]+)"`)
)

// namesIn reads the tests and benchmarks of the package in dir that go test
// builds with tags, as go test -list would print them, without building.
func (c *docChecker) namesIn(dir, tags string) (*pkgNames, error) {
	key := dir + "\x00" + tags
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.pkgs[key]; ok {
		return n, nil
	}
	ctx := build.Default
	if tags != "" {
		ctx.BuildTags = strings.Split(tags, ",")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	n := &pkgNames{}
	for _, f := range files {
		if ok, err := ctx.MatchFile(dir, filepath.Base(f)); err != nil || !ok {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		// gofmt puts a top-level func at the start of its line; a method
		// starts "func (".
		for _, m := range testFuncDecl.FindAllStringSubmatch(string(data), -1) {
			switch name := m[1]; {
			case testFunc(name, "Benchmark"):
				n.benchmarks = append(n.benchmarks, name)
			case testFunc(name, "Test") || testFunc(name, "Example") || testFunc(name, "Fuzz"):
				n.tests = append(n.tests, name)
			}
		}
		for _, m := range testFlagDecl.FindAllStringSubmatch(string(data), -1) {
			n.flags = append(n.flags, m[1])
		}
	}
	c.pkgs[key] = n
	return n, nil
}

// testFunc reports whether name is a go test function of kind prefix
// (TestX, not Testify).
func testFunc(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	return ok && (rest == "" || !('a' <= rest[0] && rest[0] <= 'z'))
}
