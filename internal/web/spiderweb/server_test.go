package spiderweb

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"cardtable/spider"
)

func TestNewGame(t *testing.T) {
	tests := []struct {
		name string
		body string
		deal uint64 // 0: random
		opts spider.Options
	}{
		{"empty body is a random 4-suit arachnid deal", ``, 0, spider.Options{Suits: 4}},
		{"deal number", `{"deal":"617"}`, 617, spider.Options{Suits: 4}},
		{"deal as a number", `{"deal":617,"suits":1}`, 617, spider.Options{Suits: 1}},
		{"hash deal", `{"deal":"#618","variant":"spider","suits":2}`, 618, spider.Options{Variant: spider.Spider, Suits: 2}},
		{"every option", `{"deal":"99","variant":"spider","suits":4,"open":true,"relaxed":true,"autoRemove":true,"cheat":"full"}`,
			99, spider.Options{Variant: spider.Spider, Suits: 4, Open: true, Relaxed: true, AutoRemove: true, Cheat: spider.CheatFull}},
		{"random 1-suit", `{"deal":"","suits":1,"cheat":"newcards"}`, 0, spider.Options{Suits: 1, Cheat: spider.CheatNewCards}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			r := h.newGame(tc.body)
			deal := tc.deal
			if deal == 0 {
				deal = r.View.Deal
				if deal == 0 {
					t.Fatal("random deal numbered 0")
				}
			}
			g, err := spider.NewGame(deal, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := viewJSON(t, r.View), viewJSON(t, g.View(false)); got != want {
				t.Fatalf("view\n got %s\nwant %s", got, want)
			}
			var again gameResponse
			h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &again)
			if again.ID != r.ID || viewJSON(t, again.View) != viewJSON(t, r.View) {
				t.Fatalf("GET differs from POST: %+v", again)
			}
		})
	}
}

