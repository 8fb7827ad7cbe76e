package spiderweb

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// settingsServer is the site with its settings writes (PUT /api/settings)
// watched: each is counted in puts and told on stored once answered; after
// hold, the next one waits for release first (told on held as it starts
// waiting, and by closing heldDone once answered), and is dropped if the
// browser cancelled it meanwhile; after holdLost it is dropped in any case,
// after holdLate stored in any case.
type settingsServer struct {
	srv      *httptest.Server
	mu       sync.Mutex
	holding  bool
	puts     atomic.Int32
	held     chan struct{}
	release  chan struct{}
	heldDone chan struct{}
	stored   chan struct{}
	// abandoned: the held write's request was cancelled before open
	// (after holdLost: by a step after open).
	abandoned atomic.Bool
	// lost: the held write is never stored (holdLost). late: it is
	// stored once open whether or not the browser cancelled it, as a
	// database write already under way when the cancel came (holdLate).
	lost atomic.Bool
	late atomic.Bool
	once sync.Once
	// fail is how many of the next writes are answered 503 with
	// Retry-After: retryAfter seconds (0: none; 1 unless set), a server
	// that cannot store them just now, unseen by the site; each told on
	// failed. refuse is how many are answered 413, as the site answers a
	// body past its bound.
	fail       atomic.Int32
	retryAfter atomic.Int32
	failed     chan struct{}
	// failedAt is when the last 503 was answered (ms since 1970, the
	// clock the browser's Date.now reads); fails counts the 503s.
	failedAt atomic.Int64
	fails    atomic.Int32
	refuse   atomic.Int32
	// After holdGet the next GET of its path is read at once and
	// answered after openGet (told on getHeld as it waits).
	holdingGet string
	getHeld    chan struct{}
	getRelease chan struct{}
	getOnce    sync.Once
}

func newSettingsServer(t testing.TB) *settingsServer {
	t.Helper()
	site := pageSite(t, filepath.Join(t.TempDir(), "cardtable.db"))
	ss := &settingsServer{
		held: make(chan struct{}, 1), release: make(chan struct{}),
		heldDone: make(chan struct{}), stored: make(chan struct{}, 16),
		failed: make(chan struct{}, 16), getHeld: make(chan struct{}, 1), getRelease: make(chan struct{}),
	}
	ss.retryAfter.Store(1)
	ss.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && ss.takeHeldGet(r.URL.Path) {
			rec := httptest.NewRecorder()
			site.ServeHTTP(rec, r) // read now, answered after openGet
			ss.getHeld <- struct{}{}
			<-ss.getRelease
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		if r.Method != http.MethodPut || r.URL.Path != "/api/settings" {
			site.ServeHTTP(w, r)
			return
		}
		ss.puts.Add(1)
		if ss.fail.Add(-1) >= 0 {
			if ra := ss.retryAfter.Load(); ra > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int(ra)))
			}
			ss.failedAt.Store(time.Now().UnixMilli())
			ss.fails.Add(1)
			http.Error(w, `{"error":"the server's database is too slow just now"}`, http.StatusServiceUnavailable)
			select {
			case ss.failed <- struct{}{}:
			default:
			}
			return
		}
		ss.fail.Store(0)
		if ss.refuse.Add(-1) >= 0 {
			http.Error(w, `{"error":"request body too large (limit 16384 bytes)"}`, http.StatusRequestEntityTooLarge)
			return
		}
		ss.refuse.Store(0)
		ss.mu.Lock()
		hold := ss.holding
		ss.holding = false
		ss.mu.Unlock()
		if hold {
			// Read first: the server notices a request cancelled only
			// once its body is read.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				ss.abandoned.Store(true)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			ss.held <- struct{}{}
			<-ss.release // open() at the latest when the test ends
			defer close(ss.heldDone)
			if ss.late.Load() {
				ss.abandoned.Store(r.Context().Err() != nil)
				r = r.WithContext(context.WithoutCancel(r.Context()))
				site.ServeHTTP(w, r)
				return
			}
			// A write the browser abandoned meanwhile (its page closed
			// or left, the request cancelled) is lost with it, as a
			// store write under a cancelled request would be.
			if r.Context().Err() != nil {
				ss.abandoned.Store(true)
				return
			}
			if ss.lost.Load() {
				// Whether the browser cancelled it is told by a step
				// at most: the server sees a cancel only once the
				// connection is closed.
				select {
				case <-r.Context().Done():
					ss.abandoned.Store(true)
				case <-time.After(webtest.StepTimeout):
				}
				return
			}
		}
		site.ServeHTTP(w, r)
		select {
		case ss.stored <- struct{}{}:
		default: // nobody waits for so many
		}
	}))
	t.Cleanup(func() {
		ss.openGet()
		ss.open()
		ss.srv.Close()
	})
	return ss
}

