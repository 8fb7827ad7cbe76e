package web

import (
	"crypto/tls"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestStrictTransport: with Options.HSTS, every answer to a request made
// over HTTPS (directly, or to a trusted proxy that says so) carries
// Strict-Transport-Security with that max-age, the page's, the API's and
// an error's alike; an answer over plain HTTP never does, nor one whose
// X-Forwarded-Proto comes from an untrusted client; without HSTS none.
func TestStrictTransport(t *testing.T) {
	proxy := netip.MustParsePrefix("192.0.2.1/32")
	on := New(Options{HSTS: 24 * time.Hour, TrustedProxies: []netip.Prefix{proxy}})
	off := New(Options{TrustedProxies: []netip.Prefix{proxy}})
	const want = "max-age=86400"
	for _, tc := range []struct {
		name, peer, proto string
		tls, sent         bool
	}{
		{"HTTPS", "198.51.100.7:1234", "", true, true},
		{"plain HTTP", "198.51.100.7:1234", "", false, false},
		{"a trusted proxy's HTTPS client", "192.0.2.1:1234", "https", false, true},
		{"a trusted proxy's plain-HTTP client", "192.0.2.1:1234", "http", false, false},
		{"an untrusted client saying https", "198.51.100.7:1234", "https", false, false},
	} {
		for _, path := range []string{"/", "/api/saves", "/api/nope", "/healthz"} {
			for _, s := range []*Server{on, off} {
				r := httptest.NewRequest("GET", path, nil)
				r.RemoteAddr = tc.peer
				if tc.proto != "" {
					r.Header.Set("X-Forwarded-Proto", tc.proto)
				}
				if tc.tls {
					r.TLS = &tls.ConnectionState{}
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, r)
				got := rec.Header().Get("Strict-Transport-Security")
				if w := map[bool]string{true: want}[tc.sent && s == on]; got != w {
					t.Errorf("%s, GET %s (HSTS set: %v): Strict-Transport-Security %q, want %q",
						tc.name, path, s == on, got, w)
				}
			}
		}
	}
}