func TestWinnableWithoutSolver(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"winnable":true}`)
	if r.Message == "" || r.View.Deal == 0 {
		t.Fatalf("winnable without a solver: message %q, deal %d", r.Message, r.View.Deal)
	}
}

func TestWinnableWithSolver(t *testing.T) {
	tests := []struct {
		name    string
		deal    uint64
		ok      bool
		message bool
	}{
		{"found", 4242, true, false},
		{"none found", 0, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked spider.Options
			h := newHarness(t, Options{WinnableDeal: func(_ context.Context, o spider.Options) (uint64, bool, error) {
				asked = o
				return tc.deal, tc.ok, nil
			}})
			r := h.newGame(`{"winnable":true,"variant":"spider","suits":2}`)
			if (r.Message != "") != tc.message || (tc.ok && r.View.Deal != tc.deal) || r.View.Deal == 0 {
				t.Fatalf("message %q, deal %d", r.Message, r.View.Deal)
			}
			if asked.Variant != spider.Spider || asked.Suits != 2 {
				t.Fatalf("asked for %+v", asked)
			}
			// With a deal number the solver is not asked.
			asked = spider.Options{}
			r = h.newGame(`{"winnable":true,"deal":"5"}`)
			if r.View.Deal != 5 || r.Message == "" || asked.Suits != 0 {
				t.Fatalf("numbered deal: %+v %q", r.View.Deal, r.Message)
			}
		})
	}
}

// countGames is the number of stored games.
func (h *harness) countGames() int {
	h.tb.Helper()
	n, err := h.db.CountGames(context.Background())
	if err != nil {
		h.tb.Fatal(err)
	}
	return n
}

func TestNewGameBadRequests(t *testing.T) {
	tests := []struct {
		name, body string
		code       int
	}{
		{"junk", `{not json`, 400},
		{"not an object", `[1,2]`, 400},
		{"unknown field", `{"suit":2}`, 400},
		{"two values", `{} {}`, 400},
		{"trailing junk", `{"suits":2}x`, 400},
		{"suits 3", `{"suits":3}`, 400},
		{"variant", `{"variant":"klondike"}`, 400},
		{"cheat", `{"cheat":"some"}`, 400},
		{"deal 0", `{"deal":"0"}`, 400},
		{"deal words", `{"deal":"six"}`, 400},
		{"deal too big", `{"deal":"18446744073709551616"}`, 400},
		{"deal negative", `{"deal":-5}`, 400},
		{"wrong type", `{"open":"yes"}`, 400},
		{"oversized", `{"deal":"1","x":"` + strings.Repeat("a", maxJSONBody) + `"}`, 413},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			var e errorBody
			h.call("POST", "/api/games", tc.body, tc.code, &e)
			if e.Error == "" {
				t.Fatal("no error message")
			}
			if n := h.countGames(); n != 0 {
				t.Fatalf("%d games stored after a refused request", n)
			}
		})
	}
}

// mirror plays the same commands on a local game, the reference the
// server's answers must match.
func mirrorApply(tb testing.TB, g *spider.Game, cmd string) (string, error) {
	tb.Helper()
	c, err := spider.ParseCommand(cmd)
	if err != nil {
		return "", err
	}
	m, moved, err := g.Apply(c)
	if err != nil || !moved {
		return "", err
	}
	return m.String(), nil
}

func TestCommandsMatchTheEngine(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","variant":"arachnid","suits":2,"cheat":"newcards"}`)
	g, _ := spider.NewGame(617, spider.Options{Suits: 2, Cheat: spider.CheatNewCards})
	rng := rand.New(rand.NewPCG(1, 2))
	var buf [256]spider.Move
	step := func(cmd string) {
		t.Helper()
		wantMove, err := mirrorApply(t, g, cmd)
		if err != nil {
			h.cmd(r.ID, cmd, http.StatusUnprocessableEntity)
			return
		}
		got := h.cmd(r.ID, cmd, http.StatusOK)
		if got.Move != wantMove {
			t.Fatalf("%s: move %q, want %q", cmd, got.Move, wantMove)
		}
		if a, b := viewJSON(t, got.View), viewJSON(t, g.View(false)); a != b {
			t.Fatalf("%s: view\n got %s\nwant %s", cmd, a, b)
		}
		if h.stored(r.ID) != g.Save() {
			t.Fatalf("%s: stored game differs from the engine's", cmd)
		}
	}
	for i := range 150 {
		var cmd string
		switch x := rng.IntN(20); {
		case x < 10:
			legal := g.Pos().Legal(buf[:0])
			if len(legal) == 0 {
				cmd = "restart"
				break
			}
			cmd = legal[rng.IntN(len(legal))].String()
		case x < 12:
			cmd = fmt.Sprintf("move %d %d", 1+rng.IntN(10), 1+rng.IntN(10))
		case x < 15:
			cmd = fmt.Sprintf("auto %d", 1+rng.IntN(10))
		case x < 16:
			cmd = fmt.Sprintf("auto %d %d", 1+rng.IntN(10), 1+rng.IntN(3))
		case x < 18:
			cmd = "undo"
		case x < 19:
			cmd = "redo"
		default:
			cmd = "deal"
		}
		if i == 120 {
			cmd = "restart"
		}
		step(cmd)
	}
	// The whole state, redo steps and cheat flag included, survives a
	// restart of the server.
	want := g.Save()
	h.restart()
	var after gameResponse
	h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &after)
	if a, b := viewJSON(t, after.View), viewJSON(t, g.View(false)); a != b {
		t.Fatalf("after restart\n got %s\nwant %s", a, b)
	}
	step("redo")
	step("undo")
	if h.stored(r.ID) != g.Save() || want == "" {
		t.Fatal("state differs after restart")
	}
}

