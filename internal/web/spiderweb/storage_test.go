package spiderweb

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// upload starts a game from a save file.
func (h *harness) upload(text string) gameResponse {
	h.tb.Helper()
	code, body, _ := h.do("POST", "/api/games/load", text)
	if code != http.StatusCreated {
		// Not the file: it may be megabytes.
		h.tb.Fatalf("uploading a %d-byte save: status %d: %.300s", len(text), code, body)
	}
	var r gameResponse
	if err := json.Unmarshal(body, &r); err != nil {
		h.tb.Fatal(err)
	}
	return r
}

// TestUploadHoldsLongestGame: the upload limit holds the save of a game at
// the step limit with the longest move lines, with room for the longest
// layout header (TestLongStepLimit plays it end to end).
func TestUploadHoldsLongestGame(t *testing.T) {
	if n := len(webtest.ShuttleSave(spider.MaxSteps)) + 4096; n > maxSaveBody {
		t.Fatalf("a save at the step limit takes up to %d bytes, the upload limit is %d", n, maxSaveBody)
	}
}

// TestLongStepLimit: one limit holds for play, load, store, upload and
// export. A game at spider.MaxSteps can be played to, exported,
// re-uploaded and read back after a restart; a move past it is refused
// with a clear message.
func TestLongStepLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	h := newHarness(t, Options{})
	n := spider.MaxSteps - 1
	id := h.upload(webtest.ShuttleSave(n)).ID
	if r := h.cmd(id, webtest.ShuttleMove(n), http.StatusOK); r.View.Moves != spider.MaxSteps {
		t.Fatalf("%d moves", r.View.Moves)
	}
	code, body, _ := h.do("POST", "/api/games/"+id+"/commands", `{"cmd":"`+webtest.ShuttleMove(n+1)+`"}`)
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "100000 moves") {
		t.Fatalf("a move past the limit: %d %s", code, body)
	}
	_, save, _ := h.do("GET", "/api/games/"+id+"/save", "")
	if len(save) > maxSaveBody {
		t.Fatalf("the export of a game at the limit is %d bytes, over the upload limit %d", len(save), maxSaveBody)
	}
	again := h.upload(string(save))
	if again.View.Moves != spider.MaxSteps {
		t.Fatalf("re-uploaded with %d moves", again.View.Moves)
	}
	h.restart()
	if r := r2(h, id); r.View.Moves != spider.MaxSteps {
		t.Fatalf("read back with %d moves", r.View.Moves)
	}
	h.cmd(id, "undo", http.StatusOK)
	h.cmd(id, webtest.ShuttleMove(n), http.StatusOK)
}

