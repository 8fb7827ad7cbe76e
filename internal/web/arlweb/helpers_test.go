package arlweb

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// env is a server with Arlington tables over a fresh database.
type env struct {
	tb   testing.TB
	srv  *httptest.Server
	hub  *table.Hub
	db   *store.DB
	site *web.Server // the shared layer, to drain it
	arl  *Handlers   // the Arlington routes, for a test that swaps their hint bot
}

func newEnv(tb testing.TB, lim Limits) *env {
	tb.Helper()
	return newEnvWeb(tb, lim, web.Options{})
}

// newEnvWeb is newEnv with the shared layer's options wo (a rate limit, a
// clock); its Games are the Arlington handlers.
func newEnvWeb(tb testing.TB, lim Limits, wo web.Options) *env {
	tb.Helper()
	return newEnvStore(tb, lim, wo, nil)
}

// newEnvStore is newEnvWeb whose hub writes through wrap(db) (nil: the
// database itself), as a store that says a table moved.
func newEnvStore(tb testing.TB, lim Limits, wo web.Options, wrap func(*store.DB) table.Store) *env {
	tb.Helper()
	return newEnvHub(tb, lim, wo, wrap, nil)
}

// newSeededEnvWeb is newEnvWeb whose tables all deal from seed (and whose
// bots draw from it too), so a test knows the cards.
func newSeededEnvWeb(tb testing.TB, lim Limits, wo web.Options, seed uint64) *env {
	tb.Helper()
	return newEnvHub(tb, lim, wo, nil, func() uint64 { return seed })
}

// newEnvHub is newEnvStore whose hub takes its tables' seeds from seed
// (nil: random ones).
func newEnvHub(tb testing.TB, lim Limits, wo web.Options, wrap func(*store.DB) table.Store, seed func() uint64) *env {
	tb.Helper()
	return newEnvOpts(tb, lim, wo, wrap, func(o *table.Options) { o.Seed = seed })
}

// newEnvOpts is newEnvStore whose hub's options set changes (a seed, a
// clock) before it starts.
func newEnvOpts(tb testing.TB, lim Limits, wo web.Options, wrap func(*store.DB) table.Store, set func(*table.Options)) *env {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	var st table.Store = db
	if wrap != nil {
		st = wrap(db)
	}
	o := table.Options{Store: st, Bots: newBot, BotTime: time.Second, Logf: tb.Logf}
	set(&o)
	hub, err := table.NewHub(ctx, o)
	if err != nil {
		tb.Fatal(err)
	}
	arl := New(hub, wired(lim))
	wo.Games = []web.Routes{arl}
	s := web.New(wo)
	srv := httptest.NewServer(s)
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return &env{tb: tb, srv: srv, hub: hub, db: db, site: s, arl: arl}
}

// client is one browser: its own cookie jar, so its own identity.
type client struct {
	e  *env
	hc *http.Client
}

func (e *env) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, hc: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// do sends a JSON request and decodes the answer into out (if not nil);
// it returns the status.
func (c *client) do(method, path string, body, out any) int {
	c.e.tb.Helper()
	var rd io.Reader
	if s, ok := body.(string); ok {
		rd = strings.NewReader(s)
	} else if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.e.srv.URL+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.e.tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.e.tb.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

// create makes a table with seats: "" for a person, a level for a bot.
func (c *client) create(seats ...string) string {
	c.e.tb.Helper()
	var got created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: len(seats), Bots: seats}, &got); code != http.StatusCreated {
		c.e.tb.Fatalf("create: %d", code)
	}
	return got.ID
}

func (c *client) join(id, name string) int {
	c.e.tb.Helper()
	var got joined
	if code := c.do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: name}, &got); code != http.StatusOK {
		c.e.tb.Fatalf("join %s as %s: %d", id, name, code)
	}
	return got.Seat
}

// srvMsg is any server message, decoded.
type srvMsg struct {
	Type   string           `json:"type"`
	Seat   int              `json:"seat"`
	Status string           `json:"status"`
	View   *arlington.View  `json:"view"`
	Legal  []string         `json:"legal"`
	Chat   []table.ChatLine `json:"chat"`
	Seats  []table.SeatInfo `json:"seats"`
	Class  string           `json:"class"`
	Error  string           `json:"error"`
	Rule   string           `json:"rule"`
	Ref    string           `json:"ref"`
	Limits *sendLimits      `json:"limits"`
	// SeatOpen: a spectator's refusal says a seat is open to join.
	SeatOpen bool `json:"seatOpen"`
}