func TestCommandErrorsChangeNothing(t *testing.T) {
	tests := []struct {
		name, body string
		code       int
	}{
		{"junk JSON", `{"cmd":`, 400},
		{"not JSON", `move 1 2 1`, 400},
		{"unknown field", `{"command":"deal"}`, 400},
		{"cmd not a string", `{"cmd":5}`, 400},
		{"empty", `{"cmd":""}`, 400},
		{"no body", ``, 400},
		{"unknown verb", `{"cmd":"fly 1 2"}`, 400},
		{"pile 11", `{"cmd":"move 11 2 1"}`, 400},
		{"pile 0", `{"cmd":"move 0 2"}`, 400},
		{"count 14", `{"cmd":"move 1 2 14"}`, 400},
		{"count word", `{"cmd":"move 1 2 x"}`, 400},
		{"deal with args", `{"cmd":"deal 3"}`, 400},
		{"undo with a word", `{"cmd":"undo x"}`, 400},
		{"undo with two counts", `{"cmd":"undo 1 2"}`, 400},
		{"auto without pile", `{"cmd":"auto"}`, 400},
		{"auto count 0", `{"cmd":"auto 1 0"}`, 400},
		{"long", `{"cmd":"move ` + strings.Repeat("1", 100) + `"}`, 400},
		{"oversized", `{"cmd":"` + strings.Repeat(" ", maxJSONBody) + `deal"}`, 413},
		{"illegal count", `{"cmd":"move 1 2 5"}`, 422},
		{"illegal target", `{"cmd":"move 1 1 1"}`, 422},
		{"illegal remove", `{"cmd":"remove 3"}`, 422},
		{"nothing to undo", `{"cmd":"undo"}`, 422},
		{"nothing to redo", `{"cmd":"redo"}`, 422},
	}
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617"}`)
	before := h.stored(r.ID)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := h.as(t)
			var e errorBody
			h.call("POST", "/api/games/"+r.ID+"/commands", tc.body, tc.code, &e)
			if e.Error == "" {
				t.Fatal("no error message")
			}
			if h.stored(r.ID) != before {
				t.Fatal("a refused command changed the stored game")
			}
			var now gameResponse
			h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &now)
			if viewJSON(t, now.View) != viewJSON(t, r.View) {
				t.Fatal("a refused command changed the game")
			}
		})
	}
	t.Run("rule message", func(t *testing.T) {
		h := h.as(t)
		var e errorBody
		h.call("POST", "/api/games/"+r.ID+"/commands", `{"cmd":"move 1 2 5"}`, 422, &e)
		if !strings.Contains(e.Error, "illegal") && !strings.Contains(e.Error, "pile") {
			t.Fatalf("unhelpful message %q", e.Error)
		}
	})
	t.Run("unknown game", func(t *testing.T) {
		h := h.as(t)
		for _, p := range []string{"/api/games/NOPE", "/api/games/NOPE/hint", "/api/games/NOPE/save",
			"/api/games/NOPE/locate?card=KS", "/api/games/NOPE/column/1"} {
			h.call("GET", p, "", http.StatusNotFound, &errorBody{})
		}
		h.call("POST", "/api/games/NOPE/commands", `{"cmd":"deal"}`, http.StatusNotFound, &errorBody{})
	})
}

func TestRoutes(t *testing.T) {
	h := newHarness(t, Options{})
	code, body, hdr := h.do("GET", "/", "")
	if code != 200 || !strings.Contains(hdr.Get("Content-Type"), "text/html") || len(body) == 0 {
		t.Fatalf("GET /: %d %q", code, hdr.Get("Content-Type"))
	}
	tests := []struct {
		method, path string
		code         int
	}{
		{"GET", "/api/nothing", 404},
		{"GET", "/api", 404},
		{"DELETE", "/api/games", 405},
		{"GET", "/api/games", 405},
		{"PUT", "/api/stats", 405},
		{"POST", "/", 405},
		{"GET", "/no-such-file.js", 404},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			code, b, hdr := h.do(tc.method, tc.path, "")
			if code != tc.code {
				t.Fatalf("status %d, want %d", code, tc.code)
			}
			if strings.HasPrefix(tc.path, "/api") || tc.code == 405 {
				var e errorBody
				if json.Unmarshal(b, &e) != nil || e.Error == "" || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
					t.Fatalf("not a JSON error: %q", b)
				}
			}
		})
	}
	t.Run("cross-site write refused", func(t *testing.T) {
		req, _ := http.NewRequest("POST", "/api/games", strings.NewReader(`{}`))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		rec := &recorder{h: http.Header{}}
		h.srv.ServeHTTP(rec, req)
		if rec.code != http.StatusForbidden || h.countGames() != 0 {
			t.Fatalf("cross-site POST: %d, %d games", rec.code, h.countGames())
		}
	})
}

type recorder struct {
	h    http.Header
	code int
}

func (r *recorder) Header() http.Header { return r.h }
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return len(b), nil
}
func (r *recorder) WriteHeader(c int) { r.code = c }