func TestPlayers(t *testing.T) {
	a := newHarness(t, Options{Hint: func(context.Context, *spider.Game) (spider.Move, error) {
		return spider.Move{}, ErrNoMove
	}})
	g := a.newGame(`{"deal":"1","suits":1}`)
	a.cmd(g.ID, "deal", http.StatusOK)
	a.call("PUT", "/api/saves/mine", `{"game":"`+g.ID+`"}`, http.StatusOK, nil)
	a.call("PUT", "/api/settings", `{"sound":false}`, http.StatusOK, nil)

	b := a.otherPlayer()
	b.call("GET", "/api/settings", "", http.StatusOK, nil)
	if b.player() == "" || b.player() == a.player() {
		t.Fatalf("players %q and %q", a.player(), b.player())
	}
	t.Run("another player's game is not found", func(t *testing.T) {
		for _, req := range []struct{ method, path, body string }{
			{"GET", "/api/games/" + g.ID, ""},
			{"POST", "/api/games/" + g.ID + "/commands", `{"cmd":"undo"}`},
			{"GET", "/api/games/" + g.ID + "/hint", ""},
			{"GET", "/api/games/" + g.ID + "/locate?card=KS", ""},
			{"GET", "/api/games/" + g.ID + "/column/1", ""},
			{"GET", "/api/games/" + g.ID + "/save", ""},
			{"PUT", "/api/saves/theirs", `{"game":"` + g.ID + `"}`},
			{"POST", "/api/saves/mine/open", ""},
			{"DELETE", "/api/saves/mine", ""},
		} {
			if code, body, _ := b.do(req.method, req.path, req.body); code != http.StatusNotFound {
				t.Errorf("%s %s: %d %s, want 404", req.method, req.path, code, body)
			}
		}
	})
	// Leaving another player's game counts nothing for anyone.
	b.call("POST", "/api/games?previous="+g.ID, `{"suits":1}`, http.StatusCreated, nil)
	if grp := a.statsGroupOf("arachnid", 1); grp.Played != 0 {
		t.Fatalf("another player abandoned this player's game: %+v", grp)
	}
	var saves struct{ Saves []saveSummary }
	b.call("GET", "/api/saves", "", http.StatusOK, &saves)
	if len(saves.Saves) != 0 {
		t.Fatalf("another player's saves listed: %+v", saves)
	}
	if _, js, _ := b.do("GET", "/api/settings", ""); string(js) != "{}" {
		t.Fatalf("another player's settings: %s", js)
	}
	// The first player still has everything, the game unchanged.
	if r := r2(a, g.ID); r.View.Moves != 1 {
		t.Fatalf("the game after another player's tries: %d moves", r.View.Moves)
	}
	a.call("GET", "/api/saves", "", http.StatusOK, &saves)
	if len(saves.Saves) != 1 {
		t.Fatalf("own saves: %+v", saves)
	}
	if _, js, _ := a.do("GET", "/api/settings", ""); string(js) != `{"sound":false}` {
		t.Fatalf("own settings: %s", js)
	}
	a.restart()
	if r := r2(a, g.ID); r.View.Moves != 1 {
		t.Fatalf("after a restart: %d moves", r.View.Moves)
	}
}

