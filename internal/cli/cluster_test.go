package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/pgtest"
)

// The cluster harness: a PostgreSQL of the test's own (internal/pgtest),
// real `cardtable serve` processes on it (this test binary acting as the
// program, asMain) and a real nginx in front, spreading requests and
// WebSockets over them in turn, with no stickiness. Tests kill servers
// with SIGKILL and start them again.

// testCluster is a running cluster.
type testCluster struct {
	db    string // the PostgreSQL URL every server uses
	c     *fleet // the servers
	proxy string // nginx: http://127.0.0.1:PORT/
}

// startTestCluster starts PostgreSQL, n servers and nginx; all stop when
// the test ends. Without nginx or PostgreSQL the test skips saying so,
// or fails under CI=true.
func startTestCluster(t *testing.T, n int) *testCluster {
	t.Helper()
	needService(t, "nginx", "/usr/sbin/nginx")
	db := pgtest.DB(t)
	t.Setenv(asMain, "1") // the servers are this binary, acting as cardtable
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := startFleet(ctx, exe, db, n, nil, "--trusted-proxy", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		start := time.Now()
		var wg sync.WaitGroup
		for i, nd := range c.nodes {
			wg.Go(func() {
				if !nd.stop(30 * time.Second) {
					t.Errorf("server %d did not stop in 30 s of SIGTERM: %s", i+1, nd.tail())
				}
			})
		}
		wg.Wait()
		t.Logf("the servers stopped in %v", time.Since(start).Round(time.Millisecond))
	})
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	startNginx(t, deployNginx(t, listen, c.nodes), listen)
	return &testCluster{db: db, c: c, proxy: "http://" + listen + "/"}
}

// deployNginx is the load balancer's configuration as shipped
// (deploy/nginx.conf) for the tests' nginx: its upstream servers
// replaced by nodes and its listen address by listen. The map it brings
// is left out, since startNginx's http block has it.
func deployNginx(tb testing.TB, listen string, nodes []*node) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nginx.conf"))
	if err != nil {
		tb.Fatal(err)
	}
	conf := string(b)
	servers := upstreamLine.FindAllStringSubmatch(conf, -1)
	if len(servers) != 3 || !strings.Contains(conf, "listen 80;") || !strings.Contains(conf, mapLine) {
		tb.Fatalf("deploy/nginx.conf: want three upstream servers, listen 80 and the upgrade map:\n%s", conf)
	}
	var up strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&up, "    server %s %s;\n", n.addr, servers[0][2])
	}
	conf = strings.Replace(conf, servers[0][0], up.String(), 1)
	for _, s := range servers[1:] {
		conf = strings.Replace(conf, s[0], "", 1)
	}
	conf = strings.Replace(conf, "listen 80;", "listen "+listen+";", 1)
	return strings.Replace(conf, mapLine, "", 1)
}

// upstreamLine is a server line of deploy/nginx.conf's upstream: the
// address, then its parameters.
var upstreamLine = regexp.MustCompile(`(?m)^[ \t]*server (\S+:8080) ([^;]*);\n`)

const mapLine = "map $http_upgrade $connection_upgrade { default upgrade; '' close; }"

// TestClusterNginxConfig is the quick check of the harness's load
// balancer: the shipped deploy/nginx.conf, made the tests', keeps its
// parameters for each server and nginx accepts it (nginx -t).
func TestClusterNginxConfig(t *testing.T) {
	exe := needService(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	nodes := []*node{{addr: "127.0.0.1:1"}, {addr: "127.0.0.1:2"}}
	conf := deployNginx(t, "127.0.0.1:4", nodes)
	if c := strings.Count(conf, "max_fails=1 fail_timeout=2s;"); c != 2 || strings.Contains(conf, "cardtable1") ||
		!strings.Contains(conf, "listen 127.0.0.1:4;") {
		t.Fatalf("the upstream servers or the listen address not replaced:\n%s", conf)
	}
	// A paused or frozen server holds a request this long before nginx
	// tries the next (docs/hosting.md, "Several servers behind nginx").
	for _, d := range []string{"proxy_read_timeout 60s;", "proxy_connect_timeout 2s;"} {
		if !strings.Contains(conf, d) {
			t.Errorf("deploy/nginx.conf lacks %q", d)
		}
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	full := fmt.Sprintf("%s\ndaemon off;\npid %[2]s/nginx.pid;\nerror_log %[2]s/error.log;\nevents {}\nhttp {\n"+
		"map $http_upgrade $connection_upgrade { default upgrade; '' close; }\n%[3]s}\n", user, dir, conf)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(full), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "-t", "-c", path, "-p", dir, "-e", filepath.Join(dir, "error.log")).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("test is successful")) {
		t.Fatalf("nginx -t: %v\n%s\n%s", err, out, full)
	}
}

// logState is what a connect client's --log says of its table now: the
// last view's event count, whose turn it is, and whether the game is
// over.
type logState struct {
	count, toMove int
	over          bool
}

// readLogState reads a client's log (it may be mid-write: a last line
// that is not JSON yet is skipped).
func readLogState(path string) logState {
	b, _ := os.ReadFile(path)
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var m struct {
			Status string `json:"status"`
			View   *struct {
				Count  int `json:"eventCount"`
				ToMove int `json:"toMove"`
			} `json:"view"`
		}
		if json.Unmarshal(lines[i], &m) == nil && m.View != nil {
			return logState{count: m.View.Count, toMove: m.View.ToMove, over: m.Status == "over"}
		}
	}
	return logState{toMove: -1}
}