func TestLocateAndColumn(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"5","suits":1}`)
	g, _ := spider.NewGame(5, spider.Options{Suits: 1})
	bottom := g.Pos().Bottom(0)
	var loc locateResponse
	h.call("GET", "/api/games/"+r.ID+"/locate?card="+bottom.String(), "", 200, &loc)
	want := g.Locate(bottom)
	if loc.Card != bottom.String() || len(loc.Locations) != len(want) || loc.Completed != 0 {
		t.Fatalf("locate %+v, engine %+v", loc, want)
	}
	for i, l := range want {
		if loc.Locations[i] != (location{Pile: l.Pile + 1, Index: l.Index}) {
			t.Fatalf("location %d: %+v, want %+v", i, loc.Locations[i], l)
		}
	}
	h.call("GET", "/api/games/"+r.ID+"/locate?card=KH", "", 200, &loc)
	if len(loc.Locations) != 0 {
		t.Fatalf("KH in a spades-only game: %+v", loc)
	}
	// Qſ: a long s is no S (card letters are ASCII only).
	for _, bad := range []string{"", "ZZ", "JK", "K", "Qſ"} {
		h.call("GET", "/api/games/"+r.ID+"/locate?card="+url.QueryEscape(bad), "", 400, &errorBody{})
	}
	var col columnResponse
	h.call("GET", "/api/games/"+r.ID+"/column/3", "", 200, &col)
	if col.Pile != 3 || len(col.Cards) != 1 || col.Cards[0] != g.Pos().Bottom(2).String() {
		t.Fatalf("column %+v", col)
	}
	for _, bad := range []string{"0", "11", "x"} {
		h.call("GET", "/api/games/"+r.ID+"/column/"+bad, "", 400, &errorBody{})
	}

	// Completed suits are counted for the located card's suit.
	h.call("POST", "/api/games/load", nearWon, 201, &r)
	h.call("GET", "/api/games/"+r.ID+"/locate?card=AS", "", 200, &loc)
	if loc.Completed != 7 || len(loc.Locations) != 1 || loc.Locations[0] != (location{Pile: 2, Index: 0}) {
		t.Fatalf("locate in near-won game: %+v", loc)
	}
}

func TestSaveDownloadAndLoad(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","variant":"spider"}`)
	g, _ := spider.NewGame(617, spider.Options{Variant: spider.Spider})
	var buf [256]spider.Move
	first := g.Pos().Legal(buf[:0])[0].String()
	h.cmd(r.ID, first, http.StatusOK)
	code, body, hdr := h.do("GET", "/api/games/"+r.ID+"/save", "")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/plain") ||
		!strings.Contains(hdr.Get("Content-Disposition"), `attachment; filename="spider-617.txt"`) {
		t.Fatalf("save: %d %v", code, hdr)
	}
	if string(body) != h.stored(r.ID) {
		t.Fatal("download differs from the stored game")
	}
	var l gameResponse
	h.call("POST", "/api/games/load", string(body), 201, &l)
	if l.ID == r.ID || l.View.Deal != 617 || l.View.Moves != 1 {
		t.Fatalf("loaded %+v", l)
	}
	// Spider stops scoring at a load (spider-help.txt); the position is the
	// same.
	if !l.View.Breakdown.Stopped || fmt.Sprint(l.View.Piles) != fmt.Sprint(r2(h, r.ID).View.Piles) {
		t.Fatalf("loaded game: %+v", l.View.Breakdown)
	}

	tests := []struct{ name, body, want string }{
		{"empty", "", "empty"},
		{"not a save", "hello\n", "line 1"},
		{"bad move", strings.Replace(string(body), first, "move 1 2 13", 1), "line"},
		{"truncated", strings.Split(string(body), "moves:")[0], "moves"},
		{"not UTF-8", "\xff\xfe", "UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := h.as(t)
			n := h.countGames()
			var e errorBody
			h.call("POST", "/api/games/load", tc.body, 400, &e)
			if !strings.Contains(e.Error, tc.want) || h.countGames() != n {
				t.Fatalf("error %q (want %q), games %d -> %d", e.Error, tc.want, n, h.countGames())
			}
		})
	}
	t.Run("oversized", func(t *testing.T) {
		h := h.as(t)
		h.call("POST", "/api/games/load", string(body)+strings.Repeat("#\n", maxSaveBody), 413, &errorBody{})
	})
}

func r2(h *harness, id string) gameResponse {
	var r gameResponse
	h.call("GET", "/api/games/"+id, "", 200, &r)
	return r
}

