package arlweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestBrowserArlingtonTableMoving: a request the page makes while its
// table is between servers (503 with Retry-After, as a server answers
// during a take-over or a rolling restart) is made again by itself: the
// person joins, and no error is shown. The first join is answered so, as
// the server forwarding it would. (Each answer so costs the second its
// Retry-After asks for: TestLongBrowserArlingtonTableMoving has two.)
func TestBrowserArlingtonTableMoving(t *testing.T) {
	t.Parallel()
	tableMoving(t, 1)
}

// TestLongBrowserArlingtonTableMoving: as TestBrowserArlingtonTableMoving,
// the first two joins answered so: the page asks again more than once.
func TestLongBrowserArlingtonTableMoving(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	tableMoving(t, 2)
}

// tableMoving has the first refused joins answered 503 with Retry-After,
// and checks that the person is seated after refused+1 joins asked, no
// error shown on the way.
func tableMoving(t *testing.T, refused int32) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	inner := e.srv.Config.Handler
	var joins atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/join") && joins.Add(1) <= refused {
			unavailable(w, r, "the table is moving to another server")
			return
		}
		inner.ServeHTTP(w, r)
	}))
	defer front.Close()
	startCtx := startBrowser(t)
	ctx, cancel := context.WithTimeout(startCtx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Navigate(front.URL+"/arlington/t/"+id),
		untilJS(`!document.getElementById("join").hidden`),
		// Every text the error line shows from now on.
		chromedp.Evaluate[chromedp.Void](`window.errSeen = []; new MutationObserver(() => errSeen.push(document.getElementById("error").textContent)).observe(document.getElementById("error"), {childList: true, characterData: true, subtree: true})`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.Click(chromedp.CSS("#join-form button")),
		untilJS(`document.querySelector("#hand svg.card")`),
	)
	if err != nil {
		dctx, dcancel := context.WithTimeout(startCtx, 5*time.Second)
		defer dcancel()
		diag, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`document.getElementById("error").textContent`))
		t.Fatalf("%v; error line: %q; %d joins asked", err, diag, joins.Load())
	}
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`errSeen.filter((s) => s !== "")`))
	if err != nil || len(seen) > 0 {
		t.Fatalf("the page showed %q (%v)", seen, err)
	}
	if n := joins.Load(); n != refused+1 {
		t.Fatalf("%d joins asked, want %d", n, refused+1)
	}
}

// TestBrowserArlingtonBusyDatabaseShown: a join refused 503 with
// Retry-After but not marked as a table between servers (PostgreSQL's
// pool with no connection free) is shown at once, not asked again: asked
// again it added load to a busy database and kept the person waiting
// about 14 s for the words.
func TestBrowserArlingtonBusyDatabaseShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	inner := e.srv.Config.Handler
	var joins atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/join") {
			joins.Add(1)
			w.Header().Set("Retry-After", "5")
			web.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "the server's database is too slow just now; try again in a moment"})
			return
		}
		inner.ServeHTTP(w, r)
	}))
	defer front.Close()
	ctx, cancel := context.WithTimeout(startBrowser(t), 30*time.Second)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Navigate(front.URL+"/arlington/t/"+id),
		untilJS(`!document.getElementById("join").hidden`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.Click(chromedp.CSS("#join-form button")),
		untilJS(`document.getElementById("error").textContent.includes("too slow")`),
	)
	if err != nil {
		t.Fatalf("%v; %d joins asked", err, joins.Load())
	}
	if n := joins.Load(); n != 1 {
		t.Fatalf("%d joins asked, want the one shown", n)
	}
}

