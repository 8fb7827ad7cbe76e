package arlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/coder/websocket"

	"cardtable/internal/arlwire"
)

func TestFromLink(t *testing.T) {
	tests := []struct {
		link, base, id string
		bad            bool
	}{
		{link: "http://127.0.0.1:8080/arlington/t/ABC234", base: "http://127.0.0.1:8080", id: "ABC234"},
		{link: " https://cards.example/arlington/t/X7/ ", base: "https://cards.example", id: "X7"},
		{link: "http://host/games/arlington/t/ID", base: "http://host/games", id: "ID"},
		{link: "http://host/arlington/t/", bad: true},
		{link: "http://host/arlington/t/a/b", bad: true},
		{link: "http://host/arlington/t/../../api", bad: true},
		{link: "http://host/spider/t/ID", bad: true},
		{link: "ftp://host/arlington/t/ID", bad: true},
		{link: "/arlington/t/ID", bad: true},
		{link: "ID", bad: true},
		{link: "http://host/arlington/t/" + strings.Repeat("A", 65), bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.link, func(t *testing.T) {
			c, id, err := FromLink(tc.link)
			if tc.bad {
				if !errors.Is(err, ErrBadLink) {
					t.Fatalf("got %v %q, want ErrBadLink", err, id)
				}
				return
			}
			if err != nil || id != tc.id || c.base.String() != tc.base {
				t.Fatalf("got %v %q %v", c, id, err)
			}
			if got := c.Link(id); got != tc.base+"/arlington/t/"+tc.id {
				t.Fatalf("link %s", got)
			}
		})
	}
}

func FuzzFromLink(f *testing.F) {
	f.Add("http://127.0.0.1:8080/arlington/t/ABC234")
	f.Add("https://h/x/arlington/t/ID/")
	f.Fuzz(func(t *testing.T, link string) {
		c, id, err := FromLink(link)
		if err != nil {
			if !errors.Is(err, ErrBadLink) {
				t.Fatalf("%q: %v is not ErrBadLink", link, err)
			}
			return
		}
		// A good link names a table id the API path can hold as it is,
		// and makes the same link again.
		if !validID(id) {
			t.Fatalf("%q: id %q", link, id)
		}
		c2, id2, err := FromLink(c.Link(id))
		if err != nil || id2 != id || c2.base.String() != c.base.String() {
			t.Fatalf("%q: link %q reads back as %v %q %v", link, c.Link(id), c2, id2, err)
		}
	})
}

