package web

import (
	"net/http"
	"testing"
)

// TestCacheDirectives: the two facts cache.go is told make the header
// in either order, each once.
func TestCacheDirectives(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []func(http.Header)
		want  string
	}{
		{"private", []func(http.Header){cachePrivate}, "private"},
		{"revalidate", []func(http.Header){cacheRevalidate}, "no-cache"},
		{"both", []func(http.Header){cachePrivate, cacheRevalidate}, "private, no-cache"},
		{"revalidate twice", []func(http.Header){cacheRevalidate, cachePrivate, cacheRevalidate}, "no-cache, private"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			for _, f := range c.steps {
				f(h)
			}
			if got := h.Get("Cache-Control"); got != c.want {
				t.Errorf("Cache-Control %q, want %q", got, c.want)
			}
		})
	}
}
