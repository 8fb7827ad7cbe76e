package arlweb

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/internal/table"
)

// TestTablesPerAddress: a client taking a fresh identity for every request
// cannot fill the lobby from one address: past table.DefaultMaxPerAddr
// tables it gets 429, and the refusal names the address's tables.
func TestTablesPerAddress(t *testing.T) {
	e := newEnv(t, Limits{})
	cfg := table.Config{Players: 2, Bots: []string{"random", "random"}}
	for i := range table.DefaultMaxPerAddr {
		var got created
		if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
			t.Fatalf("table %d from the address: %d", i+1, code)
		}
	}
	var refused struct {
		Error string `json:"error"`
	}
	code := e.client().do("POST", "/api/arlington/tables", cfg, &refused)
	if code != http.StatusTooManyRequests || refused.Error == "" {
		t.Fatalf("one table more from the address: %d %q, want 429", code, refused.Error)
	}
	t.Logf("refused: %s", refused.Error)
	if n := len(e.hub.List()); n != table.DefaultMaxPerAddr {
		t.Fatalf("%d tables open", n)
	}
}

// TestPagesETag: the lobby and the table page carry an ETag made from
// their content; asking again with it gets 304 without a body, and a
// stale tag the page again.
func TestPagesETag(t *testing.T) {
	e := newEnv(t, Limits{})
	get := func(path, tag string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
		if tag != "" {
			req.Header.Set("If-None-Match", tag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	tags := map[string]string{}
	for _, path := range []string{"/arlington/", "/arlington/t/SOMETABLE"} {
		resp, body := get(path, "")
		tag := resp.Header.Get("ETag")
		if resp.StatusCode != http.StatusOK || len(body) == 0 || !strings.HasPrefix(tag, `"`) {
			t.Fatalf("%s: %d, %d bytes, ETag %q", path, resp.StatusCode, len(body), tag)
		}
		// private: the page carries the identity cookie, which a shared
		// cache must not hand to other browsers.
		if cc := resp.Header.Get("Cache-Control"); cc != "private, no-cache" || len(resp.Cookies()) != 1 {
			t.Errorf("%s: Cache-Control %q with cookies %v, want private, no-cache with the identity cookie", path, cc, resp.Cookies())
		}
		tags[path] = tag
		resp, body = get(path, tag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Fatalf("%s with its ETag: %d, %d bytes; want 304 and no body", path, resp.StatusCode, len(body))
		}
		if resp, _ := get(path, `"stale"`); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s with a stale ETag: %d", path, resp.StatusCode)
		}
	}
	if tags["/arlington/"] == tags["/arlington/t/SOMETABLE"] {
		t.Fatal("two different pages share an ETag")
	}
	// Every table's page is the same file: one ETag.
	if resp, _ := get("/arlington/t/OTHER", ""); resp.Header.Get("ETag") != tags["/arlington/t/SOMETABLE"] {
		t.Fatal("the table page's ETag depends on the table")
	}
}

// TestConnectionsPerAddress: however many identities a client makes up,
// its address holds at most Limits.PerAddress WebSocket connections; the
// next is refused with 429 before the upgrade, and a closed connection
// gives its place back.
func TestConnectionsPerAddress(t *testing.T) {
	e := newEnv(t, Limits{PerAddress: 3})
	id := e.client().create("", "random")
	var open []*wsClient
	for range 3 {
		w := e.client().dial(id, -1)
		w.waitFor(isView)
		open = append(open, w)
	}
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	dial := func() (*websocket.Conn, int) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, resp, err := websocket.Dial(ctx, u, nil)
		if err != nil {
			if resp == nil {
				t.Fatalf("dial: %v", err)
			}
			return nil, resp.StatusCode
		}
		t.Cleanup(func() { c.CloseNow() })
		return c, http.StatusSwitchingProtocols
	}
	if _, code := dial(); code != http.StatusTooManyRequests {
		t.Fatalf("a fourth connection from the address: %d, want 429", code)
	}
	open[0].c.Close(websocket.StatusNormalClosure, "")
	if !open[0].ended() {
		t.Fatal("the closed connection did not end")
	}
	// The server counts the connection out when its handler returns,
	// just after the close: try again until it has, within a bound.
	deadline := time.Now().Add(waitTimeoutWS)
	for {
		c, code := dial()
		if c != nil {
			break
		}
		if code != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("after one closed: %d", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTimeoutWS bounds a wait for the server to notice a closed connection.
const waitTimeoutWS = 10 * time.Second

// TestPerAddressUnbounded: PerAddress zero is the default bound of 128;
// negative lifts it (a load test's people all share one address).
func TestPerAddressUnbounded(t *testing.T) {
	if got := (Limits{}).withDefaults().PerAddress; got != 128 {
		t.Fatalf("default PerAddress %d, want 128", got)
	}
	l := Limits{PerAddress: -1}.withDefaults()
	var a addrConns
	for i := range 200 {
		if !a.add("127.0.0.1", l.PerAddress) {
			t.Fatalf("connection %d refused with PerAddress %d", i+1, l.PerAddress)
		}
	}
	var b addrConns
	for range 128 {
		b.add("127.0.0.1", Limits{}.withDefaults().PerAddress)
	}
	if b.add("127.0.0.1", Limits{}.withDefaults().PerAddress) {
		t.Fatal("a 129th connection taken under the default bound")
	}
}