func TestNewRefusesBadServer(t *testing.T) {
	for _, s := range []string{"", "localhost:8080", "ws://h", "http://", "http://h/?q=1"} {
		if _, err := New(s); !errors.Is(err, ErrBadServer) {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func TestCallErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/arlington/tables/FULL/join":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			fmt.Fprint(w, `{"error":"conflict: no open seat"}`)
		case "/api/arlington/tables/JUNK":
			fmt.Fprint(w, `{"id": 7}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var api *APIError
	if _, err := c.Join(ctx, "FULL", "Ann", -1); !errors.As(err, &api) || api.Status != 409 ||
		api.Message != "conflict: no open seat" || !errors.Is(err, ErrRefused) || errors.Is(err, ErrNotFound) {
		t.Fatalf("full: %v", err)
	}
	if _, err := c.Table(ctx, "GONE"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("gone: %v", err)
	}
	if _, err := c.Table(ctx, "JUNK"); err == nil || !strings.Contains(err.Error(), "not what this client reads") {
		t.Fatalf("junk: %v", err)
	}
	srv.Close()
	if _, err := c.Table(ctx, "ANY"); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("closed server: %v", err)
	}
}

// fakeTable is a WebSocket end that a test drives: each connection's
// hello arrives on hellos, and the connection is handed to the test.
type fakeTable struct {
	srv    *httptest.Server
	conns  chan *websocket.Conn
	hellos chan map[string]any
	cookie chan string
	gone   atomic.Bool
	answer atomic.Int32 // not 0: the WebSocket request is answered with this status
}

func newFakeTable(tb testing.TB) *fakeTable {
	f := &fakeTable{conns: make(chan *websocket.Conn, 4), hellos: make(chan map[string]any, 4), cookie: make(chan string, 4)}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/arlington/tables/T1/join" {
			http.SetCookie(w, &http.Cookie{Name: "cardtable_player", Value: "SECRET", Path: "/"})
			fmt.Fprint(w, `{"seat":1}`)
			return
		}
		if r.URL.Path != "/api/arlington/tables/T1/ws" || f.gone.Load() {
			http.NotFound(w, r)
			return
		}
		if code := f.answer.Load(); code != 0 {
			http.Error(w, "busy", int(code))
			return
		}
		c, _ := r.Cookie("cardtable_player")
		if c != nil {
			f.cookie <- c.Value
		} else {
			f.cookie <- ""
		}
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		_, b, err := conn.Read(r.Context())
		if err != nil {
			return
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		f.hellos <- m
		// The connection is hijacked: it outlives this handler, and the
		// test reads and writes it.
		f.conns <- conn
	}))
	tb.Cleanup(f.srv.Close)
	return f
}

// view is a view message with events from..count.
func view(from, count int) string {
	var evs, words []string
	for n := from; n < count; n++ {
		evs = append(evs, fmt.Sprintf(`{"n":%d,"hand":1,"kind":"move","seat":0,"action":"pass"}`, n))
		words = append(words, `"Ann passes."`)
	}
	return fmt.Sprintf(`{"type":"view","table":"T1","seat":1,"status":"open","seats":[],"view":{"seat":1,"players":2,"phase":"lead",`+
		`"events":[%s],"eventsFrom":%d,"eventCount":%d},"legal":[],"log":[%s],"names":["Ann","Bob"]}`,
		strings.Join(evs, ","), from, count, strings.Join(words, ","))
}

func next(tb testing.TB, s *Follower) Message {
	tb.Helper()
	select {
	case m, ok := <-s.Messages():
		if !ok {
			tb.Fatalf("follower ended: %v", s.Err())
		}
		return m
	case <-time.After(10 * time.Second):
		tb.Fatal("no message")
	}
	return Message{}
}

func recv[T any](tb testing.TB, c chan T) T {
	tb.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		tb.Fatal("nothing came")
	}
	var zero T
	return zero
}

func TestSessionReconnectsWithSince(t *testing.T) {
	f := newFakeTable(t)
	c, err := New(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Join(ctx, "T1", "Ann", -1); err != nil {
		t.Fatal(err)
	}
	s := c.Open(ctx, "T1", FollowOptions{Backoff: 10 * time.Millisecond})
	defer s.Close()

	// First connection: the identity cookie goes with the upgrade, the
	// hello asks for everything (-1), a view with events 0..2 comes.
	if got := recv(t, f.cookie); got != "SECRET" {
		t.Fatalf("cookie %q", got)
	}
	if h := recv(t, f.hellos); h["type"] != "hello" || h["since"] != -1.0 {
		t.Fatalf("first hello %v", h)
	}
	conn := recv(t, f.conns)
	if m := next(t, s); m.Type != TypeConnected {
		t.Fatalf("first message %q", m.Type)
	}
	conn.Write(ctx, websocket.MessageText, []byte(view(0, 3)))
	if m := next(t, s); m.Update == nil || m.Update.View.EventCount != 3 || string(m.Raw) != view(0, 3) ||
		len(m.Update.Log) != 3 || m.Update.Log[2] != "Ann passes." || len(m.Update.Names) != 2 {
		t.Fatalf("view %+v", m)
	}
	// An action goes out on the connection.
	if err := s.Act(ctx, "pass"); err != nil {
		t.Fatal(err)
	}
	_, b, err := conn.Read(ctx)
	if err != nil || string(b) != `{"type":"action","action":"pass"}` {
		t.Fatalf("action %s %v", b, err)
	}
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"error","class":"illegal","error":"no","rule":"The Hand"}`))
	if m := next(t, s); m.Err == nil || m.Err.Rule != "The Hand" || m.Err.Class != "illegal" {
		t.Fatalf("error %+v", m)
	}

	// A chat line (number 4) comes.
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"view","table":"t","seat":0,"status":"open","seats":[],"chat":[{"n":4,"seat":0,"name":"Ann","text":"hi"}]}`))
	if m := next(t, s); m.Update == nil || len(m.Update.Chat) != 1 {
		t.Fatalf("chat %+v", m)
	}

	// The connection drops: the follower dials again and asks for what
	// it does not have, events and chat.
	conn.CloseNow()
	if h := recv(t, f.hellos); h["since"] != 3.0 || h["chat"] != 4.0 {
		t.Fatalf("hello after reconnecting %v", h)
	}
	conn = recv(t, f.conns)
	if m := next(t, s); m.Type != TypeConnected {
		t.Fatalf("after reconnecting: %q", m.Type)
	}
	// A gap (events 5.. when it holds 3): the follower asks again on the
	// same connection.
	conn.Write(ctx, websocket.MessageText, []byte(view(5, 6)))
	next(t, s)
	_, b, err = conn.Read(ctx)
	if err != nil || string(b) != `{"type":"hello","since":3,"chat":4}` {
		t.Fatalf("after a gap: %s %v", b, err)
	}
	// The table is gone (404): the follower ends with ErrNotFound. Gone
	// before the connection drops: the follower dials again at once, and
	// a table still there would take it (a connection nobody closes).
	f.gone.Store(true)
	conn.CloseNow()
	for {
		m, ok := <-s.Messages()
		if !ok {
			break
		}
		if m.Type != TypeConnected && m.Type != TypeView {
			t.Fatalf("unexpected %+v", m)
		}
	}
	if !errors.Is(s.Err(), ErrNotFound) {
		t.Fatalf("ended with %v", s.Err())
	}
	if err := s.Act(ctx, "pass"); !errors.Is(err, ErrOffline) {
		t.Fatalf("act after the end: %v", err)
	}
}

func TestSessionGivesUp(t *testing.T) {
	// A server that stays out of reach: the follower ends once GiveUp has
	// passed, with ErrUnreachable.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, _ := New("http://" + addr)
	s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, GiveUp: 50 * time.Millisecond})
	for range s.Messages() {
		t.Fatal("a message from nowhere")
	}
	if !errors.Is(s.Err(), ErrUnreachable) {
		t.Fatalf("ended with %v", s.Err())
	}
	s.Close()
}

// TestLostConnectionWords: the notes of a lost connection, and the error
// a follower that gives up ends with, say why in the person's words (the
// server restarting, a 503 while the table moves, a server not running),
// never the WebSocket library's or the network's.
func TestLostConnectionWords(t *testing.T) {
	notes := make(chan string, 100)
	notef := func(format string, args ...any) { notes <- fmt.Sprintf(format, args...) }
	internals := []string{"failed to", "frame", "handshake", "StatusServiceRestart", "dial tcp", "101"}
	check := func(note, want string) {
		t.Helper()
		if !strings.Contains(note, want) {
			t.Errorf("note %q, want %q", note, want)
		}
		for _, w := range internals {
			if strings.Contains(note, w) {
				t.Errorf("note %q has the library's words %q", note, w)
			}
		}
	}

	f := newFakeTable(t)
	c, err := New(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Join(ctx, "T1", "Ann", -1); err != nil {
		t.Fatal(err)
	}
	s := c.Open(ctx, "T1", FollowOptions{Backoff: 10 * time.Millisecond, MaxBackoff: 10 * time.Millisecond, Notef: notef})
	defer s.Close()
	go func() { // exits when the follower ends and closes its messages
		for range s.Messages() {
		}
	}()
	conn := recv(t, f.conns)
	f.answer.Store(http.StatusServiceUnavailable)
	conn.Close(websocket.StatusServiceRestart, "restarting")
	check(recv(t, notes), "(the server is restarting); reconnecting in")
	check(recv(t, notes), "(the server cannot take it now (503)")
	// Back: said once, after the notes of the loss.
	f.answer.Store(0)
	back := recv(t, f.conns)
	if err := back.Write(ctx, websocket.MessageText, []byte(view(0, 1))); err != nil {
		t.Fatal(err)
	}
	if err := back.Write(ctx, websocket.MessageText, []byte(view(1, 2))); err != nil {
		t.Fatal(err)
	}
	for n := recv(t, notes); n != "connection to the table is back"; n = recv(t, notes) {
		check(n, "(the server cannot take it now (503)")
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, _ = New("http://" + addr)
	gone := c.Open(ctx, "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, GiveUp: 50 * time.Millisecond, Notef: notef})
	for range gone.Messages() {
		t.Fatal("a message from nowhere")
	}
	check(gone.Err().Error(), "the server refuses connections")
	if !errors.Is(gone.Err(), ErrUnreachable) {
		t.Errorf("ended with %v", gone.Err())
	}
	for len(notes) > 0 {
		if n := <-notes; n == "connection to the table is back" {
			t.Errorf("the return said twice")
		} else if !strings.Contains(n, "503") {
			check(n, "the server refuses connections")
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(view(0, 2)))
	f.Add([]byte(`{"type":"error","class":"illegal","error":"no","rule":"The Hand"}`))
	f.Add([]byte(`{"type":"later","x":1}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"type":"view","view":{"phase":"nonsense"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err != nil {
			return
		}
		// What decodes is kept whole for the log, and its kind matches
		// its type.
		if !bytes.Equal(m.Raw, b) || (m.Type == TypeView) != (m.Update != nil) || (m.Type == TypeError) != (m.Err != nil) {
			t.Fatalf("%q: %+v", b, m)
		}
		var obj map[string]any
		if json.Unmarshal(b, &obj) != nil {
			t.Fatalf("%q decoded but is not a JSON object", b)
		}
	})
}

