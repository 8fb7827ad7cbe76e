package arlweb

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// clusterPair is two servers of a cluster wired as cardtable serve wires
// them: the table's server (trusting the other, as docs/scaling.md asks)
// and a server in front of it that forwards the table's requests
// (web.Options.Front), trusting the proxy 192.0.2.1; both with HSTS.
type clusterPair struct {
	front   http.Handler
	fc      *fakeCluster
	tableID string
	mu      sync.Mutex
	got     http.Header // the forwarded request's headers, as the table's server got them
}

func newClusterPair(t *testing.T) *clusterPair {
	t.Helper()
	p := &clusterPair{}
	hub := forwardHub(t, nil)
	tb, err := hub.CreateFrom(context.Background(), "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	p.tableID = tb.ID()
	there := New(hub, wired(Limits{}))
	loopback := netip.MustParsePrefix("127.0.0.1/32")
	tableSrv := web.New(web.Options{Games: []web.Routes{there}, HSTS: time.Hour,
		TrustedProxies: []netip.Prefix{loopback}})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.got = r.Header.Clone()
		p.mu.Unlock()
		tableSrv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	p.fc = &fakeCluster{place: Place{Addr: strings.TrimPrefix(ts.URL, "http://")}}
	o := wired(Limits{})
	o.Cluster = p.fc
	here := New(forwardHub(t, nil), o)
	p.front = web.New(web.Options{Games: []web.Routes{here}, HSTS: time.Hour, Front: here.Forward,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.1/32")}})
	return p
}

// get asks the front server for path from peer, with hdr, over HTTPS
// when tls is set.
func (p *clusterPair) get(path, peer string, hdr map[string]string, overTLS bool) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", path, nil)
	r.RemoteAddr = peer
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	if overTLS {
		r.TLS = &tls.ConnectionState{}
	}
	w := httptest.NewRecorder()
	p.front.ServeHTTP(w, r)
	return w
}

// TestForwardPassesTheBelievedClient: a request forwarded to the table's
// server says who the client is as the forwarding server believes it. A
// client's own X-Forwarded-Proto, X-Forwarded-For or Forwarded, from a
// peer the forwarding server does not trust, never reaches the table's
// server (which trusts the forwarding one): a forged https over plain
// HTTP gets neither Strict-Transport-Security nor a Secure cookie. A
// trusted proxy's chain goes on with that proxy appended; HTTPS to the
// forwarding server is said as such. The answer's headers go out once.
func TestForwardPassesTheBelievedClient(t *testing.T) {
	p := newClusterPair(t)
	path := "/api/arlington/tables/" + p.tableID
	forged := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9",
		"Forwarded": "for=203.0.113.9;proto=https"}
	for _, tc := range []struct {
		name, peer string
		hdr        map[string]string
		tls        bool
		https      bool   // HSTS and a Secure cookie
		xff        string // X-Forwarded-For at the table's server
	}{
		{"an untrusted client forging https", "198.51.100.7:1234", forged, false, false, "198.51.100.7"},
		{"an untrusted client over HTTPS", "198.51.100.7:1234", forged, true, true, "198.51.100.7"},
		{"a trusted proxy's HTTPS client", "192.0.2.1:1234",
			map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}, false, true, "203.0.113.9, 192.0.2.1"},
		{"a trusted proxy's plain-HTTP client", "192.0.2.1:1234",
			map[string]string{"X-Forwarded-Proto": "http", "X-Forwarded-For": "203.0.113.9"}, false, false, "203.0.113.9, 192.0.2.1"},
		{"a trusted proxy saying Forwarded", "192.0.2.1:1234",
			map[string]string{"Forwarded": "for=203.0.113.9;proto=https"}, false, true, "203.0.113.9, 192.0.2.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := p.get(path, tc.peer, tc.hdr, tc.tls)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d %s, want the table", w.Code, w.Body)
			}
			p.mu.Lock()
			got := p.got
			p.mu.Unlock()
			proto := map[bool]string{true: "https", false: "http"}[tc.https]
			if got.Get(ForwardedHeader) == "" || got.Get("X-Forwarded-For") != tc.xff ||
				got.Get("X-Forwarded-Proto") != proto || got.Get("Forwarded") != "" {
				t.Errorf("the table's server got X-Forwarded-For %q, X-Forwarded-Proto %q, Forwarded %q; want %q, %q, none",
					got.Get("X-Forwarded-For"), got.Get("X-Forwarded-Proto"), got.Get("Forwarded"), tc.xff, proto)
			}
			hsts := w.Header().Values("Strict-Transport-Security")
			if want := map[bool]int{true: 1, false: 0}[tc.https]; len(hsts) != want {
				t.Errorf("Strict-Transport-Security %q, want it %d times", hsts, want)
			}
			cookie := w.Header().Get("Set-Cookie")
			if !strings.Contains(cookie, "cardtable_player=") || strings.Contains(cookie, "Secure") != tc.https {
				t.Errorf("Set-Cookie %q: want the player cookie, Secure %v", cookie, tc.https)
			}
			for _, k := range []string{"X-Content-Type-Options", "Content-Security-Policy", "Cache-Control"} {
				if n := len(w.Header().Values(k)); n != 1 {
					t.Errorf("%s %d times, want once: %q", k, n, w.Header().Values(k))
				}
			}
		})
	}
}

// TestForwardRefusalsCarryTheHeaders: the forwarding server's own 503s
// (a table between servers, its server not found or not answering) carry
// the security headers of every answer, and over HTTPS
// Strict-Transport-Security.
func TestForwardRefusalsCarryTheHeaders(t *testing.T) {
	p := newClusterPair(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	deadAddr := strings.TrimPrefix(gone.URL, "http://")
	gone.Close()
	for _, tc := range []struct {
		name  string
		place Place
		err   error
	}{
		{"moving", Place{Wait: true}, nil},
		{"not found", Place{}, errors.New("no database")},
		{"not answering", Place{Addr: deadAddr}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.fc.place, p.fc.err = tc.place, tc.err
			w := p.get("/api/arlington/tables/ELSEWHERE", "198.51.100.7:1234", nil, true)
			if w.Code != http.StatusServiceUnavailable {
				t.Fatalf("status %d %s, want 503", w.Code, w.Body)
			}
			for _, k := range []string{"X-Content-Type-Options", "Content-Security-Policy", "X-Frame-Options",
				"Referrer-Policy", "Strict-Transport-Security"} {
				if w.Header().Get(k) == "" {
					t.Errorf("no %s on %q", k, w.Body)
				}
			}
		})
	}
}
