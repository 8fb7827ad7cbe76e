package cli

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestSpiderPlayPrompt: at a terminal (a pseudo-terminal here) spider play
// asks for each line with "> ", as Arlington's terminal play does, after
// the tableau, after a refusal and after the help; piped input, and the
// JSON lines, get no prompt.
func TestSpiderPlayPrompt(t *testing.T) {
	t.Run("terminal", func(t *testing.T) {
		typing, stdin := openPTY(t)
		out := &syncBuffer{}
		done := make(chan int, 1)
		go func() {
			done <- Run(context.Background(), []string{"spider", "play", "--deal", "617", "--suits", "2"}, stdin, out, out)
		}()
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
		if code := <-done; code != exitOK {
			t.Fatalf("exit %d\n%s", code, out.String())
		}
		if got := strings.Count(out.String(), "> "); got != 4 {
			t.Errorf("%d prompts, want 4 (one a line read):\n%s", got, out.String())
		}
	})
	// Ctrl+D at the prompt ends the game, the prompt's line ended.
	t.Run("terminal EOF", func(t *testing.T) {
		typing, stdin := openPTY(t)
		out := &syncBuffer{}
		done := make(chan int, 1)
		go func() {
			done <- Run(context.Background(), []string{"spider", "play", "--deal", "617", "--suits", "2"}, stdin, out, out)
		}()
		arlWaitOut(t, out, "TH\n> ")
		if _, err := typing.Write([]byte{4}); err != nil { // the terminal's end-of-file character
			t.Fatal(err)
		}
		if code := <-done; code != exitOK || !strings.HasSuffix(out.String(), "TH\n> \n") {
			t.Fatalf("exit %d, want 0 and the output ending \"> \\n\":\n%q", code, out.String())
		}
	})
	// --json lines are for a program, even one run at a terminal.
	t.Run("terminal JSON", func(t *testing.T) {
		typing, stdin := openPTY(t)
		out := &syncBuffer{}
		done := make(chan int, 1)
		go func() {
			done <- Run(context.Background(), []string{"spider", "play", "--deal", "617", "--suits", "2", "--json"}, stdin, out, out)
		}()
		arlWaitOut(t, out, "\n")
		if _, err := io.WriteString(typing, "m 4 5\nquit\n"); err != nil {
			t.Fatal(err)
		}
		if code := <-done; code != exitOK || strings.Count(out.String(), "\n") != 2 || strings.Contains(out.String(), "> ") {
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
			var out, errs strings.Builder
			code := Run(context.Background(), args, strings.NewReader("move 11 2\nm 4 5\nquit\n"), &out, &errs)
			if code != exitOK || !strings.Contains(out.String(), "piles are 1 to 10") || strings.Contains(out.String(), "> ") {
				t.Fatalf("exit %d, want 0 and no prompt\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
			}
		})
	}
}