// TestConcurrentTabs plays several games from several "tabs" at once (run
// with -race) and checks that memory and database agree at the end.
func TestConcurrentTabs(t *testing.T) {
	h := newHarness(t, Options{MaxGames: 3}) // eviction under way too
	const games, tabs = 6, 4
	ids := make([]string, games)
	for i := range ids {
		ids[i] = h.newGame(fmt.Sprintf(`{"deal":"%d","suits":1}`, 100+i)).ID
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for tab := range games * tabs {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(tab), 9))
			id := ids[tab%games]
			for range 25 {
				cmds := []string{"undo", "redo", "deal", fmt.Sprintf("auto %d", 1+rng.IntN(10))}
				body, _ := json.Marshal(commandRequest{Cmd: cmds[rng.IntN(len(cmds))]})
				code, _, _ := h.do("POST", "/api/games/"+id+"/commands", string(body))
				if rng.IntN(4) == 0 {
					h.do("GET", "/api/games/"+id, "")
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if codes[200] == 0 || len(codes) > 2 || (len(codes) == 2 && codes[422] == 0) {
		t.Fatalf("statuses %v: want only 200 and 422", codes)
	}
	mem := map[string]string{}
	for _, id := range ids {
		mem[id] = viewJSON(t, r2(h, id).View)
		g, err := spider.Load(h.stored(id))
		if err != nil {
			t.Fatal(err)
		}
		if viewJSON(t, g.View(false)) != mem[id] {
			t.Fatalf("game %s: memory and database disagree", id)
		}
	}
	h.restart()
	for _, id := range ids {
		if viewJSON(t, r2(h, id).View) != mem[id] {
			t.Fatalf("game %s changed across a restart", id)
		}
	}
}

func TestHint(t *testing.T) {
	t.Run("no solver", func(t *testing.T) {
		h := newHarness(t, Options{})
		r := h.newGame(`{"deal":"3"}`)
		h.call("GET", "/api/games/"+r.ID+"/hint", "", http.StatusNotImplemented, &errorBody{})
	})
	t.Run("with a hinter", func(t *testing.T) {
		h := newHarness(t, Options{Hint: firstMoveOntoACard})
		var r gameResponse
		h.call("POST", "/api/games/load", nearWon, 201, &r)
		var hr hintResponse
		h.call("GET", "/api/games/"+r.ID+"/hint", "", 200, &hr)
		if hr.Move != "move 2 1 1" || hr.Text != "Move the A♠ from pile 2 onto the 2♠ on pile 1." {
			t.Fatalf("hint %+v", hr)
		}
		h.call("POST", "/api/games/load", nearStuck, 201, &r)
		h.cmd(r.ID, "move 1 2 1", 200)
		h.call("GET", "/api/games/"+r.ID+"/hint", "", 200, &hr)
		if hr.Move != "" || !strings.Contains(hr.Text, "No moves") {
			t.Fatalf("stuck hint %+v", hr)
		}
	})
	t.Run("hinter finds nothing", func(t *testing.T) {
		h := newHarness(t, Options{Hint: func(context.Context, *spider.Game) (spider.Move, error) {
			return spider.Move{}, fmt.Errorf("solver: %w", ErrNoMove)
		}})
		r := h.newGame(`{"deal":"3"}`)
		var hr hintResponse
		h.call("GET", "/api/games/"+r.ID+"/hint", "", 200, &hr)
		if hr.Move != "" || hr.Text != "No moves left." {
			t.Fatalf("hint %+v", hr)
		}
	})
	t.Run("a wrong hint is a server fault", func(t *testing.T) {
		h := newHarness(t, Options{Hint: func(context.Context, *spider.Game) (spider.Move, error) {
			return spider.Cards(0, 1, 13), nil
		}})
		r := h.newGame(`{"deal":"3"}`)
		h.call("GET", "/api/games/"+r.ID+"/hint", "", 500, &errorBody{})
	})
}

// firstMoveOntoACard is a stand-in hinter: the first legal move onto a
// card, else the first legal move.
func firstMoveOntoACard(_ context.Context, g *spider.Game) (spider.Move, error) {
	var buf [256]spider.Move
	l := g.Pos().Legal(buf[:0])
	if len(l) == 0 {
		return spider.Move{}, fmt.Errorf("%w: no moves", spider.ErrIllegal)
	}
	for _, m := range l {
		if g.Pos().Len(int(m.To)) > 0 {
			return m, nil
		}
	}
	return l[0], nil
}

// TestStaleTab: a command based on a version of the game other than the
// stored one (a tab that has not seen another tab's move) is refused with
// 409 and the game as it stands, and changes nothing; a command without a
// version (older clients, the load generator) is not checked.
func TestStaleTab(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.newGame(`{"deal":"617","suits":1}`)
	if g.Version != 1 {
		t.Fatalf("a new game is at version %d, want 1", g.Version)
	}
	send := func(cmd string, version int64) (int, behindResponse) {
		t.Helper()
		body, _ := json.Marshal(commandRequest{Cmd: cmd, Version: version})
		code, b, _ := h.do("POST", "/api/games/"+g.ID+"/commands", string(body))
		var r behindResponse
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v in %s", cmd, err, b)
		}
		return code, r
	}
	// Tab A deals, based on what it shows.
	code, a := send("deal", 1)
	if code != http.StatusOK || a.Version != 2 || a.View.Moves != 1 {
		t.Fatalf("deal at version 1: %d, version %d, %d moves", code, a.Version, a.View.Moves)
	}
	// Tab B still shows version 1 and asks to undo: refused.
	code, b := send("undo", 1)
	if code != http.StatusConflict || b.Error == "" || b.ID != g.ID || b.Version != 2 {
		t.Fatalf("stale undo: %d %+v, want 409 with the game at version 2", code, b)
	}
	if viewJSON(t, b.View) != viewJSON(t, a.View) {
		t.Fatalf("the refusal carries\n%+v\nwant the game as it stands\n%+v", b.View, a.View)
	}
	if r := r2(h, g.ID); r.Version != 2 || r.View.Moves != 1 || viewJSON(t, r.View) != viewJSON(t, a.View) {
		t.Fatalf("after the refused undo the game is at version %d with %d moves", r.Version, r.View.Moves)
	}
	// A version ahead of the game is refused the same way.
	if code, _ := send("undo", 7); code != http.StatusConflict {
		t.Fatalf("undo at version 7 of a game at 2: %d, want 409", code)
	}
	// Caught up, tab B's undo goes through.
	if code, r := send("undo", 2); code != http.StatusOK || r.Version != 3 || r.View.Moves != 0 {
		t.Fatalf("undo at version 2: %d, version %d, %d moves", code, r.Version, r.View.Moves)
	}
	// Without a version, no check.
	if code, r := send("redo", 0); code != http.StatusOK || r.Version != 4 || r.View.Moves != 1 {
		t.Fatalf("redo without a version: %d, version %d, %d moves", code, r.Version, r.View.Moves)
	}
	h.call("POST", "/api/games/"+g.ID+"/commands", `{"cmd":"undo","version":-1}`, http.StatusBadRequest, &errorBody{})
	// The version survives a restart (it is the stored one).
	h.restart()
	if code, r := send("undo", 4); code != http.StatusOK || r.Version != 5 {
		t.Fatalf("undo at version 4 after a restart: %d, version %d", code, r.Version)
	}
}

// TestOverlongGameID: an id longer than any game's gets a short 404 on
// every route that names a game, without the id in it. Before, the
// whole id, however long, was quoted back in the error.
func TestOverlongGameID(t *testing.T) {
	h := newHarness(t, Options{Analyze: solverAnalyze})
	real := h.newGame(`{"deal":"617"}`)
	for _, id := range []string{real.ID + "X", strings.Repeat("A", 4000)} {
		for _, tc := range [][3]string{
			{"GET", "/api/games/" + id, ""},
			{"POST", "/api/games/" + id + "/commands", `{"cmd":"deal"}`},
			{"GET", "/api/games/" + id + "/hint", ""},
			{"GET", "/api/games/" + id + "/locate?card=KS", ""},
			{"GET", "/api/games/" + id + "/column/1", ""},
			{"GET", "/api/games/" + id + "/save", ""},
			{"POST", "/api/games/" + id + "/analysis", `{}`},
			{"PUT", "/api/saves/x", `{"game":"` + id + `"}`},
			{"GET", "/api/saves?game=" + id, ""},
		} {
			b := h.call(tc[0], tc[1], tc[2], http.StatusNotFound, nil)
			if strings.Contains(string(b), id) || len(b) > 200 {
				t.Errorf("%s %.60s: %d bytes %.200q, want a short answer without the id", tc[0], tc[1], len(b), b)
			}
		}
	}
}
