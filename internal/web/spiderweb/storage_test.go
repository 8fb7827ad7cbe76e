package spiderweb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/spider"
)

// shuttle is a one-suit layout whose only play is a whole suit moving
// between pile 10 and the empty piles: any number of moves, with the
// longest move lines a save can have.
const shuttle = `cardtable spider 1
variant: arachnid
suits: 1
open: no
relaxed: no
autoremove: no
cheat: none
pile1:
pile2:
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS
completed: S S S S S S S
cheated: no
stopped: no
`

// shuttleMove is move i (0-based) of the shuttle.
func shuttleMove(i int) string {
	if i%2 == 0 {
		return "move 10 9 13"
	}
	return "move 9 10 13"
}

// shuttleSave is the shuttle with n moves played.
func shuttleSave(n int) string {
	var b strings.Builder
	b.WriteString(shuttle)
	fmt.Fprintf(&b, "position: %d\nmoves: %d\n", n, n)
	for i := range n {
		b.WriteString(shuttleMove(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// deals counts the "deal" move lines of a save.
func deals(save string) int {
	n := 0
	for _, l := range strings.Split(save, "\n") {
		if l == "deal" {
			n++
		}
	}
	return n
}

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

// cached reports whether game id is in the server's memory.
func (h *harness) cached(id string) bool {
	h.s.games.mu.Lock()
	defer h.s.games.mu.Unlock()
	_, ok := h.s.games.cache[id]
	return ok
}

// TestStaleReadNotCached is the cache-eviction race of issue 23: a game
// read from the database just before another request stores a move on it
// and it is evicted must not be cached (and then built on) in its older
// state. The test puts the other request in that window with a hook, no
// timing involved.
func TestStaleReadNotCached(t *testing.T) {
	for _, first := range []string{"command", "read"} {
		t.Run(first, func(t *testing.T) {
			h := newHarness(t, Options{MaxGames: 2})
			id := h.newGame(`{"deal":"1","suits":1}`).ID
			evict := func() {
				h.newGame(`{"suits":1}`)
				h.newGame(`{"suits":1}`)
				if h.cached(id) {
					t.Fatal("the game was not evicted")
				}
			}
			evict()
			raced := false
			h.s.games.afterRead = func(got string) {
				if got != id || raced {
					return
				}
				raced = true
				h.cmd(id, "deal", http.StatusOK) // another tab's move, acknowledged
				evict()
			}
			switch first {
			case "command":
				h.cmd(id, "deal", http.StatusOK)
			case "read":
				// The read must show the other tab's move, and so must
				// the game from then on.
				if r := r2(h, id); r.View.Stock != 40 {
					t.Fatalf("read the game with %d cards in the stock, want 40", r.View.Stock)
				}
				h.cmd(id, "deal", http.StatusOK)
			}
			if !raced {
				t.Fatal("the race was not staged")
			}
			// Both deals are stored: none lost, none applied to a stale
			// game.
			if n := deals(h.stored(id)); n != 2 {
				t.Fatalf("%d deals stored, want 2:\n%s", n, h.stored(id))
			}
			h.restart()
			if r := r2(h, id); r.View.Stock != 30 {
				t.Fatalf("after a restart the stock holds %d cards, want 30", r.View.Stock)
			}
		})
	}
}

// TestSnapshots: with snapshots every few commands, a game played with
// moves, undo, redo and restart reads back after a restart exactly as it
// was, and its log never holds more than the snapshot rule allows.
func TestSnapshots(t *testing.T) {
	h := newHarness(t, Options{})
	const every = 4
	h.s.games.snapMin = every
	id := h.newGame(`{"deal":"3","suits":1,"cheat":"newcards"}`).ID
	cmds := []string{"auto 1", "auto 2", "deal", "undo", "redo", "auto 3", "auto 4", "undo", "undo",
		"redo", "deal", "auto 5", "restart", "auto 6", "deal", "undo", "auto 7", "deal", "auto 8", "auto 9"}
	ctx := context.Background()
	for _, c := range cmds {
		before := r2(h, id)
		code, _, _ := h.do("POST", "/api/games/"+id+"/commands", `{"cmd":"`+c+`"}`)
		if code != http.StatusOK && code != http.StatusUnprocessableEntity {
			t.Fatalf("%s: %d", c, code)
		}
		rec, err := h.db.Game(ctx, h.player(), id)
		if err != nil {
			t.Fatal(err)
		}
		g, err := spider.Load(rec.Save)
		if err != nil {
			t.Fatal(err)
		}
		if limit := max(every, g.Steps()); len(rec.Log) >= limit {
			t.Fatalf("after %s: %d commands logged since a snapshot of %d steps", c, len(rec.Log), g.Steps())
		}
		after := r2(h, id)
		if code != http.StatusOK && viewJSON(t, after.View) != viewJSON(t, before.View) {
			t.Fatalf("a refused %s changed the game", c)
		}
		mem := viewJSON(t, after.View)
		h.restart()
		if got := viewJSON(t, r2(h, id).View); got != mem {
			t.Fatalf("after %s the game read back differs:\n%s\nwas\n%s", c, got, mem)
		}
		h.s.games.snapMin = every
	}
}

// TestStaleWriteRetried: a command applied to a game in memory whose
// stored version has moved on is not written over it: the write is
// refused and the command tried again on the stored game.
func TestStaleWriteRetried(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.newGame(`{"deal":"1","suits":1}`).ID
	ctx := context.Background()
	// Another writer (the store directly) deals a row; the server's
	// memory does not know.
	rec, err := h.db.Game(ctx, h.player(), id)
	if err != nil {
		t.Fatal(err)
	}
	err = h.db.UpdateGame(ctx, store.Change{ID: id, Player: h.player(), Version: rec.Version, Cmd: "deal",
		Summary: store.Summary{Moves: 1}, Updated: h.now()})
	if err != nil {
		t.Fatal(err)
	}
	if !h.cached(id) {
		t.Fatal("the game should be in memory, at its older version")
	}
	r := h.cmd(id, "deal", http.StatusOK)
	if r.View.Stock != 30 || r.View.Moves != 2 {
		t.Fatalf("stock %d, moves %d: want 30 and 2 (both deals)", r.View.Stock, r.View.Moves)
	}
	if n := deals(h.stored(id)); n != 2 {
		t.Fatalf("%d deals stored, want 2", n)
	}
}

// TestUploadHoldsLongestGame: the upload limit holds the save of a game at
// the step limit with the longest move lines, with room for the longest
// layout header (TestLongStepLimit plays it end to end).
func TestUploadHoldsLongestGame(t *testing.T) {
	if n := len(shuttleSave(spider.MaxSteps)) + 4096; n > maxSaveBody {
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
	id := h.upload(shuttleSave(n)).ID
	if r := h.cmd(id, shuttleMove(n), http.StatusOK); r.View.Moves != spider.MaxSteps {
		t.Fatalf("%d moves", r.View.Moves)
	}
	code, body, _ := h.do("POST", "/api/games/"+id+"/commands", `{"cmd":"`+shuttleMove(n+1)+`"}`)
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
	h.cmd(id, shuttleMove(n), http.StatusOK)
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
		Summary: summary(g), Created: h.now(), Updated: h.now()})
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
	h.do("GET", "/", "")
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

func TestPrune(t *testing.T) {
	h := newHarness(t, Options{})
	unplayed := h.newGame(`{"suits":1}`).ID
	played := h.newGame(`{"deal":"1","suits":1}`).ID
	h.cmd(played, "deal", http.StatusOK)
	h.call("PUT", "/api/saves/kept", `{"game":"`+played+`"}`, http.StatusOK, nil)
	ctx := context.Background()
	if n, err := h.s.Prune(ctx); err != nil || n != 0 {
		t.Fatalf("pruned %d fresh games: %v", n, err)
	}
	h.clk.advance(pruneUnplayed)
	if n, err := h.s.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("pruned %d a day on: %v", n, err)
	}
	h.restart()
	h.call("GET", "/api/games/"+unplayed, "", http.StatusNotFound, nil)
	r2(h, played)
	h.clk.advance(pruneIdle)
	if n, err := h.s.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("pruned %d after %v idle: %v", n, pruneIdle, err)
	}
	h.restart()
	h.call("GET", "/api/games/"+played, "", http.StatusNotFound, nil)
	h.call("POST", "/api/saves/kept/open", "", http.StatusCreated, nil)
}

// TestCacheBoundedByMemory: games in memory stay within the byte budget
// however long they are, and the games pushed out read back intact.
func TestCacheBoundedByMemory(t *testing.T) {
	const moves = 5000
	budget := 3 * (entryOverhead + moves*80)
	h := newHarness(t, Options{CacheBytes: budget})
	var ids []string
	for range 8 {
		ids = append(ids, h.upload(shuttleSave(moves)).ID)
		gs := h.s.games
		gs.mu.Lock()
		bytes, n := gs.bytes, gs.lru.Len()
		gs.mu.Unlock()
		if bytes > budget || n > 3 {
			t.Fatalf("%d games, %d bytes in memory: budget %d", n, bytes, budget)
		}
	}
	for _, id := range ids {
		if r := r2(h, id); r.View.Moves != moves {
			t.Fatalf("game read back with %d moves", r.View.Moves)
		}
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

// TestLongCacheMemory fills the cache with games at the step limit and
// measures the heap: it stays near the budget however many long games are
// played (the estimate counts the collector's headroom too, so the live
// heap is about half of it: TestCacheEstimate).
func TestLongCacheMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	const budget = 32 << 20
	h := newHarness(t, Options{CacheBytes: budget})
	save := shuttleSave(spider.MaxSteps)
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := heap()
	const games = 12
	for range games {
		h.upload(save)
	}
	grown := heap() - base
	gs := h.s.games
	gs.mu.Lock()
	est, n := gs.bytes, gs.lru.Len()
	gs.mu.Unlock()
	t.Logf("%d games of %d steps played, %d in memory: estimate %.1f MiB, heap grown by %.1f MiB, budget %d MiB",
		games, spider.MaxSteps, n, float64(est)/(1<<20), float64(grown)/(1<<20), budget>>20)
	if est > budget || n == 0 || n == games {
		t.Fatalf("%d games, %d bytes estimated in memory: budget %d", n, est, budget)
	}
	if grown > budget*3/2 {
		t.Fatalf("heap grew by %d bytes for a cache budget of %d", grown, budget)
	}
}

// TestLongCreationFlood measures the database under a flood of new games
// that are never played: its size after the flood, and after pruning and a
// second flood as large (the pruned games' pages are reused, so the file
// does not grow: what a flood can add is bounded by the creation rate times
// pruneUnplayed).
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
	h.clk.advance(pruneUnplayed)
	if n, err := h.s.Prune(context.Background()); err != nil || n != flood {
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
