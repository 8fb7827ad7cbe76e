package web

import (
	"net/http"
	"strings"
)

// What a cache may keep of an answer is decided here alone, from two
// facts each told once by the code that knows it:
//
//   - the answer carries the player's identity cookie (identify, which
//     sets it): "private", so that no shared cache (a proxy's, a CDN's)
//     keeps the cookie and hands that identity to other browsers;
//   - the answer is one of the page's files (staticFile.serve): "no-cache",
//     so that the browser keeps it but asks each time whether it changed
//     (the files are not renamed by content, so a longer cache would keep
//     an old page after an upgrade).
//
// A page has both ("private, no-cache"), another file the second, an API
// answer or a redirect handing out the cookie the first. A handler that
// must not be stored at all sets "no-store" itself, over either.

// cachePrivate marks the answer as the player's alone.
func cachePrivate(h http.Header) { addCacheDirective(h, "private") }

// cacheRevalidate marks the answer as kept but asked about each time.
func cacheRevalidate(h http.Header) { addCacheDirective(h, "no-cache") }

// addCacheDirective adds d to the answer's Cache-Control, after what it
// says already, once.
func addCacheDirective(h http.Header, d string) {
	cur := h.Get("Cache-Control")
	for _, have := range strings.Split(cur, ",") {
		if strings.TrimSpace(have) == d {
			return
		}
	}
	if cur != "" {
		d = cur + ", " + d
	}
	h.Set("Cache-Control", d)
}
