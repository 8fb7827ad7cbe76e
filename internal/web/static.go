package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// contentSecurityPolicy is sent with every answer. The page is only files
// from this server: no inline script or style (the page sets styles through
// the DOM, which CSP allows), no eval, no frames, no plugins. The browser
// test TestBrowserCSP checks that the page breaks none of it.
// 'report-sample' puts the start of refused inline code in the violation
// report the page sees (there is no report endpoint), which helps find it.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'report-sample'; " +
	"style-src 'self' 'report-sample'; img-src 'self'; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'none'"

// staticFile is one file of the page, ready to serve: its bytes, gzipped
// bytes when that is smaller, and an ETag for each, made from the content.
type staticFile struct {
	name         string
	ctype        string
	body, gz     []byte
	etag, gzETag string
}

// staticFiles are the page's files by URL path; "/" is the front page. Built
// once at startup from the embedded files, so each answer is a map lookup.
type staticFiles map[string]*staticFile

// contentTypes are the page's file types; a fixed table, so the answer does
// not depend on the machine's MIME configuration.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// compressible are the types worth gzipping.
func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || ctype == "image/svg+xml" || ctype == "application/json"
}

func loadStatic(fsys fs.FS) (staticFiles, error) {
	files := staticFiles{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := newStaticFile(p, body)
		if err != nil {
			return err
		}
		for _, u := range urlPaths(p) {
			files[u] = f
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the page's files: %w", err)
	}
	return files, nil
}

// newStaticFile is the file at p (its name gives its type) ready to serve.
func newStaticFile(p string, body []byte) (*staticFile, error) {
	f := &staticFile{name: path.Base(p), body: body, ctype: contentTypes[path.Ext(p)]}
	if f.ctype == "" {
		f.ctype = "application/octet-stream"
	}
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:16])
	f.etag = `"` + tag + `"`
	if compressible(f.ctype) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
		zw.Write(body)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		if buf.Len() < len(body) {
			f.gz = buf.Bytes()
			// A different encoding is a different representation: its
			// own strong ETag.
			f.gzETag = `"` + tag + `-gz"`
		}
	}
	return f, nil
}

// Page is one file a game's handlers serve themselves (a page under a
// route of theirs), served as the page's files are: from memory, gzipped
// when asked, with "no-cache" and an ETag made from its content, so an
// unchanged page costs a 304 (If-None-Match).
type Page struct{ f *staticFile }

// NewPage prepares body, the file at name (its extension gives the type).
func NewPage(name string, body []byte) (*Page, error) {
	f, err := newStaticFile(name, body)
	if err != nil {
		return nil, err
	}
	return &Page{f}, nil
}

// Serve answers a GET or HEAD with the page.
func (p *Page) Serve(w http.ResponseWriter, r *http.Request) { p.f.serve(w, r) }

// urlPaths are the URL paths of the static file at p (slash-separated,
// relative to static/): shared/x is /shared/x, a game's folder is served
// under its name (spider/app.js is /spider/app.js), and front/, the front
// page, is served from / (front/front.js is /front.js). A folder's
// index.html also answers for the folder.
func urlPaths(p string) []string {
	dir, rest, ok := strings.Cut(p, "/")
	if !ok {
		dir, rest = "", p
	}
	prefix := "/" + dir + "/"
	if dir == "front" || dir == "" {
		prefix = "/"
	}
	out := []string{prefix + rest}
	if rest == "index.html" {
		out = append(out, prefix)
	}
	return out
}

// pages are the URL paths that answer with an HTML page.
func (files staticFiles) pages() map[string]bool {
	out := map[string]bool{}
	for u, f := range files {
		if strings.HasPrefix(f.ctype, "text/html") {
			out[u] = true
		}
	}
	return out
}

// serve answers GET or HEAD for a file of the page. Directories and unknown
// paths are 404: there are no listings. Every answer says "no-cache": the
// browser keeps the file but asks each time whether it changed, and an
// unchanged file costs a 304 without a body (If-None-Match against the
// ETag). The files are not renamed by content, so a longer cache would keep
// an old page after an upgrade.
func (files staticFiles) serve(w http.ResponseWriter, r *http.Request) error {
	f := files[r.URL.Path]
	if f == nil {
		return fmt.Errorf("%w: no file %s", ErrNotFound, r.URL.Path)
	}
	f.serve(w, r)
	return nil
}

func (f *staticFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	// Added to "private" where identify handed out the cookie (a page):
	// cache.go decides the header from both.
	cacheRevalidate(h)
	body, etag := f.body, f.etag
	if f.gz != nil {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, etag = f.gz, f.gzETag
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	// ServeContent answers If-None-Match (304), HEAD and ranges.
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(body))
}

// acceptsGzip: an Accept-Encoding header accepts gzip: gzip listed
// without q=0, or not listed and * listed without q=0.
func acceptsGzip(values []string) bool {
	gz, star := 0, 0 // 0 unlisted, 1 accepted, -1 refused (q=0)
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			verdict := 1
			if zeroQ(params) {
				verdict = -1
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gz = verdict
			case "*":
				star = verdict
			}
		}
	}
	return gz == 1 || gz == 0 && star == 1
}

// zeroQ: the parameters hold q=0 (0, 0.0, 0.000): "not acceptable".
func zeroQ(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		return strings.Trim(strings.TrimPrefix(v, "0"), ".0") == "" && strings.HasPrefix(v, "0")
	}
	return false
}
