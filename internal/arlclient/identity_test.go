package arlclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ address, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://Cards.Example/games", "http://cards.example:80"},
		{"HTTPS://cards.example", "https://cards.example:443"},
		{"http://[::1]:9000/", "http://[::1]:9000"},
		{"http://[FE80::1%25Eth0]:9000", "http://[fe80::1%25eth0]:9000"},
	} {
		c, err := New(tc.address)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Origin(); got != tc.want {
			t.Errorf("%s: origin %q, want %q", tc.address, got, tc.want)
		}
	}
	for _, bad := range []string{"http://x:1/games", "ftp://x:1", "http://x:1?a", "http://u@x:1", "x:1", ""} {
		if o, err := CanonicalOrigin(bad); err == nil {
			t.Errorf("%q taken as the origin %q", bad, o)
		}
	}
}

// FuzzOrigin: the origin of any server address the client takes reads
// back as itself, so the identity kept under it is found again.
func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:8080", "HTTPS://Cards.Example/games/", "http://[fe80::1%25eth0]:80", "http://caf%C3%A9.example", "http://x:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, address string) {
		c, err := New(address)
		if err != nil {
			return
		}
		o := c.Origin()
		if again, err := CanonicalOrigin(o); err != nil || again != o {
			t.Fatalf("%q: origin %q reads back as %q, %v", address, o, again, err)
		}
	})
}

// prefixedServer starts h (over TLS when tls) until tb ends, and returns
// a maker of clients of it under the path prefix /games.
func prefixedServer(tb testing.TB, h http.Handler, tls bool) func() *Client {
	srv := httptest.NewUnstartedServer(h)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	tb.Cleanup(srv.Close)
	return func() *Client {
		c, err := New(srv.URL + "/games")
		if err != nil {
			tb.Fatal(err)
		}
		c.hc.Transport = srv.Client().Transport
		return c
	}
}

// TestIdentitySent: a restored identity goes with every request as the
// server's own cookie would, over https too and under a path prefix; a
// token the server replaces is the one the client then holds.
func TestIdentitySent(t *testing.T) {
	const kept, issued = "KEPTTOKEN", "ISSUEDTOKEN"
	var got []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(IdentityCookie)
		if err != nil {
			got = append(got, "")
		} else {
			got = append(got, c.Value)
		}
		if err != nil || c.Value != kept {
			// As the server does with a cookie it does not accept.
			http.SetCookie(w, &http.Cookie{Name: IdentityCookie, Value: issued, Path: "/", HttpOnly: true, Secure: r.TLS != nil})
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"tables": [], "levels": []}`))
	})
	for _, tls := range []bool{false, true} {
		newClient := prefixedServer(t, h, tls)
		got = nil
		c := newClient()
		if err := c.SetIdentity(kept); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := c.Lobby(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if strings.Join(got, ",") != kept+","+kept || c.Identity() != kept {
			t.Fatalf("tls %v: the server saw %q, the client holds %q", tls, got, c.Identity())
		}
		// Control: a token the server does not accept is replaced.
		got = nil
		c = newClient()
		if err := c.SetIdentity("OTHER"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Lobby(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got[0] != "OTHER" || c.Identity() != issued {
			t.Fatalf("tls %v: the server saw %q, the client holds %q", tls, got, c.Identity())
		}
	}
	c, _ := New("http://x:1")
	for _, bad := range []string{"", "a b", `a"b`, "a;b", strings.Repeat("A", MaxToken+1)} {
		if c.SetIdentity(bad) == nil {
			t.Errorf("%q taken as a token", bad)
		}
	}
}

// TestIdentityOnWebSocket: the table's WebSocket is dialled with the
// identity restored into the jar, over wss and under a path prefix too,
// so the seat's actions come from its player; without one (the control)
// no cookie goes.
func TestIdentityOnWebSocket(t *testing.T) {
	const kept = "KEPTTOKEN"
	var got, path string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, path = "", r.URL.Path
		if c, err := r.Cookie(IdentityCookie); err == nil {
			got = c.Value
		}
		http.NotFound(w, r)
	})
	for _, tls := range []bool{false, true} {
		newClient := prefixedServer(t, h, tls)
		for _, token := range []string{kept, ""} {
			c := newClient()
			if token != "" {
				if err := c.SetIdentity(token); err != nil {
					t.Fatal(err)
				}
			}
			s := &Follower{c: c, id: "ABC", o: FollowOptions{}.withDefaults()}
			if _, err := s.dial(context.Background()); !errors.Is(err, ErrNotFound) {
				t.Fatalf("tls %v: dial: %v", tls, err)
			}
			if got != token || path != "/games/api/arlington/tables/ABC/ws" {
				t.Fatalf("tls %v: the dial to %s sent %q, want %q", tls, path, got, token)
			}
		}
	}
}
