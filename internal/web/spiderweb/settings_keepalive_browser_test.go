package spiderweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"cardtable/internal/web/webtest"
)

// queuedWrites is the site with its first settings writes held, each
// until the test lets it through (release), then stored whether or not
// the browser cancelled it, as a database write already under way would
// be. Each held write is told on held; every write, once stored, on
// stored.
type queuedWrites struct {
	srv    *httptest.Server
	holds  atomic.Int32
	held   chan chan struct{}
	stored chan struct{}
}

func newQueuedWrites(t *testing.T, holds int32) *queuedWrites {
	t.Helper()
	site := pageSite(t, filepath.Join(t.TempDir(), "cardtable.db"))
	q := &queuedWrites{held: make(chan chan struct{}, 8), stored: make(chan struct{}, 16)}
	q.holds.Store(holds)
	done := make(chan struct{}) // the test's end lets every held write through
	q.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || r.URL.Path != "/api/settings" {
			site.ServeHTTP(w, r)
			return
		}
		if q.holds.Add(-1) >= 0 {
			release := make(chan struct{})
			q.held <- release
			select {
			case <-release:
			case <-done:
			}
			r = r.WithContext(context.WithoutCancel(r.Context()))
		}
		site.ServeHTTP(w, r)
		q.stored <- struct{}{}
	}))
	t.Cleanup(func() {
		close(done)
		q.srv.Close()
	})
	return q
}

// TestBrowserSettingsChangeBehindKeepalive: a change made while the write
// sent with keepalive (as the page was hidden) is still in flight reaches
// the server when the tab is then closed: it is sent in a keepalive
// write of its own as the page goes. It waited for the first write's
// answer, which a closed page never reads, and so for the next page
// load. The keepalive write, let through last, is older and leaves the
// newer settings kept.
func TestBrowserSettingsChangeBehindKeepalive(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	q := newQueuedWrites(t, 2)
	reader := openPage(t, bctx, q.srv, 1280, 800)
	p := openPage(t, bctx, q.srv, 1280, 800)
	toggle(p, "sound")
	first := q.waitHeld(t, "the settings write for the sound")
	hidePage(p)
	keepalive := q.waitHeld(t, "the keepalive write sent as the page was hidden")
	toggle(p, "verbose")
	waitSetting(p, "verbose", "false", "verbose off")
	closeTab(p)
	waitSignal(t, q.stored, "the settings write sent as the tab was closed")
	close(keepalive)
	waitSignal(t, q.stored, "the keepalive write stored")
	close(first)
	waitSignal(t, q.stored, "the first write stored")
	s := getJSON[map[string]any](reader, q.srv.URL+"/api/settings")
	if s["sound"] != true || s["verbose"] != false {
		t.Errorf("the server's settings once the tab was closed: sound %v verbose %v, want true and false", s["sound"], s["verbose"])
	}
}

// waitHeld is the next held write's release; the test fails if none is
// held within a step.
func (q *queuedWrites) waitHeld(t *testing.T, what string) chan struct{} {
	t.Helper()
	return receiveWithin(t, q.held, webtest.StepTimeout, what)
}

// TestBrowserSettingsNewerKeptAdopted: a write answered with settings of a
// newer revision than its own (changed on another device of the player
// after this change was made, and taken while this write waited for its
// retry) makes them the browser's copy, shown at once: the last change
// made is the one kept, and the page shows what is kept. Another device
// is told by the other tab writing with fetch, which leaves the browser's
// copy alone.
func TestBrowserSettingsNewerKeptAdopted(t *testing.T) {
	t.Parallel()
	ss := newSettingsBrowser(t)
	other, p := ss.tab(), ss.tab()
	ss.fail.Store(1)
	toggle(p, "sound")
	waitSignal(t, ss.failed, "the failed settings write for the sound")
	var status int
	other.eval(`fetch("/api/settings", {method: "PUT", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({verbose: false, rev: Date.now()})}).then((r) => r.status)`, &status)
	if status != http.StatusOK {
		t.Fatalf("the other device's write answered %d", status)
	}
	// The retry, older, is answered with the other device's settings.
	p.waitJS(`JSON.parse(localStorage.getItem("cardtable.spider.settings")).verbose === false`, "the browser's copy to take the newer settings kept")
	waitSetting(p, "verbose", "false", "the page to show verbose off")
	waitSetting(p, "sound", "false", "the page to show sound as kept")
	p.idle()
	if unsentMark(p) {
		t.Error("the browser marks its settings unsent once the server answered with newer ones")
	}
	if s := ss.settings(p); s["verbose"] != false || s["sound"] != nil {
		t.Errorf("the server's settings: %v, want the other device's", s)
	}
}