// TestJoinTableMoving: a join answered 503 marked as a table between
// servers (nothing was done) is asked again by itself and succeeds;
// other refusals, a 503 without Retry-After, and one with Retry-After
// but not marked (PostgreSQL's pool with no connection free), are not.
func TestJoinTableMoving(t *testing.T) {
	old := retryUnit
	retryUnit = time.Millisecond
	defer func() { retryUnit = old }()
	var joins atomic.Int32
	var busy atomic.Int32 // the first joins refused as moving
	busy.Store(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n := joins.Add(1); {
		case r.URL.Path == "/api/arlington/tables/NOHINT/join":
			w.WriteHeader(http.StatusServiceUnavailable)
		case r.URL.Path == "/api/arlington/tables/BUSYDB/join":
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(http.StatusServiceUnavailable)
		case n <= busy.Load():
			w.Header().Set("Retry-After", "1")
			w.Header().Set(arlwire.MovingHeader, "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"error":"the table is moving to another server: try again in a moment"}`)
		default:
			fmt.Fprint(w, `{"seat":1}`)
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if seat, err := c.Join(context.Background(), "T", "Ann", -1); err != nil || seat != 1 || joins.Load() != 3 {
		t.Fatalf("join: seat %d, %v; asked %d times, want 3", seat, err, joins.Load())
	}
	joins.Store(0)
	busy.Store(100)
	var ae *APIError
	if _, err := c.Join(context.Background(), "T", "Ann", -1); !errors.As(err, &ae) || ae.Status != 503 || joins.Load() != movingRetries {
		t.Fatalf("a table that stays away: %v after %d askings, want 503 after %d", err, joins.Load(), movingRetries)
	}
	joins.Store(0)
	if _, err := c.Join(context.Background(), "NOHINT", "Ann", -1); !errors.As(err, &ae) || ae.Status != 503 || joins.Load() != 1 {
		t.Fatalf("a 503 without Retry-After: %v after %d askings, want 1", err, joins.Load())
	}
	joins.Store(0)
	if _, err := c.Join(context.Background(), "BUSYDB", "Ann", -1); !errors.As(err, &ae) || ae.Status != 503 || joins.Load() != 1 {
		t.Fatalf("a database too busy (503, Retry-After, not moving): %v after %d askings, want 1", err, joins.Load())
	}
}

// TestLostConnectionServerReason: a 503 the server explains (its
// database out of reach) is told in the server's words, not as a table
// moving or a server stopping, without "the server" twice; a 503
// without words still is.
func TestLostConnectionServerReason(t *testing.T) {
	const reason = "the server cannot reach its database just now; try again in a moment"
	got := lostWith(t, fmt.Sprintf(`{"error":%q}`, reason))
	if !strings.Contains(got, "503 Service Unavailable: "+reason) || strings.Contains(got, "moving") ||
		strings.Contains(got, "take it now") {
		t.Fatalf("ended with %q, want the server's words, once", got)
	}
}

// TestLostConnectionReasonCleaned: the server's words reach the terminal
// without their control and format characters (an escape sequence, a
// bell, C1's CSI, a right-to-left override); escaped, they still fit the
// 1 KiB read; an answer cut short at 1 KiB is said to be.
func TestLostConnectionReasonCleaned(t *testing.T) {
	got := lostWith(t, `{"error":"a\u001b[2Jb\u0007c\u009b31md\u202ee"}`)
	if !strings.Contains(got, ": a [2Jb c 31md e") || strings.ContainsFunc(got, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}) {
		t.Fatalf("ended with %q, want the words without control characters", got)
	}
	long := strings.Repeat(`\u0007`, 160) + "the database is away"
	if got := lostWith(t, `{"error":"`+long+`"}`); !strings.Contains(got, "503 Service Unavailable: the database is away") {
		t.Fatalf("a %d-byte answer ended with %q, want its words", len(long)+12, got)
	}
	huge := `{"error":"` + strings.Repeat("x", 2000) + `"}`
	if got := lostWith(t, huge); !strings.Contains(got, "over 1 KiB, cut short and not shown") {
		t.Fatalf("a 2 KiB answer ended with %q, want it said to be too long", got)
	}
}

// lostWith is how a follow ends whose every connection is answered 503
// with body.
func lostWith(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: time.Millisecond, GiveUp: 20 * time.Millisecond})
	for range s.Messages() {
		t.Fatal("a message from a server answering 503")
	}
	return s.Err().Error()
}

