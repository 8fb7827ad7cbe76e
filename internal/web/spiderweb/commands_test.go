package spiderweb

// Commands: the server's answers match the engine's, refused commands
// change nothing, and several tabs play at once or from a stale view.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"cardtable/spider"
)

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
