package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestBrowserSettingReloadedBeforeStored: a setting changed just before
// a reload survives it, though the server has not taken the change yet
// (its write is held at the server until after the reload), and reaches
// the server afterwards. The reloaded page asked the server for the
// settings, got the ones from before the change and showed them: verbose
// messages, turned off, were on again.
func TestBrowserSettingReloadedBeforeStored(t *testing.T) {
	bctx := startBrowser(t)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "cardtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	sp := New(db, Options{Hint: firstMoveHint})
	site := web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy})
	// The server's settings writes: each is told on stored once answered;
	// while holding is set, the next one waits for release first (told on
	// held as it starts waiting, and by closing heldDone once answered).
	var (
		mu      sync.Mutex
		holding bool
	)
	held, release, stored := make(chan struct{}, 1), make(chan struct{}), make(chan struct{}, 16)
	heldDone := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || r.URL.Path != "/api/settings" {
			site.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		hold := holding
		holding = false
		mu.Unlock()
		if hold {
			held <- struct{}{}
			<-release // open() at the latest when the test ends
			defer close(heldDone)
		}
		site.ServeHTTP(w, r)
		select {
		case stored <- struct{}{}:
		default: // nobody waits for so many
		}
	}))
	t.Cleanup(func() {
		open()
		srv.Close()
		db.Close()
	})
	wait := func(c chan struct{}, what string) {
		t.Helper()
		select {
		case <-c:
		case <-time.After(webtest.StepTimeout):
			t.Fatalf("no %s within %v", what, webtest.StepTimeout)
		}
	}
	verbose := func(p *browserPage) string {
		var v string
		p.eval(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked")`, &v)
		return v
	}

	p := openPage(t, bctx, srv, 1280, 800)
	// The server keeps settings for this player: sound on.
	p.menu("#btn-cards-menu", `#menu-cards [data-set="sound"]`)
	wait(stored, "settings stored")
	p.idle()
	// Verbose off; its write is held at the server while the page reloads.
	mu.Lock()
	holding = true
	mu.Unlock()
	p.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
	wait(held, "settings write")
	p.load()
	if v := verbose(p); v != "false" {
		t.Errorf("verbose, turned off just before a reload, shows aria-checked %q after it, want false", v)
	}
	open()
	p.idle()
	wait(heldDone, "held settings write answered")
	settings := getJSON[map[string]any](p, srv.URL+"/api/settings")
	if settings["verbose"] != false || settings["sound"] != true {
		t.Errorf("the server's settings after the reload: %v, want verbose false and sound true", settings)
	}
	// The server has them now: a page loaded next takes the server's.
	var unsent bool
	p.eval(`localStorage.getItem("cardtable.spider.settings.unsent") !== null`, &unsent)
	if unsent {
		t.Errorf("the page still marks its settings unsent once the server took them")
	}
	p.load()
	if v := verbose(p); v != "false" {
		t.Errorf("verbose after a second reload: aria-checked %q, want false", v)
	}
}
