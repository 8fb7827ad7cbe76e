package spiderweb

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/spider"
)

// TestBrowserHintBusy: a hint the server refuses as busy (503 with
// Retry-After: another hint from the same address still being worked
// out) is said as news with when to try again, an information box, not
// an error. Before, the page showed it as a fault.
func TestBrowserHintBusy(t *testing.T) {
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
	srv := httptest.NewServer(web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy}))
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
	var said struct {
		Kind, Msg, LastError string
	}
	p.eval(`({kind: document.querySelector("#toast").className, msg: document.querySelector("#toast .msg").textContent,
		lastError: document.body.dataset.lastError || ""})`, &said)
	want := "The hint is busy: another hint from this address is still being worked out. Try again in 10 s."
	if said.Kind != "info" || said.LastError != "" || said.Msg != want {
		t.Errorf("the busy hint shown as %q %q, last error %q: want news, %q", said.Kind, said.Msg, said.LastError, want)
	}
}
