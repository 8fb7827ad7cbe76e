package spiderweb

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/spider"
)

// TestBrowserHintBusy: a hint the server refuses as busy (503 with
// Retry-After: another hint from the same address still being worked
// out) is said as news in the server's words, an information box, not
// an error; Finish stops saying so too. A 503 with Retry-After without
// the server's words (a proxy's page) is said as busy, not as another
// hint from this address. Before, the page showed it as a fault.
func TestBrowserHintBusy(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "cardtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	hold, entered := make(chan struct{}), make(chan struct{}, 1)
	hint := func(ctx context.Context, g *spider.Game) (spider.Move, error) {
		entered <- struct{}{}
		select { // held until the test ends: the address's turn stays taken
		case <-hold:
		case <-ctx.Done():
		}
		return spider.Move{}, context.Canceled
	}
	sp := New(db, Options{Hint: hint})
	sp.hinting.wait = 200 * time.Millisecond // not 10 s
	site := web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy})
	var proxyBusy atomic.Bool // a proxy in front answers hints itself: 503, a page of its own
	var dbDown atomic.Bool    // the server's database out of reach: its hint fails as the store's read would
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dbDown.Load() && strings.HasSuffix(r.URL.Path, "/hint") {
			web.WriteError(w, r, nil, fmt.Errorf("reading the game: %w", outOfReachErr{}))
			return
		}
		if proxyBusy.Load() && strings.HasSuffix(r.URL.Path, "/hint") {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "<html><body>503 Service Temporarily Unavailable</body></html>")
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(hold)
		srv.Close()
		db.Close()
	})
	// Another hint from this address (127.0.0.1, the page's too), of a
	// game of another player's, holds the address's turn.
	jar, _ := cookiejar.New(nil)
	other := &http.Client{Jar: jar}
	res, err := other.Post(srv.URL+"/api/games", "application/json", strings.NewReader(`{"deal":"1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var g gameResponse
	err = json.NewDecoder(res.Body).Decode(&g)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("the other game: %d %v", res.StatusCode, err)
	}
	go func() {
		if res, err := other.Get(srv.URL + "/api/games/" + g.ID + "/hint"); err == nil {
			res.Body.Close()
		}
	}()
	<-entered

	p := openPage(t, bctx, srv, 1280, 800)
	p.clickSel("#btn-hint")
	p.waitJS(`/hint is busy/.test(document.querySelector("#toast .msg").textContent)`, "the busy hint said")
	p.saidNews(t, "the busy hint", "The hint is busy: another hint from your address is still being worked out: try again in 10 s.")

	// Finish, every card face up, stops at the busy hint with the same words.
	var id string
	p.eval(fmt.Sprintf(`fetch("/api/games/load", {method: "POST", headers: {"Content-Type": "text/plain; charset=utf-8"},
	  body: %q}).then((r) => r.json()).then((r) => r.id)`, nearWon), &id)
	p.eval(fmt.Sprintf(`sessionStorage.setItem("cardtable.spider.game", %q), 1`, id), nil)
	p.load()
	p.waitJS(`!document.querySelector("#btn-finish").hidden`, "Finish offered, every card face up")
	p.clickSel("#btn-finish")
	p.waitJS(`/^Finish stopped/.test(document.querySelector("#toast .msg").textContent)`, "Finish stopped")
	p.saidNews(t, "Finish at the busy hint", "Finish stopped, as the hint is busy: another hint from your address is still being worked out: try again in 10 s.")

	proxyBusy.Store(true)
	p.clickSel("#btn-hint")
	p.waitJS(`/Try again in 7 s/.test(document.querySelector("#toast .msg").textContent)`, "the proxy's busy said")
	p.saidNews(t, "a proxy's 503", "The hint is busy: the server is too busy to work it out. Try again in 7 s.")

	// The server's database out of reach: its 503 carries Retry-After
	// (web.WriteError's) and is news in the server's words.
	proxyBusy.Store(false)
	dbDown.Store(true)
	p.clickSel("#btn-hint")
	p.waitJS(`/cannot reach its database/.test(document.querySelector("#toast .msg").textContent) || !!document.body.dataset.lastError`,
		"the database's 503 said")
	p.saidNews(t, "the database's 503", "The hint is busy: the server cannot reach its database just now; try again in a moment.")
}

// outOfReachErr is an error of the database out of reach, as the
// PostgreSQL store's are (a method Unavailable() bool, web's contract):
// PostgreSQL not answering a connection being opened, which holds the
// wait's context.DeadlineExceeded as the store's does.
type outOfReachErr struct{}

func (outOfReachErr) Error() string {
	return "PostgreSQL did not answer within 5s: context deadline exceeded"
}
func (outOfReachErr) Unavailable() bool { return true }
func (outOfReachErr) Unwrap() error     { return context.DeadlineExceeded }

// saidNews fails the test unless the page's message box holds want as
// news (an information box), with no error noted.
func (p *browserPage) saidNews(t *testing.T, what, want string) {
	t.Helper()
	var said struct {
		Kind, Msg, LastError string
	}
	p.eval(`({kind: document.querySelector("#toast").className, msg: document.querySelector("#toast .msg").textContent,
		lastError: document.body.dataset.lastError || ""})`, &said)
	if said.Kind != "info" || said.LastError != "" || said.Msg != want {
		t.Errorf("%s shown as %q %q, last error %q: want news, %q", what, said.Kind, said.Msg, said.LastError, want)
	}
}