type wsClient struct {
	tb testing.TB
	c  *websocket.Conn
	ch chan srvMsg // messages read; closed when the connection ends
	// err is why the connection ended; set before ch is closed.
	err error
	// last is the latest view seen by next/waitView.
	last srvMsg
}

// dial opens a WebSocket to table id as c and says hello with since.
func (c *client) dial(id string, since int) *wsClient {
	c.e.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(c.e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.hc})
	if err != nil {
		c.e.tb.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	w := &wsClient{tb: c.e.tb, c: conn, ch: make(chan srvMsg, 1024)}
	// The reader exits when the connection ends (closed by either side).
	go func() {
		defer close(w.ch)
		for {
			_, b, err := conn.Read(context.Background())
			if err != nil {
				w.err = err
				return
			}
			var m srvMsg
			if err := json.Unmarshal(b, &m); err != nil {
				w.tb.Errorf("bad server message %s: %v", b, err)
				return
			}
			w.ch <- m
		}
	}()
	c.e.tb.Cleanup(func() { conn.CloseNow() })
	if since != noHello {
		w.send(map[string]any{"type": "hello", "since": since})
	}
	return w
}

// noHello as dial's since opens the connection without a hello.
const noHello = -2

func (w *wsClient) send(v any) {
	w.tb.Helper()
	b, _ := json.Marshal(v)
	w.sendRaw(b)
}

func (w *wsClient) sendRaw(b []byte) {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.tb.Fatalf("write: %v", err)
	}
}

// next is the next server message (fails after a timeout or at the end).
func (w *wsClient) next() srvMsg {
	w.tb.Helper()
	select {
	case m, ok := <-w.ch:
		if !ok {
			w.tb.Fatal("connection ended")
		}
		if m.Type == "view" {
			w.last = m
		}
		return m
	case <-time.After(15 * time.Second):
		w.tb.Fatal("no message within 15 s")
	}
	return srvMsg{}
}

// waitFor reads messages until one satisfies ok.
func (w *wsClient) waitFor(ok func(srvMsg) bool) srvMsg {
	w.tb.Helper()
	for {
		if m := w.next(); ok(m) {
			return m
		}
	}
}

func isView(m srvMsg) bool  { return m.Type == "view" }
func isError(m srvMsg) bool { return m.Type == "error" }

// ended reports whether the connection ends (the server closed it)
// within a while.
func (w *wsClient) ended() bool {
	deadline := time.After(15 * time.Second)
	for {
		select {
		case _, ok := <-w.ch:
			if !ok {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// started waits for the game's first view.
func (w *wsClient) started() srvMsg {
	w.tb.Helper()
	return w.waitFor(func(m srvMsg) bool { return m.Type == "view" && m.View != nil })
}

// newBot is the bots of arlington/bot as the wiring hands them to a hub.
func newBot(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }

// wired is the handlers' options as cardtable serve sets them: the bots'
// levels and the hint bot, and lim.
func wired(lim Limits) Options {
	// A hint's time is generous: tests run side by side on a loaded
	// machine, where 2 s for the slot and the search can run out (the
	// hint tests that mean it to set their own).
	return Options{Limits: lim, Levels: bot.Names, HintTime: 30 * time.Second,
		Hint: func(seed uint64) (table.Bot, error) { return bot.New(HintBot, seed) }}
}

// testDB is a fresh database in the test's folder, closed at its end.
func testDB(tb testing.TB, ctx context.Context) *store.DB {
	tb.Helper()
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// switchable is a listener that passes each request to the current
// server, first until the test calls the returned function with the next
// (a restart under a page); it closes at the test's end.
func switchable(tb testing.TB, first *web.Server) (*httptest.Server, func(*web.Server)) {
	var cur atomic.Pointer[web.Server]
	cur.Store(first)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { cur.Load().ServeHTTP(w, r) }))
	tb.Cleanup(srv.Close)
	return srv, func(s *web.Server) { cur.Store(s) }
}

// newStillEnv is newEnv whose tables' clock stands still (stillClock):
// for a test of a rate the table refills with time, which a loaded
// machine could otherwise let refill between two messages.
func newStillEnv(tb testing.TB) *env {
	tb.Helper()
	return newEnvOpts(tb, Limits{}, web.Options{}, nil, func(o *table.Options) { o.Clock = stillClock{time.Now()} })
}

// stillClock is a table clock whose time stands at now; its timers run
// in real time.
type stillClock struct{ now time.Time }

func (c stillClock) Now() time.Time { return c.now }

func (stillClock) NewTimer(d time.Duration) table.Timer { return realTimer{time.NewTimer(d)} }

// realTimer is a time.Timer as a table.Timer.
type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
