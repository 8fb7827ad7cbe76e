package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// echoGame is a mounted game whose handlers answer with the player and
// with each error class.
type echoGame struct{}

func (echoGame) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/echo/player", Handle(nil, func(w http.ResponseWriter, r *http.Request) error {
		WriteJSON(w, http.StatusOK, map[string]string{"player": Player(r), "ctx": PlayerFromContext(r.Context())})
		return nil
	}))
	mux.HandleFunc("GET /echo/page", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, Player(r))
	})
	mux.HandleFunc("POST /api/echo/json", Handle(nil, func(w http.ResponseWriter, r *http.Request) error {
		var v struct{ N int }
		if err := ReadJSON(w, r, &v, 64); err != nil {
			return err
		}
		WriteJSON(w, http.StatusOK, v)
		return nil
	}))
	mux.HandleFunc("GET /api/echo/err/{class}", Handle(nil, func(w http.ResponseWriter, r *http.Request) error {
		classes := map[string]error{"400": ErrBadRequest, "403": ErrForbidden, "404": ErrNotFound,
			"409": ErrConflict, "422": ErrUnprocessable, "429": ErrTooMany, "503": ErrUnavailable}
		return fmt.Errorf("%w: class %s", classes[r.PathValue("class")], r.PathValue("class"))
	}))
}

// TestMountedGame: a game mounted through Options.Games gets the player's
// identity on its API and its pages, strict JSON with limits, and the one
// mapping of error classes to statuses.
func TestMountedGame(t *testing.T) {
	h := newHarness(t, Options{Games: []Routes{echoGame{}}})
	var got struct{ Player, Ctx string }
	h.call("GET", "/api/echo/player", "", http.StatusOK, &got)
	if got.Player == "" || got.Player != h.player() {
		t.Fatalf("API player %q, want the cookie's %q", got.Player, h.player())
	}
	if got.Ctx != got.Player {
		t.Fatalf("PlayerFromContext %q, want %q", got.Ctx, got.Player)
	}
	if code, body, _ := h.do("GET", "/echo/page", ""); code != http.StatusOK || string(body) != h.player() {
		t.Fatalf("page: %d %q, want 200 and the player %q", code, body, h.player())
	}
	h.otherPlayer().call("GET", "/api/echo/player", "", http.StatusOK, &got)
	if got.Player == "" || got.Player == h.player() {
		t.Fatalf("another browser's player %q (first browser's %q)", got.Player, h.player())
	}
	for _, tc := range []struct {
		body string
		want int
	}{{`{"N":3}`, 200}, {`{"M":3}`, 400}, {`{"N":` + strings.Repeat("1", 100) + `}`, 413}, {`{"N":1} x`, 400}} {
		if code, body, _ := h.do("POST", "/api/echo/json", tc.body); code != tc.want {
			t.Errorf("POST %s: %d %s, want %d", tc.body, code, body, tc.want)
		}
	}
	for _, class := range []string{"400", "403", "404", "409", "422", "429", "503"} {
		code, body, _ := h.do("GET", "/api/echo/err/"+class, "")
		// 503's text is the server's own (busy or shutting down).
		if fmt.Sprint(code) != class || (class != "503" && !strings.Contains(string(body), "class "+class)) {
			t.Errorf("class %s: %d %s", class, code, body)
		}
	}
}

