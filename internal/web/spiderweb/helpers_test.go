package spiderweb

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// playerCookie is the web layer's identity cookie (docs/api.md, "Players").
const playerCookie = "cardtable_player"

// errorBody is an error answer.
type errorBody struct {
	Error string `json:"error"`
}

// harness is a server over a fresh database in a temporary directory,
// wired as cardtable serve wires it: the web layer with the Spider
// handlers mounted, adopting pre-upgrade rows through them.
type harness struct {
	tb   testing.TB
	path string
	db   *store.DB
	s    *Handlers
	srv  *web.Server
	opts Options
	web  web.Options

	clk *clock
	// jar holds the player's cookie: copies made by as share it, copies
	// made by otherPlayer have their own.
	jar *webtest.Jar
	// after, if set, sees every response.
	after func(method, path string, code int, body []byte)
}

func newHarness(tb testing.TB, o Options) *harness {
	tb.Helper()
	return newServerHarness(tb, o, web.Options{})
}

// newServerHarness is newHarness with the web layer's options (rate limit,
// host check); its clock is the handlers' unless wo has one.
func newServerHarness(tb testing.TB, o Options, wo web.Options) *harness {
	tb.Helper()
	h := &harness{tb: tb, path: filepath.Join(tb.TempDir(), "test.db"),
		clk: &clock{webtest.Clock{T: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), Step: time.Second}}, jar: &webtest.Jar{}}
	if o.Now == nil {
		o.Now = h.now
	}
	if wo.Now == nil {
		wo.Now = o.Now
	}
	h.opts, h.web = o, wo
	h.open()
	return h
}

// now is a clock that ticks a second per reading, so that results are
// ordered.
func (h *harness) now() time.Time { return h.clk.now() }

// clock is the shared test clock (webtest.Clock) under the names these
// tests call; one that moves only when told has no Step.
type clock struct{ webtest.Clock }

func (c *clock) now() time.Time { return c.Now() }

// advance moves the clock on by d.
func (c *clock) advance(d time.Duration) { c.Advance(d) }

// as is the harness reporting to tb, for subtests.
func (h *harness) as(tb testing.TB) *harness {
	c := *h
	c.tb = tb
	return &c
}

// otherPlayer is the harness as seen from another browser: same server,
// its own identity.
func (h *harness) otherPlayer() *harness {
	c := *h
	c.jar = &webtest.Jar{}
	return &c
}

// player is the key of the harness's player ("" before its first request).
func (h *harness) player() string {
	return web.PlayerFromCookie(h.jar.Value(playerCookie)) // "" for no cookie
}

func (h *harness) open() {
	h.tb.Helper()
	db, err := store.Open(context.Background(), h.path)
	if err != nil {
		h.tb.Fatal(err)
	}
	h.tb.Cleanup(func() { db.Close() })
	h.db, h.s = db, New(db, h.opts)
	wo := h.web
	wo.Games = append([]web.Routes{h.s}, wo.Games...)
	wo.Adopt, wo.Seen = h.s.AdoptLegacy, h.s.Seen
	h.srv = web.New(wo)
}

// restart drops the server and its memory and opens the database again: what
// a restarted process sees.
func (h *harness) restart() {
	h.tb.Helper()
	h.db.Close()
	h.open()
}

func (h *harness) do(method, path, body string) (int, []byte, http.Header) {
	h.tb.Helper()
	rec := h.jar.Do(h.srv, method, path, body)
	b := rec.Body.Bytes()
	if h.after != nil {
		h.after(method, path, rec.Code, b)
	}
	return rec.Code, b, rec.Header()
}

// serve sends req as the harness's browser: its player cookie goes with
// the request, and a cookie in the answer is kept.
func (h *harness) serve(req *http.Request) *httptest.ResponseRecorder {
	return h.jar.Serve(h.srv, req)
}

// call does a request, checks its status and decodes the JSON answer into v
// (if not nil).
func (h *harness) call(method, path, body string, want int, v any) []byte {
	h.tb.Helper()
	code, b, hdr := h.do(method, path, body)
	return webtest.Check(h.tb, method, path, body, want, code, hdr, b, v)
}

func (h *harness) newGame(body string) gameResponse {
	h.tb.Helper()
	var r gameResponse
	h.call("POST", "/api/games", body, http.StatusCreated, &r)
	if r.ID == "" {
		h.tb.Fatal("no game id")
	}
	return r
}

func (h *harness) cmd(id, cmd string, want int) gameResponse {
	h.tb.Helper()
	var r gameResponse
	body, _ := json.Marshal(commandRequest{Cmd: cmd})
	if want != http.StatusOK {
		h.call("POST", "/api/games/"+id+"/commands", string(body), want, nil)
		return r
	}
	h.call("POST", "/api/games/"+id+"/commands", string(body), want, &r)
	return r
}

// stored is the save text of the game as stored (its snapshot and log
// replayed).
func (h *harness) stored(id string) string {
	h.tb.Helper()
	rec, err := h.db.Game(context.Background(), h.player(), id)
	if err != nil {
		h.tb.Fatal(err)
	}
	g, err := spidergame.Replay(rec)
	if err != nil {
		h.tb.Fatal(err)
	}
	return g.Save()
}

// viewJSON encodes a view the way the server does, for comparisons.
func viewJSON(tb testing.TB, v spider.View) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// statsGroupOf finds one group in GET /api/stats.
func (h *harness) statsGroupOf(variant string, suits int) statsGroup {
	h.tb.Helper()
	var st struct {
		Groups []statsGroup `json:"groups"`
	}
	h.call("GET", "/api/stats", "", http.StatusOK, &st)
	for _, g := range st.Groups {
		if g.Variant == variant && g.Suits == suits {
			return g
		}
	}
	h.tb.Fatalf("no stats group %s/%d", variant, suits)
	return statsGroup{}
}

// nearWon is a one-suit position a move from a win: pile 2's ace goes on
// pile 1's king-to-two run.
const nearWon = `cardtable spider 1
variant: arachnid
suits: 1
open: no
relaxed: no
autoremove: no
cheat: none
pile1: KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S
pile2: AS
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S S S S S S
cheated: no
stopped: no
position: 0
moves:
`

// nearStuck is a two-suit position where moving pile 1's 6H onto pile 2's
// 7H (the only move) leaves no move at all: the bottom cards are then A, 6H
// (on 7H), K K J J 9 9 3 3, no bottom card one below another's, no space, no
// stock.
const nearStuck = `cardtable spider 1
variant: spider
suits: 2
open: no
relaxed: no
autoremove: no
cheat: none
pile1: |AS 6H
pile2: |2S 7H
pile3: |4S |5S KS
pile4: |6S |7S KH
pile5: |8S JS
pile6: |10S JH
pile7: |QS 9S
pile8: |AH 9H
pile9: |2H |4H 3S
pile10: |5H |8H |10H |QH 3H
completed: S S S H H H
cheated: no
stopped: no
position: 0
moves:
`
