// Package cli holds cardtable's subcommands and wires the packages together:
// it is the one place that knows about flags, files, standard streams and
// exit codes. The command tree is built with cobra (commands.go).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/internal/pgstore"
)

// Exit codes: 0 success, 1 a failure while running, 2 bad usage or bad input.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// Env is what a subcommand may touch of the outside world. Tests build one
// with buffers.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	cmd *cobra.Command // the command running, set as it starts: its notes name it (notef)
}

// errUsage marks an error as bad usage or bad input (exit status 2).
var errUsage = errors.New("usage")

// errBadCall marks a usage error in how the command was called (a bad
// flag, a flag's value the command finds wrong, an unknown command): the
// message ends with a pointer to the command's help.
var errBadCall = fmt.Errorf("%w", errUsage)

// flagErr is a usage error in how the command was called: a flag's
// value the command, not the flag parser, found wrong (--deal x), a flag
// the parser refused, an unknown command. Its line is followed by the
// pointer to the command's help; a cause given with %w stays in the chain.
func flagErr(format string, a ...any) error {
	return fmt.Errorf("%w: %w", errBadCall, fmt.Errorf(format, a...))
}

// usageErr wraps a message as a usage error; a cause in it, given with
// %w, stays in the chain for errors.Is (docs/cli.md).
func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: %w", errUsage, fmt.Errorf(format, a...))
}

// flagRule is a flag's rule: bad when its value breaks it, want what
// the flag wants.
type flagRule struct {
	flag  string
	value any
	bad   bool
	want  string
}

// maxJobs bounds every --jobs flag: each job is a search with its own
// tables (up to --memory each in spider bench), so a slip such as
// --jobs 999 would take the machine's memory rather than speed it up.
const maxJobs = 64

// noLimitWant is what a limit flag wants, 0 meaning none.
const noLimitWant = "at least 0 (0: no limit)"

// setAmong is the flags of names set on the command line, each as
// "--name", in fs's order (sorted by name): those a saved game being
// loaded would override.
func setAmong(fs *pflag.FlagSet, names ...string) []string {
	var set []string
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(names, f.Name) {
			set = append(set, "--"+f.Name)
		}
	})
	return set
}

// flagValue names flag and its value in a message, the one way every
// message about a flag's value does: --flag "value", the value quoted as
// the flag parser's own errors quote it, so that an empty value or one
// with spaces reads as what it is.
func flagValue(flag string, v any) string {
	return "--" + flag + " " + strconv.Quote(fmt.Sprint(v))
}

// firstBroken is the usage error of cmd's first broken rule, naming its
// flag and value (`--duration "-5s": want more than 0`): a rule told of
// several flags at once left the user to guess which was at fault. nil
// when every rule holds.
func firstBroken(cmd string, rules ...flagRule) error {
	return firstBrokenNamed(cmd, flagValue, rules...)
}

// firstBrokenNamed is firstBroken with name naming a flag and its value
// in the message (serve's names a value from the environment without
// showing it).
func firstBrokenNamed(cmd string, name func(flag string, v any) string, rules ...flagRule) error {
	for _, r := range rules {
		if r.bad {
			return flagErr("%s: %s: want %s", cmd, name(r.flag, r.value), r.want)
		}
	}
	return nil
}

// seatsRule is the rule of a live table's seats: --people at least 1,
// --bots at least 0, and 2 to 6 seats in all.
func seatsRule(cmd string, people, bots int) error {
	if err := firstBroken(cmd,
		flagRule{"people", people, people < 1, "at least 1"},
		flagRule{"bots", bots, bots < 0, "at least 0"}); err != nil {
		return err
	}
	if n := people + bots; n < 2 || n > arlington.MaxSeats {
		return flagErr("%s: %s and %s make %d seats: want 2 to %d", cmd, flagValue("people", people), flagValue("bots", bots), n, arlington.MaxSeats)
	}
	return nil
}

// badInput marks err as bad input (exit status 2) as it is: its words,
// and its chain, so that errors.Is still finds the sentinels under it
// (arlington.ErrBadAction, card.ErrBadCard, store.ErrBadPath).
func badInput(err error) error { return fmt.Errorf("%w: %w", errUsage, err) }

// runFunc runs a command once its flags are parsed; pos holds the
// positional arguments.
type runFunc func(ctx context.Context, env *Env, pos []string) error

