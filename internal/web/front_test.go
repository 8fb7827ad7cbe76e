package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestSpiderLinksRedirect: a link to a Spider deal written when the Spider
// page was the front page (/?deal=617, /?new) goes on to the Spider page
// with its parameters; / itself, or with another query, is the front page.
// The redirect hands out the identity cookie, so no shared cache may keep
// it (Cache-Control: private).
func TestSpiderLinksRedirect(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct{ path, want string }{
		{"/?deal=617", "/spider/?deal=617"},
		{"/?deal=5&variant=spider&suits=2", "/spider/?deal=5&variant=spider&suits=2"},
		{"/?new", "/spider/?new"},
		{"/index.html?deal=7", "/spider/?deal=7"},
		{"/index.html?new=1", "/spider/?new=1"},
	} {
		t.Run(c.path, func(t *testing.T) {
			rec := getStatic(t, h, "GET", c.path)
			if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != c.want {
				t.Fatalf("GET %s: status %d, Location %q; want 301 to %s", c.path, rec.Code, rec.Header().Get("Location"), c.want)
			}
			if !strings.Contains(rec.Header().Get("Set-Cookie"), playerCookie+"=") || rec.Header().Get("Cache-Control") != "private" {
				t.Errorf("GET %s: Set-Cookie %q, Cache-Control %q; want the player cookie and private",
					c.path, rec.Header().Get("Set-Cookie"), rec.Header().Get("Cache-Control"))
			}
		})
	}
	for _, p := range []string{"/", "/?utm=x", "/spider/?deal=617"} {
		rec := getStatic(t, h, "GET", p)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: status %d, type %q; want the page", p, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}

// TestPagesHandOutThePlayer: the front page and the Spider page give a new
// browser its identity cookie (and renew it); their scripts do not.
func TestPagesHandOutThePlayer(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct {
		path string
		want bool
	}{{"/", true}, {"/spider/", true}, {"/spider/index.html", true}, {"/front.js", false}, {"/spider/app.js", false}} {
		rec := getStatic(t, h, "GET", c.path)
		got := strings.Contains(rec.Header().Get("Set-Cookie"), playerCookie+"=")
		if rec.Code != http.StatusOK || got != c.want {
			t.Errorf("GET %s: status %d, sets the player cookie %v, want %v", c.path, rec.Code, got, c.want)
		}
	}
}
