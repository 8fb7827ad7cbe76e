package web

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func mustProxies(tb testing.TB, list string) []netip.Prefix {
	tb.Helper()
	p, err := ParseProxies(list)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestParseProxies(t *testing.T) {
	p := mustProxies(t, " 10.0.0.0/8, 192.0.2.7 ,::1,::ffff:198.51.100.0/120")
	want := []string{"10.0.0.0/8", "192.0.2.7/32", "::1/128", "198.51.100.0/24"}
	if len(p) != len(want) {
		t.Fatalf("got %v, want %v", p, want)
	}
	for i := range want {
		if p[i].String() != want[i] {
			t.Errorf("item %d: %v, want %s", i, p[i], want[i])
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", "10.0.0.1:80"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestResolveClient: the forwarding headers are believed only from a
// trusted peer, and the client is the rightmost untrusted hop.
func TestResolveClient(t *testing.T) {
	trusted := mustProxies(t, "10.0.0.0/8,2001:db8::/32")
	tests := []struct {
		name   string
		peer   string
		header map[string]string
		tls    bool
		addr   string
		https  bool
	}{
		{"no proxy", "192.0.2.1:5000", nil, false, "192.0.2.1", false},
		{"untrusted peer's headers ignored", "192.0.2.1:5000",
			map[string]string{"X-Forwarded-For": "198.51.100.9", "X-Forwarded-Proto": "https"}, false, "192.0.2.1", false},
		{"untrusted peer's Forwarded ignored", "192.0.2.1:5000",
			map[string]string{"Forwarded": "for=198.51.100.9;proto=https"}, false, "192.0.2.1", false},
		{"trusted proxy", "10.0.0.5:40000",
			map[string]string{"X-Forwarded-For": "198.51.100.9", "X-Forwarded-Proto": "https"}, false, "198.51.100.9", true},
		{"a forged left entry is not believed", "10.0.0.5:40000",
			map[string]string{"X-Forwarded-For": "1.2.3.4, 198.51.100.9"}, false, "198.51.100.9", false},
		{"two trusted proxies", "10.0.0.5:40000",
			map[string]string{"X-Forwarded-For": "198.51.100.9, 10.1.1.1"}, false, "198.51.100.9", false},
		{"every hop trusted: the leftmost", "10.0.0.5:40000",
			map[string]string{"X-Forwarded-For": "10.2.2.2, 10.1.1.1"}, false, "10.2.2.2", false},
		{"proto only", "10.0.0.5:40000", map[string]string{"X-Forwarded-Proto": "https"}, false, "10.0.0.5", true},
		{"Forwarded, IPv6 with port", "10.0.0.5:40000",
			map[string]string{"Forwarded": `for="[2001:db9::1]:4711";proto=https, for=10.3.3.3`}, false, "2001:db9::1", true},
		{"Forwarded, obfuscated hop stops trust", "10.0.0.5:40000",
			map[string]string{"Forwarded": "for=198.51.100.9, for=_hidden"}, false, "10.0.0.5", false},
		{"X-Forwarded-For preferred over Forwarded", "10.0.0.5:40000",
			map[string]string{"Forwarded": "for=1.2.3.4", "X-Forwarded-For": "198.51.100.9"}, false, "198.51.100.9", false},
		{"direct TLS", "192.0.2.1:5000", nil, true, "192.0.2.1", true},
		{"garbage in the chain", "10.0.0.5:40000", map[string]string{"X-Forwarded-For": "not-an-ip"}, false, "10.0.0.5", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			if tc.tls {
				r.TLS = &tls.ConnectionState{}
			}
			c := resolveClient(trusted, r)
			if c.addr.String() != tc.addr || c.https != tc.https {
				t.Fatalf("client %v https=%v, want %s https=%v", c.addr, c.https, tc.addr, tc.https)
			}
		})
	}
	t.Run("no trusted proxies: headers ignored", func(t *testing.T) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.5:40000"
		r.Header.Set("X-Forwarded-For", "198.51.100.9")
		if c := resolveClient(nil, r); c.addr.String() != "10.0.0.5" {
			t.Fatalf("client %v, want the peer", c.addr)
		}
	})
}

// TestProxySecureCookie: the identity cookie is Secure when the page was
// served over HTTPS through a trusted proxy, and not when an untrusted
// client claims it.
func TestProxySecureCookie(t *testing.T) {
	h := newHarness(t, Options{TrustedProxies: mustProxies(t, "10.0.0.5")})
	for _, tc := range []struct {
		peer   string
		secure bool
	}{{"10.0.0.5:1000", true}, {"192.0.2.1:1000", false}} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		r.Header.Set("X-Forwarded-Proto", "https")
		r.Header.Set("X-Forwarded-For", "198.51.100.9")
		rec := httptest.NewRecorder()
		h.s.ServeHTTP(rec, r)
		c := rec.Result().Cookies()
		if len(c) != 1 || c[0].Name != playerCookie || c[0].Secure != tc.secure {
			t.Fatalf("from %s: cookies %v, want one with Secure=%v", tc.peer, c, tc.secure)
		}
	}
}

// TestProxyRateLimitKeys: behind a trusted proxy each client has its own
// address bucket; without trust, every client is the proxy.
func TestProxyRateLimitKeys(t *testing.T) {
	rl := RateLimit{Player: Bucket{Burst: 100, Every: time.Hour}, Address: Bucket{Burst: 2, Every: time.Hour}, MaxKeys: 100}
	create := func(s *Server, client string) int {
		r := httptest.NewRequest("POST", "/api/echo/create", nil)
		r.RemoteAddr = "10.0.0.5:1000"
		r.Header.Set("X-Forwarded-For", client)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		return rec.Code
	}
	trusting := New(Options{RateLimit: &rl, Games: []Routes{limitedGame{}}, TrustedProxies: mustProxies(t, "10.0.0.0/8")})
	for range 2 {
		if code := create(trusting, "198.51.100.1"); code != http.StatusCreated {
			t.Fatalf("first client: %d", code)
		}
	}
	if code := create(trusting, "198.51.100.1"); code != http.StatusTooManyRequests {
		t.Fatalf("first client past its burst: %d", code)
	}
	if code := create(trusting, "198.51.100.2"); code != http.StatusCreated {
		t.Fatalf("second client shares the first's bucket: %d", code)
	}
	plain := New(Options{RateLimit: &rl, Games: []Routes{limitedGame{}}})
	codes := []int{create(plain, "198.51.100.1"), create(plain, "198.51.100.1"), create(plain, "198.51.100.2")}
	if codes[2] != http.StatusTooManyRequests {
		t.Fatalf("untrusted: the header made a new bucket (%v)", codes)
	}
}

func TestClientAddr(t *testing.T) {
	var got string
	h := realClient(mustProxies(t, "10.0.0.5"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = ClientAddr(r) + " " + r.RemoteAddr
	}))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.5:1000"
	r.Header.Set("X-Forwarded-For", "2001:db8::9")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if !strings.HasPrefix(got, "2001:db8::9 [2001:db8::9]:0") {
		t.Fatalf("got %q", got)
	}
}
