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
	// A database of their own: this part is about the signal, not about
	// reopening the file just closed (TestServeClosesDatabase).
	other := filepath.Join(t.TempDir(), "o.db")
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--db", other},
		{"--addr", "127.0.0.1:0", "--db", other},
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

// cancelOnOutput cancels a context once the output written to it holds
// after ("" for the first write): the command has shown that much.
type cancelOnOutput struct {
	after  string
	mu     sync.Mutex
	seen   bytes.Buffer
	once   sync.Once
	cancel func()
}

func (w *cancelOnOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.seen.Write(p)
	found := strings.Contains(w.seen.String(), w.after)
	w.mu.Unlock()
	if found {
		w.once.Do(w.cancel)
	}
	return len(p), nil
}

// TestInterruptTerminalPlay: a Ctrl+C while terminal play waits for the
// player's next line ends the game at once (it waited for the line, and
// a terminal left idle never sends one), saying so on a line of its own
// rather than after the echoed ^C when standard error is the terminal;
// in a file, or after a SIGTERM (no ^C echoed), the line comes alone. The
// interrupt comes once the game has asked for a line: its "> " prompt
// (before it, the game would see the interrupt without reading).
func TestInterruptTerminalPlay(t *testing.T) {
	spider := []string{"spider", "play", "--deal", "1"}
	for _, tc := range []struct {
		name   string
		args   []string
		sig    os.Signal
		toFile bool // standard error a file, not the terminal
		code   int
		want   string
	}{
		{"spider play", spider, os.Interrupt, false, 130, "\ncardtable: spider play: interrupted\n"},
		{"arlington play", []string{"arlington", "play", "--seed", "1", "--bot-seed", "1"}, os.Interrupt, false, 130,
			"\ncardtable: arlington play: interrupted\n"},
		{"spider play, errors to a file", spider, os.Interrupt, true, 130, "cardtable: spider play: interrupted\n"},
		{"spider play, SIGTERM", spider, syscall.SIGTERM, false, 143, "cardtable: spider play: interrupted\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(t.Context())
			_, stdin := openPTY(t) // a terminal: no line comes
			stderr, said := stderrSink(t, tc.toFile)
			out := &cancelOnOutput{after: "\n> ", cancel: func() { cancel(Interrupt{Signal: tc.sig}) }}
			done := make(chan int, 1)
			go func() { done <- Run(ctx, tc.args, stdin, out, stderr) }()
			select {
			case code := <-done:
				if got := said(); code != tc.code || got != tc.want {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, got, tc.code, tc.want)
				}
				if ctx.Err() == nil {
					t.Fatalf("ended before it asked for a line (output %q)", out.seen.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting for a line 10 s after the interrupt")
			}
		})
	}
}

// stderrSink is a standard error for a command: a file, or a terminal (a
// pseudo-terminal's side a program writes to). said, called once the
// command has ended, returns what it wrote, a terminal's "\r\n" read as
// "\n".
func stderrSink(tb testing.TB, toFile bool) (w *os.File, said func() string) {
	tb.Helper()
	if toFile {
		f, err := os.Create(filepath.Join(tb.TempDir(), "stderr"))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { f.Close() })
		return f, func() string {
			b, err := os.ReadFile(f.Name())
			if err != nil {
				tb.Fatal(err)
			}
			return string(b)
		}
	}
	read, term := openPTY(tb)
	var got syncBuffer
	go io.Copy(&got, read) // ends when the test's cleanup closes read
	return term, func() string {
		// What the terminal shows reaches its other side a moment later.
		arlWaitOut(tb, &got, "interrupted\r\n")
		return strings.ReplaceAll(got.String(), "\r\n", "\n")
	}
}

// signalArgs names the variable that makes the test binary (TestMain)
// the process TestInterruptSignal and TestLongInterruptSignalTwiceServe
// send signals to: cardtable's main, running the command it holds.
const signalArgs = "CARDTABLE_SIGNAL_ARGS"

// signalChild is that process: it says "ready" once the signals are
// caught and "stopping" once one has ended the command's context. After
// the command it waits for its standard input to end before it releases
// the signals, so that the parent can send a second signal at a known
// point, once the first was taken and the program still runs.
func signalChild(args string) int {
	ctx, stop := SignalContext(context.Background())
	defer stop() // a second call, as main's deferred one may be
	os.Stdout.WriteString("ready\n")
	context.AfterFunc(ctx, func() { os.Stdout.WriteString("stopping\n") })
	code := Run(ctx, strings.Fields(args), strings.NewReader(""), io.Discard, os.Stderr)
	io.Copy(io.Discard, os.Stdin)
	stop()
	return code
}