// settingsBrowser is a browser against a settingsServer, for a test of
// the page's settings in one tab or more: tab opens a tab, and open is
// still the server's (it lets a held write through).
type settingsBrowser struct {
	*settingsServer
	t    testing.TB
	bctx context.Context
}

// newSettingsBrowser starts a browser, then a settingsServer.
func newSettingsBrowser(t testing.TB) *settingsBrowser {
	t.Helper()
	bctx := startBrowser(t)
	return &settingsBrowser{settingsServer: newSettingsServer(t), t: t, bctx: bctx}
}

// tab opens a tab of the page on the server, 1280×800.
func (sb *settingsBrowser) tab() *browserPage {
	sb.t.Helper()
	return openPage(sb.t, sb.bctx, sb.srv, 1280, 800)
}

// hold makes the next settings write wait for open.
func (ss *settingsServer) hold() {
	ss.mu.Lock()
	ss.holding = true
	ss.mu.Unlock()
}

// holdLost makes the next settings write wait for open, and then be
// dropped whether or not the browser cancelled it: a write the browser
// cancels as its page goes, which the server may or may not see as
// cancelled, can never deliver what it carries.
func (ss *settingsServer) holdLost() {
	ss.lost.Store(true)
	ss.hold()
}

// holdLate makes the next settings write wait for open, and then be
// stored whether or not the browser cancelled it meanwhile: its database
// write was already under way when the cancel came.
func (ss *settingsServer) holdLate() {
	ss.late.Store(true)
	ss.hold()
}

// holdGet makes the next read of path (GET) answer, as it was then,
// only after openGet.
func (ss *settingsServer) holdGet(path string) {
	ss.mu.Lock()
	ss.holdingGet = path
	ss.mu.Unlock()
}

// takeHeldGet tells whether a read of path is to be held, once.
func (ss *settingsServer) takeHeldGet(path string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.holdingGet != path {
		return false
	}
	ss.holdingGet = ""
	return true
}

// openGet answers the held read (and lets any later one through).
func (ss *settingsServer) openGet() { ss.getOnce.Do(func() { close(ss.getRelease) }) }

// open lets the held write (and any later one) through.
func (ss *settingsServer) open() { ss.once.Do(func() { close(ss.release) }) }

// settings is what the server keeps for the page's player.
func (ss *settingsServer) settings(p *browserPage) map[string]any {
	return getJSON[map[string]any](p, ss.srv.URL+"/api/settings")
}

// waitSignal waits for a signal on c at most a step's bound.
func waitSignal(t *testing.T, c chan struct{}, what string) {
	t.Helper()
	receiveWithin(t, c, webtest.StepTimeout, what)
}

// receiveWithin is the next value on c, waited for at most d; what
// names it in the failure.
func receiveWithin[T any](t testing.TB, c <-chan T, d time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(d):
		t.Fatalf("no %s within %v", what, d)
		var zero T
		return zero // not reached: Fatalf ends the test's goroutine
	}
}

// setting is the aria-checked of the page's menu item for setting key.
func setting(p *browserPage, key string) string {
	var v string
	p.eval(`document.querySelector('[data-set="`+key+`"]').getAttribute("aria-checked")`, &v)
	return v
}

// toggle turns setting key over from the page's Cards menu.
func toggle(p *browserPage, key string) {
	p.t.Helper()
	p.menu("#btn-cards-menu", `#menu-cards [data-set="`+key+`"]`)
}

// waitSetting waits until p's menu item for setting key shows
// aria-checked want ("true" or "false"); what names the wait.
func waitSetting(p *browserPage, key, want, what string) {
	p.t.Helper()
	p.waitJS(`document.querySelector('[data-set="`+key+`"]').getAttribute("aria-checked") === "`+want+`"`, what)
}

// copied is setting key in the browser's copy of the settings
// (localStorage).
func copied[T any](p *browserPage, key string) T {
	p.t.Helper()
	var v T
	p.eval(`JSON.parse(localStorage.getItem("cardtable.spider.settings"))[`+strconv.Quote(key)+`]`, &v)
	return v
}

// unsentMark tells whether the browser marks its settings unsent.
func unsentMark(p *browserPage) bool {
	var unsent bool
	p.eval(`localStorage.getItem("cardtable.spider.settings.unsent") !== null`, &unsent)
	return unsent
}

