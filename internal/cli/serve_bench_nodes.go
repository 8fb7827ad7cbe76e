package cli

// Several `cardtable serve` processes on one database, started by this
// program: the servers of `serve bench --servers N`, and of the tests
// that kill them.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// servedURL finds the URL a server logs as it starts (text log format).
var servedURL = regexp.MustCompile(`msg="cardtable serving" url=(https?://\S+/)`)

// nodeLogKept is how much of a server's log a node keeps: the latest
// lines, for an error message.
const nodeLogKept = 64 << 10

// node is one `cardtable serve` process on a fixed loopback address, so
// that a restart comes back where it was (as a machine restarted by its
// service manager would).
type node struct {
	exe  string
	args []string // after "serve"
	env  []string
	addr string // 127.0.0.1:PORT
	url  string // http://127.0.0.1:PORT/

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	logs []byte        // its log's last nodeLogKept bytes, over every start
	// warns and errs count its log's warnings and errors over every
	// start; firstErr is the first error line.
	warns, errs int
	firstErr    string
}

// newNode is a server of this program (exe: os.Executable) on a free
// loopback port with the database db (given in the environment, so that
// a password stays out of ps), env added to this process's environment
// and extra serve flags. It is not started.
func newNode(exe, db string, env []string, extra ...string) (*node, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	args := append([]string{"--addr", addr, "--log-format", "text"}, extra...)
	return &node{exe: exe, args: args, addr: addr, url: "http://" + addr + "/",
		env: append(append(os.Environ(), env...), "CARDTABLE_DB="+db)}, nil
}

// start runs the server and waits until it logs its URL (a minute at
// most: a server taking over tables may take a while).
func (n *node) start(ctx context.Context) error {
	n.mu.Lock()
	cmd := exec.Command(n.exe, append([]string{"serve"}, n.args...)...)
	cmd.Env = n.env
	n.mu.Unlock()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	n.mu.Lock()
	n.cmd, n.done = cmd, done
	n.mu.Unlock()
	up := make(chan struct{})
	// Reads the log until the process exits (its stderr closes).
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		seen := false
		for sc.Scan() {
			n.note(sc.Bytes())
			if !seen && servedURL.Match(sc.Bytes()) {
				seen = true
				close(up)
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		_ = cmd.Wait()
	}()
	select {
	case <-up:
		return nil
	case <-done:
		return fmt.Errorf("server %s exited as it started: %s", n.addr, lastLines(n.tail(), 5))
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	n.kill()
	return fmt.Errorf("server %s did not start in a minute: %s", n.addr, lastLines(n.tail(), 5))
}

// note keeps a log line.
func (n *node) note(line []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case bytes.Contains(line, []byte(" level=ERROR ")):
		if n.errs++; n.firstErr == "" {
			n.firstErr = string(line)
		}
	case bytes.Contains(line, []byte(" level=WARN ")):
		n.warns++
	}
	n.logs = append(n.logs, line...)
	n.logs = append(n.logs, '\n')
	if len(n.logs) > nodeLogKept {
		n.logs = append(n.logs[:0], n.logs[len(n.logs)-nodeLogKept:]...)
	}
}

// logCounts is how many warnings and errors the server logged, and its
// first error.
func (n *node) logCounts() (warns, errs int, first string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.warns, n.errs, n.firstErr
}

// tail is the server's latest log lines.
func (n *node) tail() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return string(n.logs)
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// pid is the running process's id (0: none).
func (n *node) pid() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil || n.cmd.Process == nil {
		return 0
	}
	select {
	case <-n.done:
		return 0
	default:
		return n.cmd.Process.Pid
	}
}

// kill ends the process with SIGKILL (nothing flushed, nothing handed
// over) and waits for it.
func (n *node) kill() {
	n.signal(syscall.SIGKILL, 0)
}

// stop sends SIGTERM (the server hands its tables over and exits) and
// waits up to grace for it, then kills it. It reports whether the
// process exited on its own.
func (n *node) stop(grace time.Duration) bool {
	return n.signal(syscall.SIGTERM, grace)
}

func (n *node) signal(sig syscall.Signal, grace time.Duration) bool {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	if cmd == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	_ = cmd.Process.Signal(sig)
	if sig != syscall.SIGKILL {
		select {
		case <-done:
			return true
		case <-time.After(grace):
			_ = cmd.Process.Kill()
		}
	}
	<-done
	return sig == syscall.SIGKILL
}

// fleet is the servers of one run.
type fleet struct {
	nodes []*node
}

// startFleet starts n servers of exe on db, each with env and extra
// flags, one after another (each applies pending migrations under its
// lock).
func startFleet(ctx context.Context, exe, db string, n int, env []string, extra ...string) (*fleet, error) {
	c := &fleet{}
	for range n {
		nd, err := newNode(exe, db, env, extra...)
		if err != nil {
			c.close()
			return nil, err
		}
		if err := nd.start(ctx); err != nil {
			c.close()
			return nil, err
		}
		c.nodes = append(c.nodes, nd)
	}
	return c, nil
}

// urls is every server's URL without its final slash.
func (c *fleet) urls() []string {
	var u []string
	for _, n := range c.nodes {
		u = append(u, strings.TrimSuffix(n.url, "/"))
	}
	return u
}

// close stops every server (SIGTERM, then SIGKILL after 30 s).
func (c *fleet) close() {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Go(func() { n.stop(30 * time.Second) })
	}
	wg.Wait()
}