// Run runs cardtable with args (without the program name) and returns the
// process exit status.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &output{w: stdout}
	env := &Env{Stdin: stdin, Stdout: out, Stderr: stderr}
	root := newRoot(env)
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	if c, err := oneDashLong(root, args); err != nil {
		return exitCode(env, c, err)
	}
	c, err := root.ExecuteContextC(ctx)
	if code, ok := interrupted(ctx, env, c, err); ok {
		return code
	}
	// A command that checks its own write (writeJSON, --version) fails
	// with the output's error: say it in the words of any lost output.
	if err == nil || errors.Is(err, pflag.ErrHelp) || out.lost(err) {
		err = out.failed()
	}
	return exitCode(env, c, err)
}

// oneDashLong refuses a long flag of the command written with one dash
// (-deal, -version, -help, as Go's flag package took them) before cobra
// parses it: pflag would read -version as -v then an unknown 'e'. One
// near a flag, or another command's (flagHint), is refused with the hint
// as a mistyped --flag is. A word that is the value of the flag before it
// is left alone.
func oneDashLong(root *cobra.Command, args []string) (*cobra.Command, error) {
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return nil, nil // cobra reports it
	}
	c.InitDefaultHelpFlag()
	lookup := func(name string) *pflag.Flag {
		if f := c.Flags().Lookup(name); f != nil {
			return f
		}
		return c.InheritedFlags().Lookup(name)
	}
	value := false // args[i] is the value of the flag before it
	for _, a := range args {
		if a == "--" {
			break
		}
		if value {
			value = false
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, _, eq := strings.Cut(a[2:], "=")
			if f := lookup(name); f != nil && !eq && f.NoOptDefVal == "" {
				value = true
			}
			continue
		}
		if len(a) < 3 || a[0] != '-' || !isLetter(a[1]) {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if len(name) < 2 {
			continue
		}
		if lookup(name) != nil {
			return c, flagErr("%s-%s: use --%s (long flags take two dashes)", cmdPrefix(c), name, name)
		}
		// A misspelt one (-too) would be refused by its first letter
		// alone, or the second (-hlep: -h is help's), without a hint.
		if hint := flagHint(c, name); hint != "" {
			return c, flagErr("%sunknown flag: -%s (%s)", cmdPrefix(c), name, hint)
		}
	}
	return nil, nil
}

// pgURL is a PostgreSQL URL in an error's words: quoted back as typed
// (%q's "...", to its closing quote, spaces and all: one argument), in
// pgx's backquotes, or bare, up to the next space; endMark is a mark of
// the sentence after a bare one.
var (
	pgURL   = regexp.MustCompile("\"postgres(?:ql)?://(?:[^\"\\\\]|\\\\.)*\"|`postgres(?:ql)?://[^`]*`|postgres(?:ql)?://\\S*")
	endMark = regexp.MustCompile(`[:,.;]+$`)
)

// redactURL is a URL pgURL found, its passwords masked and its quotes
// kept. pgx skips spaces ahead of a value, so a quoted URL is masked as
// the whole argument it is. A bare URL is one pgstore already masked
// (it names its --db so), and the mark after it belongs to the sentence;
// a bare one not yet masked is masked whole, mark and all, as a mark
// may be a password's last letter.
func redactURL(u string) string {
	switch u[0] {
	case '"':
		typed, err := strconv.Unquote(u)
		if err != nil {
			typed = u[1 : len(u)-1]
		}
		return strconv.Quote(pgstore.Redact(typed))
	case '`':
		return "`" + pgstore.Redact(u[1:len(u)-1]) + "`"
	}
	mark := endMark.FindString(u)
	if bare := strings.TrimSuffix(u, mark); pgstore.Redact(bare) == bare {
		return u
	}
	return pgstore.Redact(u)
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// exitCode reports err on standard error and maps it to an exit status.
func exitCode(env *Env, c *cobra.Command, err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintln(env.Stderr, errorLine(c, strings.TrimPrefix(err.Error(), "usage: ")))
		if errors.Is(err, errBadCall) && c != nil {
			fmt.Fprintf(env.Stderr, "Run '%s --help' for usage.\n", c.CommandPath())
		}
		return exitUsage
	}
	fmt.Fprintln(env.Stderr, errorLine(c, err.Error()))
	return exitFail
}

// errorLine is the one shape of every error a command ends with
// (docs/cli.md): "cardtable: COMMAND: message", COMMAND the command as
// typed below the program's name ("spider solve"), left out for the
// root command. A message that already starts with the command's path
// or name ("restore: ...", "connect: ...", "serve: --acme: ...") is not
// given it twice.
//
// Any PostgreSQL URL in msg is shown as pgstore.Redact shows a --db
// value, its passwords masked: a URL typed where no argument belongs is
// quoted back ("unexpected argument ..."), and no password may reach an
// error line.
func errorLine(c *cobra.Command, msg string) string {
	msg = pgURL.ReplaceAllStringFunc(msg, redactURL)
	if path := cmdPath(c); path != "" {
		for _, own := range []string{path, c.Name()} {
			if rest, ok := strings.CutPrefix(msg, own+": "); ok {
				msg = rest
				break
			}
			if rest, ok := strings.CutPrefix(msg, own+" -"); ok {
				msg = "-" + rest
				break
			}
		}
	}
	return "cardtable: " + cmdPrefix(c) + msg
}

