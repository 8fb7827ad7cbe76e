package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/internal/web"
)

// startNginx runs nginx with conf (its http block's servers) in a temp
// dir, in the foreground, until the test ends; it waits until every
// address in listen accepts connections.
func startNginx(t *testing.T, servers string, listen ...string) {
	t.Helper()
	exe := needService(t, "nginx", "/usr/sbin/nginx")
	dir := t.TempDir()
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // as root nginx would switch to nobody, who cannot read the temp dir
	}
	conf := fmt.Sprintf(`%s
daemon off;
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 128; }
http {
	access_log off;
	client_body_temp_path %[2]s/body;
	proxy_temp_path %[2]s/proxy;
	fastcgi_temp_path %[2]s/fastcgi;
	uwsgi_temp_path %[2]s/uwsgi;
	scgi_temp_path %[2]s/scgi;
	map $http_upgrade $connection_upgrade { default upgrade; '' close; }
	%[3]s
}
`, user, dir, servers)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-c", path, "-p", dir, "-e", filepath.Join(dir, "error.log"))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	// Exits when nginx does: at the test's end (SIGINT below, a fast stop).
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	for _, addr := range listen {
		for deadline := time.Now().Add(10 * time.Second); ; {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			select {
			case err := <-exited:
				log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
				t.Fatalf("nginx exited: %v\n%s\n%s", err, out, log)
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("nginx not listening on %s: %s", addr, out)
			}
		}
	}
}

// proxyServer is an nginx server block for addr passing everything,
// WebSockets included, to backend, as docs/hosting.md shows.
func proxyServer(addr, backend string) string {
	return fmt.Sprintf(`server {
		listen %s;
		location / {
			proxy_pass http://%s;
			proxy_http_version 1.1;
			proxy_set_header Host $http_host;
			proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
			proxy_set_header X-Forwarded-Proto $scheme;
			proxy_set_header Upgrade $http_upgrade;
			proxy_set_header Connection $connection_upgrade;
			proxy_read_timeout 60s;
		}
	}
`, addr, backend)
}

// clientFrom is an HTTP client whose connections come from the loopback
// address src.
func clientFrom(src string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// loopbackPort is a port free on the loopback address ip now.
func loopbackPort(tb testing.TB, ip string) int {
	tb.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestServeBehindNginx: behind a real nginx, a server started with
// --trusted-proxy gives each client (two loopback source addresses) its
// own rate-limit bucket and logs the client's address, a forged
// X-Forwarded-For changes nothing, and a WebSocket works through the
// proxy; a server without the flag sees every client as nginx.
func TestServeBehindNginx(t *testing.T) {
	old := serveRateLimit
	serveRateLimit = func() web.RateLimit {
		return web.RateLimit{Player: web.Bucket{Burst: 100, Every: time.Hour}, Address: web.Bucket{Burst: 3, Every: time.Hour}, MaxKeys: 100}
	}
	defer func() { serveRateLimit = old }()
	dir := t.TempDir()
	trusting := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "a.db"), "--trusted-proxy", "127.0.0.1",
		"--log-format", "json")
	plain := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "b.db"))
	backend := func(s *served) string { return strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/") }
	viaTrusting := fmt.Sprintf("127.0.0.2:%d", loopbackPort(t, "127.0.0.2"))
	viaPlain := fmt.Sprintf("127.0.0.3:%d", loopbackPort(t, "127.0.0.3"))
	startNginx(t, proxyServer(viaTrusting, backend(trusting))+proxyServer(viaPlain, backend(plain)), viaTrusting, viaPlain)

	ann, bob := clientFrom("127.0.0.4"), clientFrom("127.0.0.5")
	newGame := func(c *http.Client, via string, header ...string) int {
		req, _ := http.NewRequest("POST", "http://"+via+"/api/games", strings.NewReader(`{"deal":"1"}`))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		via     string
		bobCode int
	}{{viaTrusting, http.StatusCreated}, {viaPlain, http.StatusTooManyRequests}} {
		for i := range 3 {
			if code := newGame(ann, tc.via); code != http.StatusCreated {
				t.Fatalf("via %s: Ann's game %d: %d", tc.via, i+1, code)
			}
		}
		if code := newGame(ann, tc.via, "X-Forwarded-For", "198.51.100.1"); code != http.StatusTooManyRequests {
			t.Fatalf("via %s: Ann past her burst, with a forged X-Forwarded-For: %d, want 429", tc.via, code)
		}
		if code := newGame(bob, tc.via); code != tc.bobCode {
			t.Fatalf("via %s: Bob's first game: %d, want %d", tc.via, code, tc.bobCode)
		}
	}
	logs := trusting.log.String()
	if !strings.Contains(logs, `"msg":"request refused","reason":"rate limited","client":"127.0.0.4"`) {
		t.Fatalf("the refusal is not logged with Ann's address:\n%s", logs)
	}

	carl := clientFrom("127.0.0.6")
	base := "http://" + viaTrusting + "/"
	id := newTable(t, carl, base, `{"players":2,"bots":["","random"]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := watchTable(t, ctx, carl, base, id)
	conn.Close(websocket.StatusNormalClosure, "")
	// A browser's WebSocket names the page's origin, port included when
	// it is not the scheme's default, as here: the proxy must pass the
	// Host the browser sent, port and all ($http_host), or the server's
	// check of the origin against the Host refuses it (403). nginx's
	// $host drops the port.
	origin := strings.TrimSuffix(base, "/")
	u := "ws" + strings.TrimPrefix(base, "http") + "api/arlington/tables/" + id + "/ws"
	browserConn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: carl, HTTPHeader: http.Header{"Origin": {origin}}})
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("a browser's WebSocket (Origin %s) through nginx: %d %v", origin, status, err)
	}
	browserConn.Close(websocket.StatusNormalClosure, "")
}
