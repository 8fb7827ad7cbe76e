package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// interruptedContext is a context a Ctrl+C has ended, as SignalContext
// ends it.
func interruptedContext(t *testing.T) context.Context {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(Interrupt{Signal: os.Interrupt})
	return ctx
}

// TestInterruptQuiet: a command a Ctrl+C stops says only that it was
// interrupted, under its name, and exits 130, whether it was stopped in
// the middle (selfplay, analyze and connect return the context's error)
// or reported what it had so far (solve prints the search's summary).
// It once said "cardtable: context canceled" and exited 1, or exited 0.
func TestInterruptQuiet(t *testing.T) {
	save := filepath.Join(t.TempDir(), "s.txt")
	write(t, save, "cardtable spider 1\nvariant: arachnid\nsuits: 4\ndeal: 1\nmoves: 0\n")
	for _, args := range [][]string{
		{"spider", "solve", "--deal", "1"},
		{"spider", "analyze", "--load", save},
		{"spider", "autoplay", "--deal", "1"},
		{"arlington", "selfplay", "--games", "1000"},
		{"arlington", "connect", "http://127.0.0.1:1/arlington/t/abcdefgh", "--bot", "random"},
	} {
		name := strings.Join(args[:2], " ")
		t.Run(name, func(t *testing.T) {
			var errb bytes.Buffer
			code := Run(interruptedContext(t), args, strings.NewReader(""), io.Discard, &errb)
			if want := "cardtable: " + name + ": interrupted\n"; code != 130 || errb.String() != want {
				t.Fatalf("exit %d, stderr %q; want 130 and %q", code, errb.String(), want)
			}
		})
	}
}

// TestInterruptServeDrains: serve takes a signal as its way to stop: it
// drains and exits 0, saying nothing of an interrupt. A signal that comes
// before it serves (here, before it opened its database) cuts its start
// short, an interrupt like any other command's.
func TestInterruptServeDrains(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", db)
	s.stop()
	select {
	case code := <-s.done:
		s.done <- code
		if code != exitOK || strings.Contains(s.log.String(), "interrupted") {
			t.Fatalf("serve stopped by a signal: exit %d; want 0 and no interrupt: %s", code, s.log)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("serve still running 15 s after a signal: %s", s.log)
	}
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--db", db},
		{"--addr", "127.0.0.1:0", "--db", db},
	} {
		var errb bytes.Buffer
		code := Run(interruptedContext(t), args, nil, io.Discard, &errb)
		want := "cardtable: serve: interrupted\n"
		if args[0] != "serve" {
			want = "cardtable: interrupted\n"
		}
		if code != 130 || errb.String() != want {
			t.Fatalf("%v, a signal before it serves: exit %d, stderr %q; want 130 and %q", args, code, errb.String(), want)
		}
	}
}

// cancelOnWrite cancels a context at the first write to it: the command
// has started and shown its opening.
type cancelOnWrite struct {
	once   sync.Once
	cancel func()
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.once.Do(w.cancel)
	return len(p), nil
}

// TestInterruptTerminalPlay: a Ctrl+C while terminal play waits for the
// player's next line ends the game at once (it waited for the line, and
// a terminal left idle never sends one).
func TestInterruptTerminalPlay(t *testing.T) {
	for _, args := range [][]string{
		{"spider", "play", "--deal", "1"},
		{"arlington", "play", "--seed", "1", "--bot-seed", "1"},
	} {
		name := strings.Join(args[:2], " ")
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(t.Context())
			stdin, typing := io.Pipe() // a terminal: no line comes
			defer typing.Close()
			out := &cancelOnWrite{cancel: func() { cancel(Interrupt{Signal: os.Interrupt}) }}
			var errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- Run(ctx, args, stdin, out, &errb) }()
			select {
			case code := <-done:
				if want := "cardtable: " + name + ": interrupted\n"; code != 130 || errb.String() != want {
					t.Fatalf("exit %d, stderr %q; want 130 and %q", code, errb.String(), want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting for a line 10 s after the interrupt")
			}
		})
	}
}

// TestSignalChild is the process TestInterruptSignal sends SIGINT or
// SIGTERM to: cardtable's main, running the command in
// CARDTABLE_SIGNAL_ARGS.
func TestSignalChild(t *testing.T) {
	args := os.Getenv("CARDTABLE_SIGNAL_ARGS")
	if args == "" {
		t.Skip("the child half of TestInterruptSignal")
	}
	ctx, stop := SignalContext(context.Background())
	os.Stdout.WriteString("ready\n") // the signals are caught from here on
	context.AfterFunc(ctx, func() { os.Stdout.WriteString("stopping\n") })
	code := Run(ctx, strings.Fields(args), strings.NewReader(""), io.Discard, os.Stderr)
	stop()
	os.Exit(code)
}

// TestInterruptSignal: the real signals, to a process running
// SignalContext as main does: SIGINT stops a long self-play with 130,
// SIGTERM with 143, and one line on standard error. The signal is sent
// twice, as coreutils timeout sends it (to the process, then to its
// group): the second must not kill the process before it has stopped.
func TestInterruptSignal(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestSignalChild$", "-test.v=false")
			cmd.Env = append(os.Environ(), "CARDTABLE_SIGNAL_ARGS=arlington selfplay --games 1000000")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
				t.Fatalf("child said %q (%v)", line, err)
			}
			for range 2 {
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
			defer timer.Stop()
			err = cmd.Wait()
			if want := "cardtable: arlington selfplay: interrupted\n"; cmd.ProcessState.ExitCode() != tc.code || errb.String() != want {
				t.Fatalf("exit %v, stderr %q; want %d and %q", err, errb.String(), tc.code, want)
			}
		})
	}
}

// TestLongInterruptSignalTwiceServe: a second signal while serve drains
// after the first is caught and dropped: the drain finishes and serve
// exits 0, not killed by the second (SIGTERM often comes twice: timeout
// sends it to the process, then to its group). TestInterruptSignal, which
// sends its signals back to back, is the quick version.
func TestLongInterruptSignalTwiceServe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process (2-3 s under -race); TestInterruptSignal is the quick version")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), "CARDTABLE_SIGNAL_ARGS=serve --addr 127.0.0.1:0 --db "+filepath.Join(t.TempDir(), "s.db"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	logs := &syncBuffer{}
	serving := make(chan struct{})
	go func() { // ends when the child's stderr closes
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if strings.Contains(sc.Text(), `msg="cardtable serving"`) {
				once.Do(func() { close(serving) })
			}
		}
	}()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); line != "ready\n" {
		t.Fatalf("child said %q (%v)", line, err)
	}
	<-serving
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if line, err := out.ReadString('\n'); line != "stopping\n" {
		t.Fatalf("child said %q (%v)", line, err)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM) // it may have exited already
	err = cmd.Wait()
	if err != nil || !strings.Contains(logs.String(), "shutting down") {
		t.Fatalf("exit %v, want 0 after its drain; log:\n%s", err, logs)
	}
}
