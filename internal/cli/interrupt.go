package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Interrupt is the cause of Run's context ending when a signal asked
// cardtable to stop (SIGINT from Ctrl+C, SIGTERM from a service manager):
// a stop the user asked for, not a failure (docs/cli.md, "Interrupts").
type Interrupt struct{ Signal os.Signal }

func (i Interrupt) Error() string { return "interrupted by " + i.Signal.String() }

// SignalContext is parent ended, with an Interrupt as its cause, by the
// first SIGINT or SIGTERM. Later ones are caught and dropped until stop,
// as signal.NotifyContext does: they must not kill a server while it
// drains, and one signal often comes twice (coreutils timeout sends it
// to the process and then to its group). stop releases the signals, and
// may be called more than once; the goroutine ends at the first signal or
// at stop.
func SignalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(Interrupt{Signal: s})
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel(nil)
		})
	}
}

// interrupted reports the end of a command that a signal stopped: one
// line, "cardtable: COMMAND: interrupted", and the shell's status for a
// process a signal ended, 128 + the signal's number (130 for SIGINT, 143
// for SIGTERM), whatever the command returned: what it printed before
// (spider solve's search so far) stays printed, but the run was cut
// short. serve is the exception: a signal is how it is told to stop, so
// it drains and ends as it would anyway (0 after a clean drain, its own
// error if the drain failed); only a signal that cut its start short (its
// error is the context's) is an interrupt. ok is false when no signal
// ended ctx.
func interrupted(ctx context.Context, env *Env, c *cobra.Command, err error) (code int, ok bool) {
	var in Interrupt
	if ctx.Err() == nil || !errors.As(context.Cause(ctx), &in) || c == nil {
		return 0, false
	}
	if stopsOnSignal(c) && !errors.Is(err, context.Canceled) {
		return 0, false
	}
	if in.Signal == os.Interrupt && writesToTerminal(env.Stderr) {
		// A Ctrl+C: the terminal echoed ^C where the cursor was, after a
		// game's "> " prompt or a line of output, so the message starts
		// a line there (not in a file, nor after a SIGTERM, which echo
		// nothing).
		fmt.Fprintln(env.Stderr)
	}
	fmt.Fprintln(env.Stderr, errorLine(c, "interrupted"))
	n := 2 // SIGINT's number, where the signal has none (os.Interrupt on Windows is one)
	if s, isNum := in.Signal.(syscall.Signal); isNum {
		n = int(s)
	}
	return 128 + n, true
}

// stopsOnSignalAnnotation marks what takes a signal as its normal way to
// stop: as a command's annotation, the command (serve, and the root
// command, which serves); as a boolean flag's, the command when that flag
// is set (arlington loadtest --serve-only).
const stopsOnSignalAnnotation = "stops-on-signal"

// stopsOnSignal says whether c takes a signal as its normal way to stop:
// serve (and the root command, which serves) drains and exits 0. So does
// the server a load test starts as a child process (arlington loadtest
// --serve-only): the Ctrl+C that stops the load test reaches the child
// too (the terminal signals its whole process group), and the parent
// alone says it was interrupted.
func stopsOnSignal(c *cobra.Command) bool {
	if c.Annotations[stopsOnSignalAnnotation] != "" {
		return true
	}
	stops := false
	c.Flags().Visit(func(f *pflag.Flag) { // the flags set
		if f.Annotations[stopsOnSignalAnnotation] != nil && f.Value.String() == "true" {
			stops = true
		}
	})
	return stops
}
