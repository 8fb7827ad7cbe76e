package cli

import (
	"bufio"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
)

// heldConn opens a connection to addr and has one request answered on
// it, leaving it open (keep-alive) as an idle browser's is; nil and the
// error when the server closed it instead of answering.
func heldConn(t *testing.T, addr string) (net.Conn, error) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")); err != nil {
		c.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %s", resp.Status)
	}
	return c, nil
}

// TestServeConnectionsPerAddress: one client address holds at most
// web.MaxConnsPerAddress connections open; the next is closed unanswered
// (before, one machine holding idle keep-alive connections took every
// file descriptor and the server accepted no one), a place freed is
// taken again, and a trusted proxy's connections are not counted.
func TestServeConnectionsPerAddress(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		name := "untrusted"
		args := []string{"--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "x.db")}
		if trusted {
			name = "trusted proxy"
			args = append(args, "--trusted-proxy", "127.0.0.1")
		}
		t.Run(name, func(t *testing.T) {
			s := startServe(t, args...)
			addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/")
			var held []net.Conn
			defer func() {
				for _, c := range held {
					c.Close()
				}
			}()
			for range web.MaxConnsPerAddress {
				c, err := heldConn(t, addr)
				if err != nil {
					t.Fatalf("connection %d refused: %v", len(held)+1, err)
				}
				held = append(held, c)
			}
			c, err := heldConn(t, addr)
			if trusted {
				if err != nil {
					t.Fatalf("a trusted proxy's connection %d refused: %v", len(held)+1, err)
				}
				c.Close()
				return
			}
			if err == nil {
				c.Close()
				t.Fatalf("connection %d answered; want it closed (at most %d an address)", len(held)+1, web.MaxConnsPerAddress)
			}
			held[0].Close()
			held = held[1:]
			// The place frees once the server has seen the close.
			deadline := time.Now().Add(10 * time.Second)
			for {
				c, err := heldConn(t, addr)
				if err == nil {
					held = append(held, c)
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no place after one connection closed: %v", err)
				}
			}
			if !strings.Contains(s.log.String(), `reason="too many connections"`) {
				t.Errorf("refusal not logged: %s", s.log)
			}
		})
	}
}