// TestErrorsSayServerOnce: a line the client can end with or print says
// "the server" once, also when the server's own words (or the client's
// words for a lost connection) name the server: a request refused with
// them, a follow refused with them, and a follow that gives up on a
// server refusing connections.
func TestErrorsSayServerOnce(t *testing.T) {
	once := func(what, line string) {
		t.Helper()
		if n := strings.Count(strings.ToLower(line), "server"); n != 1 {
			t.Errorf("%s: %q says server %d times, want once", what, line, n)
		}
	}
	for _, words := range []string{"the server's storage failed; try again", "server busy or shutting down; try again", ""} {
		body := `{"error":"` + words + `"}`
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInsufficientStorage)
			fmt.Fprint(w, body)
		}))
		c, err := New(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Join(context.Background(), "T1", "Ann", -1)
		once("a join answered "+body, err.Error())
		s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: time.Millisecond, GiveUp: 20 * time.Millisecond})
		for range s.Messages() {
		}
		once("a follow answered "+body, s.Err().Error())
		srv.Close()
		once("a follow answered 503 "+body, lostWith(t, body))
	}
	once("a follow answered 503 without words", lostWith(t, ""))
	// A port nobody listens on: the follow gives up on it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	c, err := New(dead)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: time.Millisecond, GiveUp: 20 * time.Millisecond})
	for range s.Messages() {
	}
	if !errors.Is(s.Err(), ErrUnreachable) || !errors.Is(s.Err(), syscall.ECONNREFUSED) {
		t.Fatalf("a follow of a dead port ended with %v", s.Err())
	}
	once("a follow given up", s.Err().Error())
	_, err = c.Join(context.Background(), "T1", "Ann", -1)
	once("a join of a dead port", err.Error())
}

// A refusal's words that merely contain "server" ("observer") do not
// name the server: the line still says who answered.
func TestAnsweredMatchesTheWord(t *testing.T) {
	for words, lead := range map[string]bool{
		"an observer may not act":            true,
		"the observers' chat is closed":      true,
		"the server's storage failed":        false,
		"server busy or shutting down":       false,
		"the Server is restarting":           false,
		"two servers claim the table; retry": false,
	} {
		got := answered(http.StatusForbidden, words)
		if strings.HasPrefix(got, "the server answered") != lead {
			t.Errorf("answered(403, %q) = %q: want the lead %v", words, got, lead)
		}
	}
}