// TestInterruptSignal: the real signals, to a process running
// SignalContext as main does: SIGINT stops a long self-play with 130,
// SIGTERM with 143, and one line on standard error. A second signal,
// sent once the first has ended the command's context and before the
// program lets go of the signals, is caught and dropped, as one signal
// sent twice must be (coreutils timeout sends it to the process, then to
// its group): with the signals released at the first, the second killed
// the process. The child leaves no temporary directory behind.
func TestInterruptSignal(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), signalArgs+"=arlington selfplay --games 1000000", "TMPDIR="+tmp)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
			defer timer.Stop()
			out := bufio.NewReader(stdout)
			for _, say := range []string{"ready\n", "stopping\n"} {
				if line, err := out.ReadString('\n'); line != say {
					t.Fatalf("child said %q (%v), want %q; stderr %q", line, err, say, errb.String())
				}
				// Alive until its standard input ends: the signal reaches it.
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			stdin.Close()
			err = cmd.Wait()
			if want := "cardtable: arlington selfplay: interrupted\n"; cmd.ProcessState.ExitCode() != tc.code || errb.String() != want {
				t.Fatalf("exit %v, stderr %q; want %d and %q", err, errb.String(), tc.code, want)
			}
			if left := dirList(t, tmp); left != "" {
				t.Errorf("the child left %s in its TMPDIR", left)
			}
		})
	}
}

// TestSignalContextStopTwice: stop may be called twice (an explicit
// call and a deferred one); it once closed a closed channel.
func TestSignalContextStopTwice(t *testing.T) {
	ctx, stop := SignalContext(t.Context())
	stop()
	stop()
	if ctx.Err() == nil {
		t.Fatal("stop did not end the context")
	}
}

// TestLongInterruptSignalTwiceServe: a second signal while serve drains
// after the first is caught and dropped: the drain finishes and serve
// exits 0, not killed by the second (SIGTERM often comes twice: timeout
// sends it to the process, then to its group). TestInterruptSignal, which
// sends its second signal after self-play's context has ended, is the
// quick version.
func TestLongInterruptSignalTwiceServe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process (2-3 s under -race); TestInterruptSignal is the quick version")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), signalArgs+"=serve --addr 127.0.0.1:0 --db "+filepath.Join(t.TempDir(), "s.db"))
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
	// read is closed once the whole log is read; the reader ends when
	// the child's stderr closes.
	read := make(chan struct{})
	go func() {
		defer close(read)
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
	// Wait closes the pipe: its last lines (the drain's) are read first.
	<-read
	err = cmd.Wait()
	if err != nil || !strings.Contains(logs.String(), "shutting down") {
		t.Fatalf("exit %v, want 0 after its drain; log:\n%s", err, logs)
	}
}

// TestInterruptLoadtestServerQuiet: the server a load test starts as a
// child (--serve-only) takes the Ctrl+C that reaches its whole process
// group as its way to stop, as serve does: exit 0, nothing said; the
// load test alone reports the interrupt.
func TestInterruptLoadtestServerQuiet(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	stdin, parent := io.Pipe() // the parent keeps it open
	defer parent.Close()
	out, outW := io.Pipe()
	var errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"arlington", "loadtest", "--serve-only", "--tables", "2"}, stdin, outW, &errb)
		outW.Close()
	}()
	lines := bufio.NewReader(out)
	if first, err := lines.ReadString('\n'); !strings.Contains(first, `"url"`) {
		t.Fatalf("first line %q (%v), want its URL; stderr %q", first, err, errb.String())
	}
	go io.Copy(io.Discard, lines) // the memory lines, until it ends
	cancel(Interrupt{Signal: os.Interrupt})
	select {
	case code := <-done:
		if code != exitOK || errb.String() != "" {
			t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the load test's server still running 15 s after the interrupt")
	}
}

// TestStopsOnSignalCommands: the commands that take a signal as their
// way to stop are serve, the root command (which serves) and the load
// test's server (arlington loadtest with --serve-only set); no other.
func TestStopsOnSignalCommands(t *testing.T) {
	root := newRoot(&Env{})
	for _, path := range commandPaths(root, nil) {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		want := len(path) == 0 || len(path) == 1 && path[0] == "serve"
		if got := stopsOnSignal(c); got != want {
			t.Errorf("%q: stops on a signal %v, want %v", strings.Join(path, " "), got, want)
		}
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{{[]string{"--serve-only"}, true}, {[]string{"--serve-only=false"}, false}, {[]string{"--tables", "2"}, false}} {
		c, _, err := newRoot(&Env{}).Find([]string{"arlington", "loadtest"})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := stopsOnSignal(c); got != tc.want {
			t.Errorf("arlington loadtest %v: stops on a signal %v, want %v", tc.args, got, tc.want)
		}
	}
}
