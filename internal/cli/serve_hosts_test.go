package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseHosts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{" , ", nil, false},
		{"cards.example", []string{"cards.example"}, false},
		{"Cards.Example., 192.168.1.5,[2001:db8::1]", []string{"cards.example", "192.168.1.5", "2001:db8::1"}, false},
		{"cards.example:8080", nil, true},
		{"cards.example,evil example", nil, true},
		{"*", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseHosts(tc.in)
			if tc.err {
				if err == nil {
					t.Fatalf("parseHosts(%q) = %q, want an error", tc.in, got)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("parseHosts(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestListenHosts(t *testing.T) {
	var machine []string // every non-loopback address of this machine
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() {
			machine = append(machine, n.IP.String())
		}
	}
	tests := []struct {
		addr string
		ln   *net.TCPAddr
		want []string
	}{
		{"127.0.0.1:8080", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, nil},
		{"[::1]:8080", &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, nil},
		{"192.168.1.5:8080", &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 8080}, []string{"192.168.1.5"}},
		{"Box.LAN:8080", &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 8080}, []string{"box.lan", "10.0.0.2"}},
		{"0.0.0.0:8080", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, machine},
		{":8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, machine},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			got := listenHosts(tc.addr, tc.ln)
			if len(got) != len(tc.want) {
				t.Fatalf("listenHosts(%s) = %q, want %q", tc.addr, got, tc.want)
			}
			for i := range got {
				if net.ParseIP(tc.want[i]) != nil && !net.ParseIP(tc.want[i]).Equal(net.ParseIP(got[i])) ||
					net.ParseIP(tc.want[i]) == nil && got[i] != tc.want[i] {
					t.Fatalf("listenHosts(%s) = %q, want %q", tc.addr, got, tc.want)
				}
			}
		})
	}
}

// TestServeHostFlag: the real server answers localhost and the --host
// names, refuses others with 421, and sends its security headers.
func TestServeHostFlag(t *testing.T) {
	url, _ := serveInProcess(t, "--host", "cards.test", "--db", filepath.Join(t.TempDir(), "s.db"))
	for _, tc := range []struct {
		host string
		code int
	}{
		{"", 200}, // the URL's own, 127.0.0.1:port
		{"localhost", 200},
		{"cards.test:8080", 200},
		{"evil.test", 421},
	} {
		req, err := http.NewRequest("GET", url+"api/stats", nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("Host %q: status %d, want %d: %s", tc.host, resp.StatusCode, tc.code, body)
		}
		if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("Host %q: no Content-Security-Policy", tc.host)
		}
	}
}

func TestServeHostUsage(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"serve", "--host", "cards.test:80", "--addr", "127.0.0.1:0",
		"--db", filepath.Join(t.TempDir(), "x.db")}, strings.NewReader(""), &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "without a port") {
		t.Fatalf("exit %d, want %d; output %q", code, exitUsage, errb.String())
	}
}

// TestServeLogsEachHostOnce: the start's log lists every host the server
// answers once, localhost first, though --host names it again.
func TestServeLogsEachHostOnce(t *testing.T) {
	_, log := serveInProcess(t, "--host", "localhost,127.0.0.1,cards.test,127.0.0.1", "--db", filepath.Join(t.TempDir(), "s.db"))
	if want := "hosts=localhost,127.0.0.1,cards.test"; !strings.Contains(log.String(), want) {
		t.Errorf("start's log lacks %q:\n%s", want, log)
	}
}