func TestPlayerCookie(t *testing.T) {
	h := newHarness(t, Options{})
	tests := []struct {
		name, cookie string
		fresh        bool
	}{
		{"none", "", true},
		{"malformed", "not-a-token", true},
		{"lower case", strings.ToLower("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), true},
		{"valid", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := newRequest("GET", "/api/settings")
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: playerCookie, Value: tc.cookie})
			}
			rec := serve(h.srv, req)
			var got *http.Cookie
			for _, c := range rec.Result().Cookies() {
				if c.Name == playerCookie {
					got = c
				}
			}
			if !tc.fresh {
				if got != nil {
					t.Fatalf("a valid cookie replaced on an API call: %v", got)
				}
				return
			}
			if got == nil {
				t.Fatal("no cookie set")
			}
			if web.PlayerFromCookie(got.Value) == "" || got.Value == tc.cookie || !got.HttpOnly ||
				got.SameSite != http.SameSiteLaxMode || got.Path != "/" || got.MaxAge < 365*24*3600 {
				t.Fatalf("cookie %+v", got)
			}
		})
	}
	// The page renews the cookie it was sent.
	req := newRequest("GET", "/")
	req.AddCookie(&http.Cookie{Name: playerCookie, Value: "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
	rec := serve(h.srv, req)
	if c := rec.Result().Cookies(); len(c) != 1 || c[0].Value != "ABCDEFGHIJKLMNOPQRSTUVWXYZ" || c[0].MaxAge <= 0 {
		t.Fatalf("page load cookies %v", c)
	}
	// The page's other files never carry it (no cache can replay it).
	if c := serve(h.srv, newRequest("GET", "/style.css")).Result().Cookies(); len(c) != 0 {
		t.Fatalf("a static file set cookies %v", c)
	}
}

// TestLegacyAdopted: after an upgrade, what was stored before players
// existed belongs to the first browser that comes, and to no other.
func TestLegacyAdopted(t *testing.T) {
	h := newHarness(t, Options{})
	ctx := context.Background()
	g, err := spider.NewGame(1, spider.Options{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	err = h.db.CreateGame(ctx, store.GameRecord{ID: "OLDGAME", Lineage: "OLDGAME", Save: g.Save(),
		Summary: store.Summary{Variant: "arachnid", Suits: 1, Deal: 1, Score: g.Score().Counted}, Created: h.now(), Updated: h.now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.db.PutSettings(ctx, "", `{"old":true}`); err != nil {
		t.Fatal(err)
	}
	if err := h.db.PutSave(ctx, store.SaveRecord{Name: "old save", Lineage: "OLDGAME", Save: g.Save(), Updated: h.now()}); err != nil {
		t.Fatal(err)
	}
	other := h.otherPlayer()
	// The first browser loads the page, then asks for its settings.
	h.serve(navigation("/"))
	if _, js, _ := h.do("GET", "/api/settings", ""); string(js) != `{"old":true}` {
		t.Fatalf("the first browser's settings: %s", js)
	}
	r2(h, "OLDGAME")
	h.call("POST", "/api/saves/old%20save/open", "", http.StatusCreated, nil)
	if _, js, _ := other.do("GET", "/api/settings", ""); string(js) != "{}" {
		t.Fatalf("the second browser's settings: %s", js)
	}
	other.call("GET", "/api/games/OLDGAME", "", http.StatusNotFound, nil)
}

// TestLegacyNotAdoptedByAScript: what was stored before players goes to
// a browser, not to the first client of any kind. A terminal client
// (arlington new-table) or curl calls the API with no cookie, and curl or
// an uptime monitor loads the page; each took the player's old games,
// saves and settings, and the player's browser then found none. A
// browser's request (its navigation to a page, or a page left open across
// the upgrade fetching, with the headers Chromium sends on HTTPS and
// localhost, and those it sends over plain HTTP to a network address)
// still adopts it.
func TestLegacyNotAdoptedByAScript(t *testing.T) {
	const lan = "mybox.lan:8080" // docs/guide.md's network install
	req := func(method, path, host string, hdr ...string) func() *http.Request {
		return func() *http.Request {
			r := newRequest(method, path)
			if host != "" {
				r.Host = host
			}
			for i := 0; i < len(hdr); i += 2 {
				r.Header.Set(hdr[i], hdr[i+1])
			}
			return r
		}
	}
	// Chromium's headers on a page's fetch over plain HTTP to a network
	// address: no Sec-Fetch-*, no Referer (Referrer-Policy no-referrer);
	// Origin on a POST only.
	chromiumLAN := []string{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
		"Accept", "*/*", "Accept-Language", "en-US,en;q=0.9"}
	scripts := []struct {
		name string
		req  func() *http.Request
	}{
		{"curl's API call", req("GET", "/api/settings", "")},
		{"curl's API call on the network", req("GET", "/api/settings", lan, "User-Agent", "curl/8.5.0", "Accept", "*/*")},
		{"curl's page load", req("GET", "/", "", "User-Agent", "curl/8.5.0", "Accept", "*/*")},
		{"curl -I", req("HEAD", "/", "", "User-Agent", "curl/8.5.0", "Accept", "*/*")},
		{"a HEAD asking for HTML", req("HEAD", "/spider/", "", "Accept", "text/html")},
		{"another site's origin", req("GET", "/api/settings", lan, "Origin", "http://elsewhere.example")},
		{"an opaque origin", req("GET", "/api/settings", lan, "Origin", "null")},
		{"another site's page (an image, a no-cors fetch)", req("GET", "/api/settings", "",
			"Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Site", "cross-site")},
	}
	browsers := []struct {
		name string
		req  func() *http.Request
	}{
		{"navigation", func() *http.Request { return navigation("/") }},
		{"open page's fetch, localhost", req("GET", "/api/settings", "", "Sec-Fetch-Mode", "cors")},
		{"open page's GET fetch, plain HTTP network host", req("GET", "/api/settings", lan, chromiumLAN...)},
		{"open page's POST, plain HTTP network host", req("POST", "/api/games", lan,
			append([]string{"Origin", "http://" + lan, "Content-Type", "text/plain;charset=UTF-8"}, chromiumLAN...)...)},
	}
	for _, script := range scripts {
		t.Run(script.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			if err := h.db.PutSettings(context.Background(), "", `{"old":true}`); err != nil {
				t.Fatal(err)
			}
			if rec := serve(h.srv, script.req()); rec.Code >= 300 {
				t.Fatalf("the script's request: %d %s", rec.Code, rec.Body)
			}
			h.serve(navigation("/"))
			if _, js, _ := h.do("GET", "/api/settings", ""); string(js) != `{"old":true}` {
				t.Fatalf("the browser that came after the script: settings %s", js)
			}
		})
	}
	for _, browser := range browsers {
		t.Run(browser.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			if err := h.db.PutSettings(context.Background(), "", `{"old":true}`); err != nil {
				t.Fatal(err)
			}
			if rec := h.serve(browser.req()); rec.Code >= 300 {
				t.Fatalf("the browser's request: %d %s", rec.Code, rec.Body)
			}
			if _, js, _ := h.do("GET", "/api/settings", ""); string(js) != `{"old":true}` {
				t.Fatalf("the browser: settings %s", js)
			}
		})
	}
}

// navigation is a browser's request for the page at path: GET, asking for
// HTML.
func navigation(path string) *http.Request {
	r := newRequest("GET", path)
	r.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	return r
}

func TestPrune(t *testing.T) {
	h := newHarness(t, Options{})
	unplayed := h.newGame(`{"suits":1}`).ID
	played := h.newGame(`{"deal":"1","suits":1}`).ID
	h.cmd(played, "deal", http.StatusOK)
	h.call("PUT", "/api/saves/kept", `{"game":"`+played+`"}`, http.StatusOK, nil)
	ctx := context.Background()
	if n, err := h.s.Games().Prune(ctx); err != nil || n != 0 {
		t.Fatalf("pruned %d fresh games: %v", n, err)
	}
	h.clk.advance(spidergame.PruneUnplayed)
	if n, err := h.s.Games().Prune(ctx); err != nil || n != 1 {
		t.Fatalf("pruned %d a day on: %v", n, err)
	}
	h.restart()
	h.call("GET", "/api/games/"+unplayed, "", http.StatusNotFound, nil)
	r2(h, played)
	h.clk.advance(spidergame.PruneIdle)
	if n, err := h.s.Games().Prune(ctx); err != nil || n != 1 {
		t.Fatalf("pruned %d after %v idle: %v", n, spidergame.PruneIdle, err)
	}
	h.restart()
	h.call("GET", "/api/games/"+played, "", http.StatusNotFound, nil)
	h.call("POST", "/api/saves/kept/open", "", http.StatusCreated, nil)
}

// TestLongCreationFlood measures the database under a flood of new games
// that are never played: its size after the flood, and after pruning and a
// second flood as large (the pruned games' pages are reused, so the file
// does not grow: what a flood can add is bounded by the creation rate times
// spidergame.PruneUnplayed).
func TestLongCreationFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	const flood = 5000
	h := newHarness(t, Options{})
	size := func() int64 {
		var n int64
		for _, suffix := range []string{"", "-wal"} {
			if fi, err := os.Stat(h.path + suffix); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	empty := size()
	for range flood {
		h.call("POST", "/api/games", "", http.StatusCreated, nil)
	}
	first := size()
	h.clk.advance(spidergame.PruneUnplayed)
	if n, err := h.s.Games().Prune(context.Background()); err != nil || n != flood {
		t.Fatalf("pruned %d of %d: %v", n, flood, err)
	}
	for range flood {
		h.call("POST", "/api/games", "", http.StatusCreated, nil)
	}
	second := size()
	t.Logf("database %d KiB empty, %d KiB after %d new games (%d bytes a game), %d KiB after pruning them and %d more",
		empty>>10, first>>10, flood, (first-empty)/flood, second>>10, flood)
	if second > first+first/5 {
		t.Fatalf("the database grew from %d to %d bytes across pruning", first, second)
	}
}

func newRequest(method, path string) *http.Request {
	return httptest.NewRequest(method, path, nil)
}

func serve(s http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// cached reports whether game id is in the server's memory.
func (h *harness) cached(id string) bool { return h.s.Games().Cached(id) }