// TestPlayerFromCookie: only a token the server could have made names a
// player, and it names the same player the middleware sees.
func TestPlayerFromCookie(t *testing.T) {
	h := newHarness(t, Options{Games: []Routes{echoGame{}}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if got := PlayerFromCookie(h.jar.Cookie(playerCookie).Value); got == "" || got != h.player() {
		t.Fatalf("PlayerFromCookie = %q, want %q", got, h.player())
	}
	for _, bad := range []string{"", "x", strings.Repeat("a", 26), strings.Repeat("A", 27)} {
		if got := PlayerFromCookie(bad); got != "" {
			t.Errorf("PlayerFromCookie(%q) = %q, want \"\"", bad, got)
		}
	}
}

// limitedGame is a mounted game with one route that creates things.
type limitedGame struct{}

func (limitedGame) Register(mux *http.ServeMux) {
	echoGame{}.Register(mux)
	mux.HandleFunc("POST /api/echo/create", Handle(nil, func(w http.ResponseWriter, r *http.Request) error {
		WriteJSON(w, http.StatusCreated, map[string]string{"player": Player(r)})
		return nil
	}))
}

func (limitedGame) Limited() []string { return []string{"POST /api/echo/create"} }

// TestMountedGameRateLimit: the routes a game names as Limited share the
// rate limit; its other routes are not limited.
func TestMountedGameRateLimit(t *testing.T) {
	rl := RateLimit{Player: Bucket{Burst: 2, Every: time.Hour}, Address: Bucket{Burst: 100, Every: time.Hour}, MaxKeys: 100}
	h := newHarness(t, Options{RateLimit: &rl, Games: []Routes{limitedGame{}}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // the cookie the limit keys on
	for i := range 2 {
		if code, body, _ := h.do("POST", "/api/echo/create", ""); code != http.StatusCreated {
			t.Fatalf("create %d: %d %s", i+1, code, body)
		}
	}
	if code, body, _ := h.do("POST", "/api/echo/create", ""); code != http.StatusTooManyRequests {
		t.Fatalf("create 3 past a burst of 2: %d %s, want 429", code, body)
	}
	for i := range 5 {
		if code, body, _ := h.do("GET", "/api/echo/player", ""); code != http.StatusOK {
			t.Fatalf("unlimited route, call %d: %d %s", i+1, code, body)
		}
	}
}

// frequentGame is limitedGame with a route its page calls at every click.
type frequentGame struct{ limitedGame }

func (g frequentGame) Register(mux *http.ServeMux) {
	g.limitedGame.Register(mux)
	mux.HandleFunc("POST /api/echo/often", Handle(nil, func(w http.ResponseWriter, r *http.Request) error {
		WriteJSON(w, http.StatusOK, map[string]string{"player": Player(r)})
		return nil
	}))
}

func (frequentGame) Frequent() []string { return []string{"POST /api/echo/often"} }

// bothGame is frequentGame naming its creating route Frequent too.
type bothGame struct{ frequentGame }

func (bothGame) Frequent() []string { return []string{"POST /api/echo/often", "POST /api/echo/create"} }

// TestMountedGameFrequentLimit: the routes a game names as Frequent are
// limited by buckets of their own: past their burst they get 429, and
// spending them leaves the Limited routes' tokens whole, and the other
// way round. A route named both takes the Limited buckets.
func TestMountedGameFrequentLimit(t *testing.T) {
	rl := RateLimit{Player: Bucket{Burst: 2, Every: time.Hour}, Address: Bucket{Burst: 100, Every: time.Hour},
		OftenPlayer: Bucket{Burst: 4, Every: time.Hour}, OftenAddress: Bucket{Burst: 100, Every: time.Hour}, MaxKeys: 100}
	for _, x := range []struct {
		name  string
		game  Routes
		steps []string // path and the count of calls that pass, then one refused
	}{
		{"Frequent spent, Limited whole", frequentGame{}, []string{"/api/echo/often", "/api/echo/create"}},
		{"Limited spent, Frequent whole", frequentGame{}, []string{"/api/echo/create", "/api/echo/often"}},
		// Named both: the burst of 2 is Limited's, and spending it
		// leaves the Frequent buckets whole.
		{"named both", bothGame{}, []string{"/api/echo/create", "/api/echo/often"}},
	} {
		t.Run(x.name, func(t *testing.T) {
			h := newHarness(t, Options{RateLimit: &rl, Games: []Routes{x.game}})
			h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // the cookie the limit keys on
			for _, path := range x.steps {
				ok, burst := http.StatusOK, rl.OftenPlayer.Burst
				if path == "/api/echo/create" {
					ok, burst = http.StatusCreated, rl.Player.Burst
				}
				for i := range burst {
					if code, body, _ := h.do("POST", path, ""); code != ok {
						t.Fatalf("%s, call %d of a burst of %d: %d %s, want %d", path, i+1, burst, code, body, ok)
					}
				}
				if code, body, _ := h.do("POST", path, ""); code != http.StatusTooManyRequests {
					t.Fatalf("%s, call %d past a burst of %d: %d %s, want 429", path, burst+1, burst, code, body)
				}
			}
		})
	}
}

// TestClassify: a game's sentinel error gets its class and keeps its text;
// one with a class already keeps it; a Public message replaces a 5xx's
// generic one; an unknown error stays a server fault; and each class has
// its WebSocket name.
func TestClassify(t *testing.T) {
	errA, errB, errGone := errors.New("seat taken"), errors.New("busy"), errors.New("file gone")
	errDamaged := errors.New("row damaged")
	classes := []Class{{Err: errA, Class: ErrConflict}, {Err: errB, Class: ErrNotFound},
		{Err: errGone, Class: ErrUnavailable, Public: "restart the server"},
		{Err: errDamaged, Public: "this game is damaged"}}
	tests := []struct {
		name string
		err  error
		code int
		msg  string
		cls  string
	}{
		{"sentinel", fmt.Errorf("seat 2: %w", errA), 409, "seat 2: seat taken", "conflict"},
		{"classed already", fmt.Errorf("%w: %w", ErrForbidden, errA), 403, "seat taken", "forbidden"},
		{"public", fmt.Errorf("db: %w", errGone), 503, "restart the server", "unavailable"},
		{"unknown", errors.New("disk on fire"), 500, "internal error", "internal"},
		{"server fault told", fmt.Errorf("game g: %w", errDamaged), 500, "this game is damaged", "internal"},
		{"illegal", Errorf(ErrUnprocessable, "no"), 422, "no", "illegal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Classify(tc.err, classes)
			code, msg := status(err)
			var p *public
			if code >= 500 && errors.As(err, &p) {
				msg = p.msg
			}
			if code != tc.code || msg != tc.msg || ClassName(err) != tc.cls {
				t.Fatalf("got %d %q %s, want %d %q %s", code, msg, ClassName(err), tc.code, tc.msg, tc.cls)
			}
		})
	}
	if Classify(nil, classes) != nil {
		t.Fatal("nil classified as an error")
	}
}

// TestSeenOnlyReturningPlayers: Options.Seen is told the player of a
// request that brought its cookie back, on the API and on pages, and
// not of a request without one (a client keeping no cookie would cost a
// write a request); a failure to record costs the request nothing.
func TestSeenOnlyReturningPlayers(t *testing.T) {
	var seen []string
	fail := false
	h := newHarness(t, Options{Games: []Routes{echoGame{}}, Seen: func(_ context.Context, player string) error {
		seen = append(seen, player)
		if fail {
			return errors.New("disk full")
		}
		return nil
	}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if len(seen) != 0 {
		t.Fatalf("a new player's first request recorded as seen: %q", seen)
	}
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	if code, _, _ := h.do("GET", "/echo/page", ""); code != http.StatusOK {
		t.Fatalf("page: %d", code)
	}
	if len(seen) != 2 || seen[0] != h.player() || seen[1] != h.player() {
		t.Fatalf("seen %q, want the returning player %q twice", seen, h.player())
	}
	fail = true
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
}

// TestSeenClientGoneLoggedAtInfo: a client hanging up while its identity
// is being recorded is logged at INFO with reason "client gone", as the
// other requests of clients gone; a real failure to record stays a WARN.
func TestSeenClientGoneLoggedAtInfo(t *testing.T) {
	buf := &webtest.Log{}
	log := slog.New(slog.NewJSONHandler(buf, nil))
	var fail error
	h := newHarness(t, Options{Log: log, Games: []Routes{echoGame{}}, Seen: func(ctx context.Context, _ string) error {
		if fail != nil {
			return fail
		}
		<-ctx.Done() // the client hangs up while the store is asked
		return fmt.Errorf("reading players: %w", ctx.Err())
	}})
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil) // new: the cookie, no Seen
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("GET", "/api/echo/player", nil).WithContext(ctx)
	r.AddCookie(h.jar.Cookie(playerCookie))
	h.s.ServeHTTP(httptest.NewRecorder(), r)
	fail = fmt.Errorf("disk full: %w", ErrInsufficientStorage)
	h.call("GET", "/api/echo/player", "", http.StatusOK, nil)
	var got []string
	for _, l := range buf.Lines(t) {
		if l["msg"] == "recording a player as seen" {
			got = append(got, fmt.Sprint(l["level"], " ", l["reason"], " ", l["err"]))
		}
	}
	if want := []string{"INFO client gone reading players: context canceled", "WARN disk full disk full: insufficient storage"}; !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}