// notef prints a note on standard error while the command runs on, in
// the shape of an error line ("cardtable: arlington connect: ..."), its
// words as they are.
func notef(env *Env, format string, args ...any) {
	fmt.Fprintln(env.Stderr, "cardtable: "+cmdPrefix(env.cmd)+fmt.Sprintf(format, args...))
}

// singleDash finds a long flag written with one dash in pflag's error
// ("unknown shorthand flag: 'd' in -deal").
var singleDash = regexp.MustCompile(`in -([A-Za-z][A-Za-z0-9-]+)`)

// flagError turns a flag parsing error into a usage error naming the
// command; a long flag written with one dash (-deal, as Go's flag package
// took it) is named with the two it needs, and an unknown flag is
// followed by the command it belongs to or the flag of this one likely
// meant (flagHint; one with one dash is oneDashLong's).
func flagError(c *cobra.Command, err error) error {
	if m := singleDash.FindStringSubmatch(err.Error()); m != nil {
		name, _, _ := strings.Cut(m[1], "=")
		if c.Flags().Lookup(name) != nil {
			return flagErr("%s-%s: use --%s (long flags take two dashes)", cmdPrefix(c), name, name)
		}
	}
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		if w := valueProblem(bad.GetFlag().Value.Type(), bad); w != "" {
			return flagErr("%s--%s: %q %s", cmdPrefix(c), bad.GetFlag().Name, bad.GetValue(), w)
		}
	}
	if hint := flagHint(c, unknownName(err)); hint != "" {
		return flagErr("%s%v (%s)", cmdPrefix(c), err, hint)
	}
	return flagErr("%s%v", cmdPrefix(c), err)
}

// valueProblem says what is wrong with a bad value of a number, duration
// or true-or-false flag of type typ (pflag's Value.Type), err the
// parser's error: "is not a whole number". The flag package's own words
// name strconv's functions or Go's types. "" for a flag of another type,
// whose value has words of its own. Both ways of giving a flag a value,
// the command line (flagError) and the environment (envDefaults), use it.
func valueProblem(typ string, err error) string {
	outOfRange := errors.Is(err, strconv.ErrRange)
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		switch {
		case outOfRange:
			return "is out of range for a whole number"
		case strings.HasPrefix(typ, "uint"):
			return "is not a whole number of 0 or more"
		}
		return "is not a whole number"
	case "float32", "float64":
		if outOfRange {
			return "is out of range for a number"
		}
		return "is not a number"
	case "duration":
		return "is not a duration: want a number with a unit, such as 500ms, 30s, 5m or 1h30m"
	case "bool":
		return "is not true or false"
	}
	return ""
}

// cmdPrefix is "spider solve: " for a message about that command; nothing
// for the root command (the message starts "cardtable: ").
func cmdPrefix(c *cobra.Command) string {
	if path := cmdPath(c); path != "" {
		return path + ": "
	}
	return ""
}

// cmdPath is the command as typed below the program's name ("spider
// solve"); "" for the root command, or none.
func cmdPath(c *cobra.Command) string {
	if c == nil || !c.HasParent() {
		return ""
	}
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// noArgsOrSub refuses positional arguments to a command that has
// subcommands and takes none itself: the argument is an unknown command.
func noArgsOrSub(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	c.SuggestionsMinimumDistance = 2
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
	}
	return flagErr("%s", msg)
}

// within puts prefix before err's words; a usage error stays one, its
// words after the prefix ("serve: --acme-ca: ...", not "serve: --acme-ca:
// usage: ..."), and err stays in the chain either way.
func within(prefix string, err error) error {
	if errors.Is(err, errUsage) {
		return reworded{"usage: " + prefix + ": " + strings.TrimPrefix(err.Error(), "usage: "), err}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

// reworded is err under other words.
type reworded struct {
	msg string
	err error
}

func (r reworded) Error() string { return r.msg }
func (r reworded) Unwrap() error { return r.err }

// noArgs refuses positional arguments to a command that takes none.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return flagErr("%sunexpected argument %q", cmdPrefix(c), args[0])
}

// groupRun is the run of a command that only holds subcommands.
func groupRun(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return flagErr("%smissing subcommand", cmdPrefix(c))
	}
	return noArgsOrSub(c, args)
}
