package cli

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestArlingtonConnectPromptAfterChat: a line that arrives while the
// prompt is out (here the chat line the player just sent, coming back
// from the server) is printed on a line of its own, and the prompt is
// printed again below it. Before, it followed the "> " on the same line
// and no prompt was left on the screen: the player saw no sign that it
// was still their turn.
func TestArlingtonConnectPromptAfterChat(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	pr, pw := io.Pipe()
	out, errb := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"arlington", "connect", link, "--identity", ""}, pr, out, errb)
		pr.Close()
	}()
	t.Cleanup(func() { pw.Close() })
	// The line is read on the player's turn, with the prompt out.
	go io.WriteString(pw, "say good luck\n")
	arlWaitOut(t, out, "chat Terminal: good luck\n")
	arlWaitOut(t, out, "chat Terminal: good luck\n> ")
	if got := out.String(); !strings.Contains(got, "> \nchat Terminal: good luck\n> ") {
		t.Fatalf("the chat line is not on a line of its own below the prompt, with the prompt again after it:\n%s", got)
	}
	// q, as in Spider's terminal play, is quit.
	go io.WriteString(pw, "q\n")
	select {
	case code := <-done:
		if code != exitOK || !strings.Contains(out.String(), "left the table; seat 1 is") {
			t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("connect did not end")
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