// TestBrowserSettingReloadedBeforeStored: a setting changed just before
// a reload survives it, though the server has not taken the change yet
// (its write is held at the server until after the reload), and reaches
// the server afterwards. The reloaded page asked the server for the
// settings, got the ones from before the change and showed them: verbose
// messages, turned off, were on again.
func TestBrowserSettingReloadedBeforeStored(t *testing.T) {
	t.Parallel()
	ss := newSettingsBrowser(t)
	p := ss.tab()
	// The server keeps settings for this player: sound on.
	toggle(p, "sound")
	waitSignal(t, ss.stored, "settings stored")
	p.idle()
	// Verbose off; its write is held at the server while the page reloads.
	ss.hold()
	toggle(p, "verbose")
	waitSignal(t, ss.held, "settings write")
	p.load()
	if v := setting(p, "verbose"); v != "false" {
		t.Errorf("verbose, turned off just before a reload, shows aria-checked %q after it, want false", v)
	}
	ss.open()
	p.idle()
	waitSignal(t, ss.heldDone, "held settings write answered")
	if s := ss.settings(p); s["verbose"] != false || s["sound"] != true {
		t.Errorf("the server's settings after the reload: %v, want verbose false and sound true", s)
	}
	// The server has them now: a page loaded next takes the server's.
	if unsentMark(p) {
		t.Errorf("the page still marks its settings unsent once the server took them")
	}
	p.load()
	if v := setting(p, "verbose"); v != "false" {
		t.Errorf("verbose after a second reload: aria-checked %q, want false", v)
	}
}

// TestBrowserSettingsWrittenInOrder: two changes in a row, the first's
// write slow at the server, both reach it. Sent together, the first write
// (verbose off, sound still off) could land after the second (both
// changed) and undo sound; so the page sends the second once the first is
// answered, and counts the writes among its requests in flight.
func TestBrowserSettingsWrittenInOrder(t *testing.T) {
	t.Parallel()
	ss := newSettingsBrowser(t)
	p := ss.tab()
	ss.hold()
	toggle(p, "verbose")
	waitSignal(t, ss.held, "settings write")
	toggle(p, "sound")
	waitSetting(p, "sound", "true", "sound on")
	var busy string
	p.eval(`document.body.dataset.busy`, &busy)
	if busy != "1" {
		t.Errorf("data-busy %q while a settings write is unanswered, want 1", busy)
	}
	// A second write sent at once would have reached the server by now
	// (the browser sent it before this read): told by the count, or by
	// sound on at the server before the first write is answered.
	if s := ss.settings(p); s["sound"] == true {
		t.Errorf("the server took sound on before the write before it was answered")
	}
	if n := ss.puts.Load(); n != 1 {
		t.Errorf("%d settings writes reached the server while the first is unanswered, want 1", n)
	}
	ss.open()
	waitSignal(t, ss.heldDone, "held settings write answered")
	p.idle()
	if s := ss.settings(p); s["verbose"] != false || s["sound"] != true {
		t.Errorf("the server's settings: verbose %v sound %v, want false and true", s["verbose"], s["sound"])
	}
	if unsentMark(p) {
		t.Errorf("the page still marks its settings unsent once the server took them")
	}
}

// TestBrowserSettingsTwoTabsOlderWriteLast: a setting changed in one tab
// is kept when another tab's older write lands after it. Tab A turns
// verbose off, its write held at the server; tab B, opened meanwhile,
// takes the browser's unsent copy and sends it, then turns sound on, which
// the server takes; A's write (sound off) lands last. A, answered, finds
// the browser's copy changed since it sent and sends that copy: the server
// ends with both changes, and a tab opened next shows sound on.
func TestBrowserSettingsTwoTabsOlderWriteLast(t *testing.T) {
	t.Parallel()
	ss := newSettingsBrowser(t)
	a := ss.tab()
	ss.hold()
	toggle(a, "verbose")
	waitSignal(t, ss.held, "tab A's settings write")
	b := ss.tab()
	if v := setting(b, "verbose"); v != "false" {
		t.Fatalf("tab B shows verbose aria-checked %q, want false (the browser's unsent copy)", v)
	}
	toggle(b, "sound")
	waitSetting(b, "sound", "true", "sound on in tab B")
	b.idle()
	if s := ss.settings(b); s["sound"] != true {
		t.Fatalf("the server's settings after tab B's change: %v, want sound true", s)
	}
	ss.open()
	waitSignal(t, ss.heldDone, "tab A's held write answered")
	a.idle()
	if s := ss.settings(a); s["verbose"] != false || s["sound"] != true {
		t.Errorf("the server's settings once tab A's older write landed: verbose %v sound %v, want false and true", s["verbose"], s["sound"])
	}
	if unsentMark(a) {
		t.Errorf("the browser still marks its settings unsent once the server took them")
	}
	c := ss.tab()
	if v := setting(c, "sound"); v != "true" {
		t.Errorf("a tab opened afterwards shows sound aria-checked %q, want true", v)
	}
}
