package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// getStatic requests path with the given headers (name, value pairs).
func getStatic(tb testing.TB, h *harness, method, path string, hdr ...string) *httptest.ResponseRecorder {
	tb.Helper()
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	return rec
}

func gunzip(tb testing.TB, b []byte) []byte {
	tb.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		tb.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("bad gzip: %v", err)
	}
	return out
}

// TestStaticFiles: every file of the page is served as it is, gzipped to a
// client that takes gzip, with a strong ETag that answers 304.
func TestStaticFiles(t *testing.T) {
	h := newHarness(t, Options{})
	static, err := fs.Sub(Static, "static")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if len(paths) < 5 {
		t.Fatalf("only %d files in the page: %v", len(paths), paths)
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			want, err := fs.ReadFile(static, p)
			if err != nil {
				t.Fatal(err)
			}
			u := urlPaths(p)[0]
			plain := getStatic(t, h, "GET", u)
			if plain.Code != 200 || !bytes.Equal(plain.Body.Bytes(), want) {
				t.Fatalf("GET %s: status %d, %d bytes; want 200 and the file's %d bytes", u, plain.Code, plain.Body.Len(), len(want))
			}
			etag := plain.Header().Get("ETag")
			if !strings.HasPrefix(etag, `"`) || len(etag) < 10 || plain.Header().Get("Content-Encoding") != "" {
				t.Fatalf("plain answer: ETag %q, Content-Encoding %q; want a strong ETag, no encoding", etag, plain.Header().Get("Content-Encoding"))
			}
			// The pages hand out the identity cookie, which no shared
			// cache may keep (private); the other files carry none.
			cookie := plain.Header().Get("Set-Cookie") != ""
			if html := strings.HasSuffix(p, ".html"); cookie != html {
				t.Errorf("Set-Cookie %q on a file that is HTML: %v", plain.Header().Get("Set-Cookie"), html)
			}
			if cc, want := plain.Header().Get("Cache-Control"), map[bool]string{false: "no-cache", true: "private, no-cache"}[cookie]; cc != want {
				t.Errorf("Cache-Control %q, want %q", cc, want)
			}
			if ct := plain.Header().Get("Content-Type"); ct == "" || ct == "application/octet-stream" {
				t.Errorf("Content-Type %q", ct)
			}
			if rec := getStatic(t, h, "GET", u, "If-None-Match", etag); rec.Code != 304 || rec.Body.Len() != 0 {
				t.Errorf("If-None-Match %s: status %d with %d bytes, want 304 and none", etag, rec.Code, rec.Body.Len())
			}
			if rec := getStatic(t, h, "GET", u, "If-None-Match", `"stale"`); rec.Code != 200 {
				t.Errorf("If-None-Match with an old ETag: status %d, want 200", rec.Code)
			}

			zipped := getStatic(t, h, "GET", u, "Accept-Encoding", "br, gzip;q=0.8")
			if zipped.Header().Get("Content-Encoding") != "gzip" {
				if strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".css") || strings.HasSuffix(p, ".html") {
					t.Fatalf("%s is not gzipped for a client that takes gzip", p)
				}
				return // too small to gain from it
			}
			if got := gunzip(t, zipped.Body.Bytes()); !bytes.Equal(got, want) {
				t.Fatalf("gzipped %s does not unzip to the file", p)
			}
			if zipped.Body.Len() >= len(want) {
				t.Errorf("gzipped %d bytes, not smaller than %d", zipped.Body.Len(), len(want))
			}
			zetag := zipped.Header().Get("ETag")
			if zetag == etag || zetag == "" {
				t.Errorf("gzipped ETag %q: want its own, not the plain %q", zetag, etag)
			}
			if !strings.Contains(zipped.Header().Get("Vary"), "Accept-Encoding") || !strings.Contains(plain.Header().Get("Vary"), "Accept-Encoding") {
				t.Errorf("no Vary: Accept-Encoding")
			}
			if rec := getStatic(t, h, "GET", u, "Accept-Encoding", "gzip", "If-None-Match", zetag); rec.Code != 304 {
				t.Errorf("If-None-Match on the gzipped answer: status %d, want 304", rec.Code)
			}
		})
	}
	t.Run("/ is the front page", func(t *testing.T) {
		want, _ := fs.ReadFile(static, "front/index.html")
		rec := getStatic(t, h, "GET", "/")
		if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("GET /: status %d, type %q", rec.Code, rec.Header().Get("Content-Type"))
		}
	})
	t.Run("HEAD", func(t *testing.T) {
		rec := getStatic(t, h, "HEAD", "/spider/app.js")
		if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("ETag") == "" || rec.Header().Get("Content-Length") == "" {
			t.Fatalf("HEAD: status %d, %d bytes, headers %v", rec.Code, rec.Body.Len(), rec.Header())
		}
	})
	t.Run("no directory listings", func(t *testing.T) {
		for _, p := range []string{"/js/", "/js", "/static/", "/nope.js", "/js/nope.js", "/app.js", "/front/", "/front/front.js", "/spider/nope.js", "/shared/", "/shared"} {
			if rec := getStatic(t, h, "GET", p); rec.Code != 404 {
				t.Errorf("GET %s: status %d, want 404: %.200s", p, rec.Code, rec.Body)
			}
		}
	})
	t.Run("every answer has the CSP", func(t *testing.T) {
		for _, p := range []string{"/", "/spider/", "/spider/app.js", "/api/stats", "/js/"} {
			rec := getStatic(t, h, "GET", p)
			if got := rec.Header().Get("Content-Security-Policy"); got != contentSecurityPolicy {
				t.Errorf("GET %s: Content-Security-Policy %q", p, got)
			}
		}
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'", "frame-ancestors 'none'"} {
			if !strings.Contains(contentSecurityPolicy, want) {
				t.Errorf("the policy lacks %s", want)
			}
		}
		if strings.Contains(contentSecurityPolicy, "unsafe") {
			t.Errorf("the policy allows something unsafe: %s", contentSecurityPolicy)
		}
	})
}

