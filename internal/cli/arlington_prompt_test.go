package cli

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"
)

// arlWaitOut waits until out holds want, and fails tb after a while.
func arlWaitOut(tb testing.TB, out *syncBuffer, want string) {
	tb.Helper()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), want); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatalf("no %q in:\n%s", want, out.String())
		}
	}
}

// TestArlingtonConnectPromptAfterChat: at a terminal (a pseudo-terminal
// here) the prompt is printed once and every line the player reads
// starts a line of its own, its standard output and error going to one
// screen:
//   - the chat line the player sent comes back below the line they typed
//     at the prompt, and the prompt waits for it (it was printed at once,
//     then pushed up, a bare "> " line above the chat line);
//   - a note of a lost connection (standard error) starts a line of its
//     own rather than following the "> ";
//   - a chat line typed while the connection is down is not sent, in
//     words, and the prompt comes back once the connection is.
func TestArlingtonConnectPromptAfterChat(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	p := startCutProxy(t, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	viaProxy := "http://" + p.addr + "/" + strings.TrimPrefix(link, url)
	typing, stdin := openPTY(t)
	out := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"arlington", "connect", viaProxy, "--identity", ""}, stdin, out, out)
	}()
	typ := func(line string) {
		t.Helper()
		if _, err := io.WriteString(typing, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// Not typed before the turn: whether the reader has a line before
	// the table's view comes is up to the scheduler (it lost on a quiet
	// machine, and the prompt came twice).
	arlWaitOut(t, out, "\n> ")
	typ("say good luck")
	// The typed line's echo (the terminal's, not in out) ended the
	// prompt's line; the chat line follows it, then the prompt, once.
	arlWaitOut(t, out, "chat Terminal: good luck\n> ")
	if got := out.String(); strings.Contains(got, "> > ") || !strings.Contains(got, "\n> chat Terminal: good luck\n> ") {
		t.Fatalf("the prompt twice, or the chat line not just below the typed line:\n%s", got)
	}
	p.cut()
	arlWaitOut(t, out, "connection to the table lost")
	if got := out.String(); !strings.Contains(got, "good luck\n> \ncardtable: arlington connect: connection to the table lost") {
		t.Fatalf("the note of the loss is not on a line of its own:\n%s", got)
	}
	typ("say still here")
	arlWaitOut(t, out, "not sent: the connection to the table is down; say it again once it is back\n")
	p.resume(t)
	arlWaitOut(t, out, "connection to the table is back\n")
	_, after, _ := strings.Cut(out.String(), "connection to the table is back\n")
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(after, "> "); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt after the connection came back:\n%s", out.String())
		}
		_, after, _ = strings.Cut(out.String(), "connection to the table is back\n")
	}
	// q, as in Spider's terminal play, is quit.
	typ("q")
	select {
	case code := <-done:
		if code != exitOK || !strings.Contains(out.String(), "left the table; seat 1 is") {
			t.Fatalf("exit %d:\n%s", code, out.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("connect did not end")
	}
}

// TestArlingtonPipedNoPrompt: with standard input piped (a script), the
// terminal games print no "> " prompt: it only cluttered their output.
func TestArlingtonPipedNoPrompt(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	for _, args := range [][]string{
		{"arlington", "connect", link, "--identity", ""},
		{"arlington", "play", "--seed", "1", "--bot-seed", "1"},
	} {
		out, errs, code := arlRun(t, "legal\nq\n", args...)
		if code != exitOK || !strings.Contains(out, "  1  ") || strings.Contains(out, "> ") {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", args[1], code, out, errs)
		}
	}
}

// TestArlingtonConnectChatTooLong: a chat line longer than the server
// takes is refused at the terminal, saying the limit, and the connection
// stays. Before, one over 4 KiB went out, the server closed the
// connection unread, and the player read only that it was lost.
func TestArlingtonConnectChatTooLong(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	script := "say " + strings.Repeat("x", 5000) + "\nquit\n"
	out, errs, code := arlRun(t, script, "arlington", "connect", link, "--identity", "")
	if code != exitOK || !strings.Contains(out, "not sent: a chat line is at most 200 characters, this one has 5000\n") ||
		strings.Contains(errs, "lost") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// The limit is the server's, counted as it counts: after its format
	// characters (here a zero-width space at the end) are made spaces and
	// trimmed, this line has 200, and goes.
	line := strings.Repeat("x", table.MaxChatRunes)
	link = arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	got := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"arlington", "connect", link, "--identity", ""}, pr, got, got)
		pr.Close()
	}()
	go io.WriteString(pw, "say "+line+"\u200b\n")
	arlWaitOut(t, got, "chat Terminal: "+line+"\n")
	go io.WriteString(pw, "q\n")
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("connect did not end")
	}
}

// TestArlingtonConnectAgainNoStandIn: a player who connects again to a
// table where they played (here, once the game is over) is told the
// game so far without calling their own moves the stand-in's: nothing in
// the events says who made a move of their seat before this run, so
// only the moves since it joined that it did not send are marked. Before,
// every move of theirs in the game so far read "stand-in: seat 1 (you)".
func TestArlingtonConnectAgainNoStandIn(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "1", "--turn-timer", "off")
	id := filepath.Join(t.TempDir(), "identity.json")
	first, errs, code := arlRun(t, strings.Repeat("auto\n", 500), "arlington", "connect", link, "--identity", id)
	if code != exitOK || !strings.Contains(first, "game over after") || !strings.Contains(first, "seat 1 (you) ") {
		t.Fatalf("the game: exit %d\n%s\n%s", code, first, errs)
	}
	again, errs, code := arlRun(t, "", "arlington", "connect", link, "--identity", id)
	if code != exitOK || !strings.Contains(again, "you are seat 1") || !strings.Contains(again, "game over after") {
		t.Fatalf("again: exit %d\n%s\n%s", code, again, errs)
	}
	if strings.Contains(first+again, "stand-in: ") {
		t.Fatalf("the player's own moves told as the stand-in's:\n%s", again)
	}
}