// TestBrowserArlingtonTableMovedWords: a table that moves to another
// server closes the page's connection with 1012 "table moved:
// reconnect"; the connection line says the table is moving (it said
// "server restarting"), and keeps saying so while the attempts after it
// are refused (503, as every request of the table is while no server
// runs it yet). Those attempts do not ask the table's address: the
// ending said the table lives on (each refused attempt asked it).
func TestBrowserArlingtonTableMovedWords(t *testing.T) {
	t.Parallel()
	m := startMoving(t, func(w http.ResponseWriter, r *http.Request) {
		unavailable(w, r, "the table is moving to another server")
	})
	e, id, p := m.e, m.id, m.p
	// Every text the connection line shows from now on.
	p.do(chromedp.Evaluate[chromedp.Void](`window.connSeen = []; new MutationObserver(() => connSeen.push(document.getElementById("conn").textContent)).observe(document.getElementById("conn"), {childList: true, characterData: true, subtree: true})`))
	m.refusing.Store(true)
	m.moved.Store(true)
	// Bob's join is the write the store refuses: the table stops here.
	if code := e.client().do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: "Bob"}, nil); code != http.StatusServiceUnavailable {
		t.Fatalf("a join to a table that moved: %d", code)
	}
	p.until(`window.__ws.socks.length >= 3 && window.__ws.socks.every((s) => s.readyState === WebSocket.CLOSED)`)
	if n := m.refused.Load(); n < 2 {
		t.Fatalf("%d attempts refused, want 2", n)
	}
	seen := eval[[]string](p, `connSeen`)
	const want = "table moving to another server: reconnecting…"
	if len(seen) == 0 || seen[0] != want {
		t.Errorf("the connection line showed %q; want %q first", seen, want)
	}
	for _, s := range seen {
		if s != want {
			t.Errorf("the connection line showed %q; want only %q while the table moves", seen, want)
			break
		}
	}
	if n := m.asked.Load(); n != 0 {
		t.Errorf("the page asked the table's address %d times after %d refused attempts; the ending said the table moves", n, m.refused.Load())
	}
}

// TestLongBrowserArlingtonMovedThenGone (long: five attempts with the
// page's growing waits, about 3 s): a table that ended while it moved (a
// finished table does not come back after a restart) closes the page's
// connection with 1012, then every attempt is refused and the table's
// address answers 404. The page asks that address once every fifth
// refused attempt, so it stops as gone after the fifth, having asked
// once, rather than trying for ever.
func TestLongBrowserArlingtonMovedThenGone(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	m := startMoving(t, http.NotFound)
	e, id, p := m.e, m.id, m.p
	m.refusing.Store(true)
	m.moved.Store(true)
	// Bob's join is the write the store refuses: the table stops here.
	e.client().do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: "Bob"}, nil)
	p.until(`document.getElementById("conn").textContent.startsWith("this table has ended")`)
	if r, a := m.refused.Load(), m.asked.Load(); r != 5 || a != 1 {
		t.Errorf("the page stopped after %d refused attempts and %d requests of the table's address; want 5 and 1", r, a)
	}
}

// moving is a table whose store can be made to refuse writes (moved)
// behind a front server that, once refusing, answers the table's socket
// with 503 (counted in refused) and its address with address (counted in
// asked); p is a watcher's page connected through the front.
type moving struct {
	e               *env
	id              string
	p               *seatTab
	moved, refusing atomic.Bool
	refused, asked  atomic.Int32
}

func startMoving(t testing.TB, address http.HandlerFunc) *moving {
	t.Helper()
	m := &moving{}
	m.e = newEnvStore(t, Limits{}, web.Options{}, func(db *store.DB) table.Store { return &movingStore{DB: db, moved: &m.moved} })
	m.id = m.e.client().create("", "", "random")
	inner := m.e.srv.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m.refusing.Load() {
			switch r.URL.Path {
			case "/api/arlington/tables/" + m.id + "/ws":
				m.refused.Add(1)
				unavailable(w, r, "the table is moving to another server")
				return
			case "/api/arlington/tables/" + m.id:
				m.asked.Add(1)
				address(w, r)
				return
			}
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	m.p = seatTabIn(t, startBrowser(t), "Watcher")
	m.p.open(front.URL, m.id)
	m.p.until(`document.getElementById("conn").textContent === "connected"`)
	return m
}
