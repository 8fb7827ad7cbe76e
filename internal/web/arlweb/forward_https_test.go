package arlweb

import (
	"bytes"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
)

// TestForwardHTTPS: a server whose internal address is https:// (it ends
// TLS itself) is forwarded to over HTTPS, its certificate checked for the
// request's host if that is one of the names, else for the first name: a
// table's requests and a new table reach it. A certificate not chained to
// the trusted roots is refused: a table's request is answered 503 here,
// a new table is made here.
func TestForwardHTTPS(t *testing.T) {
	var seen []string // the TLS server name of each request the other server got
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.TLS.ServerName+" "+r.Method+" "+r.URL.Path)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":"THERE"}`)
	}))
	other.StartTLS()
	defer other.Close()
	trusted := x509.NewCertPool()
	trusted.AddCert(other.Certificate()) // httptest's: for example.com and 127.0.0.1
	otherAddr := "https://" + other.Listener.Addr().String()
	fc := &fakeCluster{place: Place{Addr: otherAddr}, forNew: otherAddr}
	o := wired(Limits{})
	o.Cluster = fc
	h := New(forwardHub(t, nil), o)
	h.peers = newPeerTransports([]string{"cards.example", "example.com"}, trusted)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	serve := serveAt(srv)
	if w := serve("POST", "/api/arlington/tables", "example.com:443"); w.Code != http.StatusCreated || w.Body.String() != `{"id":"THERE"}` {
		t.Fatalf("a new table: %d %s", w.Code, w.Body)
	}
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", "Example.COM"); w.Code != http.StatusCreated {
		t.Fatalf("a table elsewhere: %d %s", w.Code, w.Body)
	}
	// Asked for as cards.example, which the certificate does not name:
	// refused; asked for by a host that is no name, the first is checked.
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", "cards.example"); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("a certificate not for the host: %d %s", w.Code, w.Body)
	}
	h.peers = newPeerTransports([]string{"example.com"}, trusted)
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE/ws", "203.0.113.9"); w.Code != http.StatusCreated {
		t.Fatalf("by an address, not a name: %d %s", w.Code, w.Body)
	}
	want := "example.com POST /api/arlington/tables,example.com GET /api/arlington/tables/ELSEWHERE,example.com GET /api/arlington/tables/ELSEWHERE/ws"
	if got := strings.Join(seen, ","); got != want {
		t.Fatalf("the other server got %q, want %q", got, want)
	}
	h.peers = newPeerTransports([]string{"example.com"}, x509.NewCertPool()) // trusts nothing
	var logged bytes.Buffer
	h.log = slog.New(slog.NewTextHandler(&logged, nil))
	w := serve("GET", "/api/arlington/tables/ELSEWHERE", "example.com")
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "does not answer") || len(seen) != 3 {
		t.Fatalf("an untrusted certificate: %d %s, the other server reached %d times", w.Code, w.Body, len(seen))
	}
	// A new table is made here instead: the request never reached the
	// other server.
	if w := serve("POST", "/api/arlington/tables", "example.com"); w.Code != http.StatusCreated ||
		strings.Contains(w.Body.String(), "THERE") || len(seen) != 3 {
		t.Fatalf("a new table, the other's certificate untrusted: %d %s", w.Code, w.Body)
	}
	if n := strings.Count(logged.String(), "level=WARN"); n != 1 || !strings.Contains(logged.String(), "certificate") {
		t.Fatalf("two refused handshakes logged %d WARN: %s", n, logged.String())
	}
	// No name to check for: not forwarded blind.
	h.peers = newPeerTransports(nil, trusted)
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", "example.com"); w.Code != http.StatusServiceUnavailable || len(seen) != 3 {
		t.Fatalf("no names: %d %s", w.Code, w.Body)
	}
	// Nor is a new table, which is made here: nothing was sent.
	if w := serve("POST", "/api/arlington/tables", "example.com"); w.Code != http.StatusCreated ||
		strings.Contains(w.Body.String(), "THERE") || len(seen) != 3 {
		t.Fatalf("a new table, no names: %d %s", w.Code, w.Body)
	}
}

// TestForwardHTTPSWildcard: with only a wildcard name (a certificate for
// *.example.com), a request whose host it covers is forwarded, the other
// server's certificate checked for that host; a host it does not cover
// is not forwarded blind. The transports made for covered hosts are
// bounded.
func TestForwardHTTPSWildcard(t *testing.T) {
	var seen []string
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.TLS.ServerName+" "+r.Method+" "+r.URL.Path)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":"THERE"}`)
	}))
	other.StartTLS()
	defer other.Close()
	trusted := x509.NewCertPool()
	trusted.AddCert(other.Certificate()) // for example.com, *.example.com and 127.0.0.1
	otherAddr := "https://" + other.Listener.Addr().String()
	o := wired(Limits{})
	o.Cluster = &fakeCluster{place: Place{Addr: otherAddr}, forNew: otherAddr}
	h := New(forwardHub(t, nil), o)
	h.peers = newPeerTransports([]string{"*.example.com"}, trusted)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	serve := serveAt(srv)
	if w := serve("POST", "/api/arlington/tables", "cards.example.com:443"); w.Code != http.StatusCreated || w.Body.String() != `{"id":"THERE"}` {
		t.Fatalf("a new table: %d %s", w.Code, w.Body)
	}
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", "Cards.Example.COM."); w.Code != http.StatusCreated {
		t.Fatalf("a table elsewhere: %d %s", w.Code, w.Body)
	}
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", "a.b.example.com"); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("a host the wildcard does not cover: %d %s", w.Code, w.Body)
	}
	want := "cards.example.com POST /api/arlington/tables,cards.example.com GET /api/arlington/tables/ELSEWHERE"
	if got := strings.Join(seen, ","); got != want {
		t.Fatalf("the other server got %q, want %q", got, want)
	}
	for i := range maxHostTransports + 10 {
		h.peers.forAddr(otherAddr, fmt.Sprintf("h%d.example.com", i))
	}
	if n := len(h.peers.byHost.m); n != maxHostTransports {
		t.Fatalf("%d transports for covered hosts, want %d", n, maxHostTransports)
	}
}

// TestForwardHTTPSStalled: another server that takes the connection and
// never answers the TLS handshake is a refused handshake: no request
// reached it, so a new table is made here, and it is logged at WARN.
func TestForwardHTTPSStalled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	accepted := make(chan struct{})
	go func() { // exits when ln is closed
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // kept open, never answered
		}
	}()
	defer func() {
		ln.Close()
		<-accepted
		for _, c := range held {
			c.Close()
		}
	}()
	otherAddr := "https://" + ln.Addr().String()
	o := wired(Limits{})
	o.Cluster = &fakeCluster{place: Place{Addr: otherAddr}, forNew: otherAddr}
	h := New(forwardHub(t, nil), o)
	h.peers = newPeerTransportsWith([]string{"example.com"}, x509.NewCertPool(), 200*time.Millisecond)
	var logged bytes.Buffer
	h.log = slog.New(slog.NewTextHandler(&logged, nil))
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	r := httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(`{"players":2}`))
	r.Host = "example.com"
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	if w.Code != http.StatusCreated || strings.Contains(w.Body.String(), "THERE") {
		t.Fatalf("a new table, the other server's handshake stalled: %d %s", w.Code, w.Body)
	}
	if log := logged.String(); strings.Count(log, "level=WARN") != 1 || !strings.Contains(log, "handshake") {
		t.Fatalf("log: %s", log)
	}
}