// TestStaticETagFollowsContent: a changed file gets a new ETag, so a
// browser holding the old file fetches the new one.
func TestStaticETagFollowsContent(t *testing.T) {
	v1, err := loadStatic(fstest.MapFS{"a.js": {Data: []byte("let a = 1;")}})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := loadStatic(fstest.MapFS{"a.js": {Data: []byte("let a = 2;")}})
	if err != nil {
		t.Fatal(err)
	}
	same, err := loadStatic(fstest.MapFS{"a.js": {Data: []byte("let a = 1;")}})
	if err != nil {
		t.Fatal(err)
	}
	if v1["/a.js"].etag == v2["/a.js"].etag {
		t.Errorf("two contents, one ETag %s", v1["/a.js"].etag)
	}
	if v1["/a.js"].etag != same["/a.js"].etag {
		t.Errorf("one content, two ETags %s %s", v1["/a.js"].etag, same["/a.js"].etag)
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"gzip, deflate, br"}, true},
		{[]string{"br", "gzip"}, true},
		{[]string{"deflate;q=1, gzip;q=0.5"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"*"}, true},
		{[]string{"br"}, false},
		{[]string{"identity"}, false},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"gzip;q=0, *"}, false},
		{[]string{"*;q=0"}, false},
		{[]string{"*;q=0, gzip"}, true},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.header, "|"), func(t *testing.T) {
			if got := acceptsGzip(tc.header); got != tc.want {
				t.Fatalf("acceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
			}
		})
	}
}

// TestStaticURLPaths: each folder of static/ is served where CONTRACT.md
// says: shared modules under /shared/, a game's folder under its name, and
// the front page at the root.
func TestStaticURLPaths(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"shared/cards.js", []string{"/shared/cards.js"}},
		{"spider/app.js", []string{"/spider/app.js"}},
		{"spider/index.html", []string{"/spider/index.html", "/spider/"}},
		{"front/front.js", []string{"/front.js"}},
		{"front/index.html", []string{"/index.html", "/"}},
		{"arlington/app.js", []string{"/arlington/app.js"}},
		{"arlington/index.html", []string{"/arlington/index.html", "/arlington/"}},
		{"a.js", []string{"/a.js"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if got := urlPaths(tc.file); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	h := newHarness(t, Options{})
	for _, p := range []string{"/shared/api.js", "/shared/cards.js", "/shared/sound.js", "/shared/base.css", "/spider/style.css", "/favicon.svg", "/front.css"} {
		if rec := getStatic(t, h, "GET", p); rec.Code != 200 {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
}

// suitTable is an object's entry pairing a suit's letter and its sign,
// either way round: `S: "♠"`, `"♠": "S"`.
var suitTable = regexp.MustCompile(`(?:^|[{,\s])"?[CDHS]"?\s*:\s*"[♠♥♦♣]"|"[♠♥♦♣]"\s*:\s*"[CDHS]"`)

// TestSuitSignsOneTable: the suits' signs are written down once, in
// /shared/cards.js, which both pages import; a page with its own copy
// (Arlington's render.js and common.js, Spider's messages.js and
// tools.js had them) could come to write a card two ways. It finds a
// copy written as an object's entries pairing a letter and its sign
// (suitTable), as those four were; one written otherwise (an array of
// signs, a switch, a string indexed by suit) it does not see.
func TestSuitSignsOneTable(t *testing.T) {
	static, err := fs.Sub(Static, "static")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		found := suitTable.FindAllString(string(b), -1)
		if p == "shared/cards.js" {
			seen = len(found)
			return nil
		}
		if len(found) > 0 {
			t.Errorf("%s has a table of the suits' signs of its own (%q): import SUIT_SIGNS, cardText, signSuit or signCode from /shared/cards.js", p, found)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 4 {
		t.Errorf("/shared/cards.js pairs %d suits with their signs, want the 4 (the pattern no longer finds its table)", seen)
	}
}
