package cli

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/internal/web"
)

// stopBound is how soon after SIGTERM the server must have exited.
const stopBound = 10 * time.Second

// TestServeStopRestarting: when the server stops, a watching page's
// WebSocket is closed with "restarting" (1012, which the page shows and
// reconnects after), /readyz stops answering ready, and serve exits 0.
func TestServeStopRestarting(t *testing.T) {
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "r.db"))
	resp, err := http.Get(s.url + "readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz before stopping: %s", resp.Status)
	}
	id := newTable(t, browser, s.url, `{"players":2,"bots":["","medium"]}`)
	ctx, cancel := context.WithTimeout(context.Background(), stopBound)
	defer cancel()
	conn := watchTable(t, ctx, browser, s.url, id)
	defer conn.CloseNow()
	s.stop()
	code, reason, err := readUntilClosed(ctx, conn)
	if err != nil || code != websocket.StatusServiceRestart || reason != web.RestartReason {
		t.Fatalf("closed with %d %q (%v), want %d %q", code, reason, err, websocket.StatusServiceRestart, web.RestartReason)
	}
	select {
	case c := <-s.done:
		s.done <- c
		if c != exitOK {
			t.Fatalf("exit %d: %s", c, s.log)
		}
	case <-ctx.Done():
		t.Fatalf("serve still running %v after it was told to stop", stopBound)
	}
	if !strings.Contains(s.log.String(), `msg="websocket closed" reason=restarting`) {
		t.Fatalf("the close is not logged: %s", s.log)
	}
}

// TestLongServeSIGTERM: the real binary, sent SIGTERM with a page
// watching a table, closes the page's WebSocket with "restarting", keeps
// the table (the next start resumes it) and exits 0 within 10 s.
func TestLongServeSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; TestServeStopRestarting is the quick version")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cardtable")
	build := exec.Command("go", "build", "-o", bin, "cardtable/cmd/cardtable")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "s.db")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	// Exits when the server process does.
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-exited
		}
	})
	url := ""
	for deadline := time.Now().Add(30 * time.Second); url == ""; {
		if m := urlLine.FindStringSubmatch(logs.String()); m != nil {
			url = m[1]
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the server exited (%v): %s", err, logs)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL logged: %s", logs)
		}
	}
	id := newTable(t, browser, url, `{"players":2,"bots":["","medium"]}`)
	conn := watchTable(t, t.Context(), browser, url, id)
	defer conn.CloseNow()

	sent := time.Now()
	deadline := sent.Add(stopBound)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, reason, err := readUntilClosed(ctx, conn)
	if err != nil || code != websocket.StatusServiceRestart || reason != web.RestartReason {
		t.Fatalf("closed with %d %q (%v), want %d %q", code, reason, err, websocket.StatusServiceRestart, web.RestartReason)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit: %v; log:\n%s", err, logs)
		}
	case <-ctx.Done():
		t.Fatalf("still running %v after SIGTERM; log:\n%s", stopBound, logs)
	}
	t.Logf("exited 0 %v after SIGTERM", time.Since(sent).Round(time.Millisecond))
	if !regexp.MustCompile(`msg="shutting down"`).MatchString(logs.String()) {
		t.Fatalf("no shutdown logged:\n%s", logs)
	}
	// Flushed: the next start finds the table open.
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", db)
	resp, err := browser.Get(s.url + "api/arlington/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the table after a restart: %s", resp.Status)
	}
}

// TestServeStopDeadline: a request still running at the stop deadline is
// cut (its context ends) and the stop is still clean.
func TestServeStopDeadline(t *testing.T) {
	old := shutdownTimeout
	shutdownTimeout = 200 * time.Millisecond
	defer func() { shutdownTimeout = old }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, cut := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		close(cut)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, slog.New(slog.DiscardHandler), ln, h) }()
	go http.Get("http://" + ln.Addr().String() + "/") // its error is the point
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("stop with a request past the deadline: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stop waited for the request past its deadline")
	}
	<-cut
}
