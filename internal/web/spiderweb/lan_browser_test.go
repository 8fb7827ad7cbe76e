package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestBrowserLegacyAdoptedOnLANHost: on a plain-HTTP network install
// (serve --addr 0.0.0.0:8080 --host mybox.lan), a page left open across
// the upgrade from a version without players adopts what that version
// stored. Real Chromium at a non-loopback name sends such an origin no
// Sec-Fetch-Mode, and its GET fetches no Origin or Referer: the page's
// first fetch was given an identity that adopted nothing, and the data
// went to the next device that loaded a page.
func TestBrowserLegacyAdoptedOnLANHost(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "cardtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.PutSettings(ctx, "", `{"old":true}`); err != nil {
		t.Fatal(err)
	}
	sp := New(db, Options{})
	var mu sync.Mutex
	var fetchModes []string // Sec-Fetch-Mode of each API request
	h := web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy,
		CheckHost: true, Hosts: []string{webtest.LANHost}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/settings" {
			mu.Lock()
			fetchModes = append(fetchModes, r.Header.Get("Sec-Fetch-Mode"))
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + webtest.LANHost + ":" + u.Port()

	// A document of the origin with no player cookie (a static file is
	// given none), standing for the page the old version served; then its
	// script's first request, a GET.
	tab := webtest.OpenTab(t, bctx, 800, 600)
	if _, err := chromedp.Run(tab, chromedp.Navigate(base+"/shared/base.css")); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := webtest.Eval(tab, `fetch("/api/settings").then(r => r.text())`, &got); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	modes := fetchModes
	mu.Unlock()
	if len(modes) != 1 || modes[0] != "" {
		t.Fatalf("Sec-Fetch-Mode of the fetches %q: want one without it, as Chromium sends a network origin over HTTP", modes)
	}
	if got != `{"old":true}` {
		t.Fatalf("the open page's first fetch: settings %s, want what was stored before players", got)
	}
}
