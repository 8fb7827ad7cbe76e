package cli

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSpiderPlayPrompt: at a terminal (a pseudo-terminal here) spider play
// asks for each line with "> ", as Arlington's terminal play does, after
// the tableau, after a refusal and after the help; piped input, and the
// JSON lines, get no prompt.
func TestSpiderPlayPrompt(t *testing.T) {
	t.Run("terminal", func(t *testing.T) {
		typing, out, done := startTerminalPlay(t, "spider", "play", "--deal", "617", "--suits", "2")
		typ := func(line string) {
			t.Helper()
			if _, err := io.WriteString(typing, line+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		// Each line is typed once the prompt before it is out, as a
		// person would.
		arlWaitOut(t, out, "9S  2S  2H  TH\n> ")
		typ("move 11 2")
		arlWaitOut(t, out, "refused: bad format: pile 11: piles are 1 to 10\n> ")
		typ("m 4 5")
		arlWaitOutAfter(t, out, "score 10   moves 1", "TH\n> ")
		typ("help")
		arlWaitOut(t, out, "as it is.\n> ")
		typ("quit")
		if code := ended(t, done); code != exitOK {
			t.Fatalf("exit %d\n%s", code, out.String())
		}
		if got := strings.Count(out.String(), "> "); got != 4 {
			t.Errorf("%d prompts, want 4 (one a line read):\n%s", got, out.String())
		}
	})
	// Ctrl+D at the prompt ends the game, the prompt's line ended.
	t.Run("terminal EOF", func(t *testing.T) {
		typing, out, done := startTerminalPlay(t, "spider", "play", "--deal", "617", "--suits", "2")
		arlWaitOut(t, out, "TH\n> ")
		if _, err := typing.Write([]byte{4}); err != nil { // the terminal's end-of-file character
			t.Fatal(err)
		}
		if code := ended(t, done); code != exitOK || !strings.HasSuffix(out.String(), "TH\n> \n") {
			t.Fatalf("exit %d, want 0 and the output ending \"> \\n\":\n%q", code, out.String())
		}
	})
	// --json lines are for a program, even one run at a terminal.
	t.Run("terminal JSON", func(t *testing.T) {
		typing, out, done := startTerminalPlay(t, "spider", "play", "--deal", "617", "--suits", "2", "--json")
		arlWaitOut(t, out, "\n")
		if _, err := io.WriteString(typing, "m 4 5\nquit\n"); err != nil {
			t.Fatal(err)
		}
		if code := ended(t, done); code != exitOK || strings.Count(out.String(), "\n") != 2 || strings.Contains(out.String(), "> ") {
			t.Fatalf("exit %d, want 0, two JSON lines and no prompt:\n%s", code, out.String())
		}
	})
	for _, c := range []struct {
		name string
		json bool
	}{{"piped", false}, {"piped JSON", true}} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"spider", "play", "--deal", "617", "--suits", "2"}
			if c.json {
				args = append(args, "--json")
			}
			// A real pipe, as a shell gives: an *os.File that is no terminal.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := io.WriteString(w, "move 11 2\nm 4 5\nquit\n"); err != nil {
				t.Fatal(err)
			}
			w.Close()
			var out, errs strings.Builder
			code := Run(context.Background(), args, r, &out, &errs)
			if code != exitOK || !strings.Contains(out.String(), "piles are 1 to 10") || strings.Contains(out.String(), "> ") {
				t.Fatalf("exit %d, want 0 and no prompt\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
			}
		})
	}
}

// startTerminalPlay runs cardtable with args at a terminal (a
// pseudo-terminal: what is written to typing is read as typed lines),
// its output and errors in out, its exit code sent on done.
func startTerminalPlay(tb testing.TB, args ...string) (typing *os.File, out *syncBuffer, done chan int) {
	tb.Helper()
	typing, stdin := openPTY(tb)
	out = &syncBuffer{}
	done = make(chan int, 1)
	go func() { done <- Run(context.Background(), args, stdin, out, out) }()
	return typing, out, done
}

// ended waits, 20 s at most, for the end of what startTerminalPlay runs.
func ended(tb testing.TB, done <-chan int) int {
	tb.Helper()
	select {
	case code := <-done:
		return code
	case <-time.After(20 * time.Second):
		tb.Fatal("the game still runs 20 s after its last line")
		return 0
	}
}
