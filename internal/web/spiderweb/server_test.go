package spiderweb

// The routes, and the game's other reads and files: locate and column,
// the save download and load, hints, ids too long.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"cardtable/spider"
)

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
		rec := httptest.NewRecorder()
		h.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || h.countGames() != 0 {
			t.Fatalf("cross-site POST: %d, %d games", rec.Code, h.countGames())
		}
		// Every refusal is the API's error body (docs/api.md,
		// "Conventions"), this one too: a client reads its words.
		var body struct{ Error string }
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("cross-site POST: Content-Type %q, want JSON", ct)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || !strings.Contains(body.Error, "cross-site") {
			t.Errorf("cross-site POST: body %q (%v), want {\"error\": ...} naming the cross-site request", rec.Body, err)
		}
	})
}

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
		// Moves are left at a deal's start: not "No moves left.".
		if hr.Move != "" || !strings.HasPrefix(hr.Text, "No helpful move found: moves are left") {
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
