// Package cli holds cardtable's subcommands and wires the packages together:
// it is the one place that knows about flags, files, standard streams and
// exit codes.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
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
}

// errUsage marks an error as bad usage or bad input (exit status 2).
var errUsage = errors.New("usage")

// usageErr wraps a message as a usage error.
func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

// commands lists the top-level subcommands. Each game keeps its own
// subcommands in its own file.
func commands() []command {
	return []command{
		{"serve", "serve the browser UI (the default with no arguments)", runServe},
		{"spider", "Arachnid and Spider: new, play, solve, autoplay, bench, analyze", runSpider},
		{"arlington", "Arlington: set, compare, selfplay, play, bench, new-table, connect, loadtest", runArlington},
		{"backup", "copy the database while the server runs: --db PATH --to FILE", runBackup},
		{"restore", "put a backup in place while no server runs: --db PATH --from FILE", runRestore},
	}
}

// Run runs cardtable with args (without the program name) and returns the
// process exit status.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 {
		args = []string{"serve"}
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) == 1 || name != "help" {
			printUsage(stdout)
			return exitOK
		}
		// "help spider play" is "spider play -h": a command's own help.
		name, args = args[1], append(args[1:], "-h")
	}
	for _, c := range commands() {
		if c.name == name {
			return exitCode(env, c.run(ctx, env, args[1:]))
		}
	}
	fmt.Fprintf(stderr, "cardtable: unknown command %q\n", name)
	printUsage(stderr)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: cardtable [command] [flags]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "Run 'cardtable COMMAND -h' for a command's flags.")
}

// exitCode reports err on standard error and maps it to an exit status.
func exitCode(env *Env, err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintln(env.Stderr, "cardtable:", strings.TrimPrefix(err.Error(), "usage: "))
		return exitUsage
	}
	fmt.Fprintln(env.Stderr, "cardtable:", err)
	return exitFail
}

// newFlags makes a flag set that reports errors instead of exiting, with its
// usage text on env's standard error.
func newFlags(env *Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

// parseFlags parses args, turning flag errors into usage errors. Flags may
// come before or after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %s", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// subcommand dispatches args[0] among subs for a game's command.
func subcommand(ctx context.Context, env *Env, game string, args []string, subs []command) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		w := env.Stdout
		if len(args) == 0 {
			w = env.Stderr
		}
		fmt.Fprintf(w, "usage: cardtable %s SUBCOMMAND [flags]\n", game)
		for _, c := range subs {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		if len(args) == 0 {
			return usageErr("%s: missing subcommand", game)
		}
		return nil
	}
	for _, c := range subs {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	return usageErr("%s: unknown subcommand %q", game, args[0])
}
