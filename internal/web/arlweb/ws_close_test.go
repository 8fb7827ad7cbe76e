package arlweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/internal/arlclient"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// The four ways the server ends a table's connection, each brought about
// for real, with the close status and reason a client receives: clients
// decide from them whether to reconnect (docs/api.md, "WebSocket").

// closedWith is the close status and reason w's connection ended with;
// it fails if the connection does not end.
func (w *wsClient) closedWith() (websocket.StatusCode, string) {
	w.tb.Helper()
	if !w.ended() {
		w.tb.Fatal("the connection does not end")
	}
	var ce websocket.CloseError
	if !errors.As(w.err, &ce) {
		w.tb.Fatalf("the connection ended without a close frame: %v", w.err)
	}
	return ce.Code, ce.Reason
}

func wantClose(t *testing.T, w *wsClient, code websocket.StatusCode, reason string) {
	t.Helper()
	if c, r := w.closedWith(); c != code || r != reason {
		t.Fatalf("closed with %d %q, want %d %q", c, r, code, reason)
	}
}

// TestWSCloseSlow: a connection that falls behind its bounded queue (the
// table's updates come faster than it is written to) is closed with 1013
// and the reason that tells it to reconnect with since.
// TestWSCloseSlowFollower shows a client doing so and getting only what
// it missed.
func TestWSCloseSlow(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "", "random")
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := tb.Join(ctx, table.Player{ID: "x", Name: "Xan"}, 0); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	w := e.client().dial(id, -1)
	for tb.Summary().Watching == 0 { // until its hello has subscribed it
		if time.Since(start) > 10*time.Second {
			t.Fatal("the spectator never watches")
		}
		runtime.Gosched()
	}
	// Xan comes and goes in a tight loop: each time every connection gets
	// an update, faster than the spectator's are written.
	n := 0
	for ; tb.Summary().Watching > 0; n++ {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the spectator still watches after %d updates", 2*n)
		}
		s, err := tb.Subscribe(ctx, "x", -1)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	t.Logf("dropped after %d updates in %v", 2*n, time.Since(start))
	wantClose(t, w, websocket.StatusTryAgainLater, "too slow: reconnect with since")
}

// TestWSCloseReplaced: past MaxSeatConns connections to one seat, the
// oldest is closed with 1001 and the reason saying a newer connection
// took the seat; the others go on: each receives a chat line said after
// the replacement.
func TestWSCloseReplaced(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	var ws []*wsClient
	for range table.MaxSeatConns + 1 {
		w := a.dial(id, -1)
		w.started() // subscribed: the next one is newer
		ws = append(ws, w)
	}
	wantClose(t, ws[0], websocket.StatusGoingAway, "replaced by a newer connection to your seat")
	ws[len(ws)-1].send(map[string]any{"type": "chat", "text": "still here"})
	said := func(c table.ChatLine) bool { return c.Text == "still here" }
	for i, w := range ws[1:] {
		for got := false; !got; {
			select {
			case m, ok := <-w.ch:
				if !ok {
					t.Fatalf("connection %d ended too: %v", i+1, w.err)
				}
				got = slices.ContainsFunc(m.Chat, said)
			case <-time.After(15 * time.Second):
				t.Fatalf("connection %d got no chat line said after the replacement", i+1)
			}
		}
	}
}

// TestWSCloseMoved: a table whose store says another server holds it now
// (as PostgreSQL does once another server took it over) stops here, and
// its connections are closed with 1012 and the reason telling them to
// reconnect.
func TestWSCloseMoved(t *testing.T) {
	var moved atomic.Bool
	e := newEnvStore(t, Limits{}, web.Options{}, func(db *store.DB) table.Store { return &movingStore{DB: db, moved: &moved} })
	a, b := e.client(), e.client()
	id := a.create("", "", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	w.next()
	moved.Store(true)
	// Bob's join is the write the store refuses: nothing is done.
	if code := b.do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: "Bob"}, nil); code != http.StatusServiceUnavailable {
		t.Fatalf("a join to a table that moved: %d", code)
	}
	wantClose(t, w, websocket.StatusServiceRestart, movedReason)
}

// movingStore is a store whose seat writes say, once moved is set, that
// another server holds the table.
type movingStore struct {
	*store.DB
	moved *atomic.Bool
}

func (s *movingStore) SaveSeats(ctx context.Context, id string, seats []table.StoredSeat) error {
	if s.moved.Load() {
		return fmt.Errorf("taken: %w", table.ErrMoved)
	}
	return s.DB.SaveSeats(ctx, id, seats)
}

// TestWSCloseTable: a table that closes here (its hub stops) closes its
// connections with 1001 "table closed".
func TestWSCloseTable(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	w.started()
	e.hub.Close()
	wantClose(t, w, websocket.StatusGoingAway, "table closed")
}

// TestWSCloseBeforeHello: a connection the table ends before it said
// hello (it has no subscription yet) is closed the same ways: 1001
// "table closed", or 1012 for a table that moved.
func TestWSCloseBeforeHello(t *testing.T) {
	lim := Limits{HelloWait: time.Minute}
	t.Run("closed", func(t *testing.T) {
		e := newEnv(t, lim)
		a := e.client()
		id := a.create("", "random")
		a.join(id, "Ann")
		w := a.dial(id, noHello)
		e.hub.Close()
		wantClose(t, w, websocket.StatusGoingAway, "table closed")
	})
	t.Run("moved", func(t *testing.T) {
		var moved atomic.Bool
		e := newEnvStore(t, lim, web.Options{}, func(db *store.DB) table.Store { return &movingStore{DB: db, moved: &moved} })
		a := e.client()
		id := a.create("", "", "random")
		a.join(id, "Ann")
		w := a.dial(id, noHello)
		moved.Store(true)
		if code := e.client().do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: "Bob"}, nil); code != http.StatusServiceUnavailable {
			t.Fatalf("a join to a table that moved: %d", code)
		}
		wantClose(t, w, websocket.StatusServiceRestart, movedReason)
	})
}

// What the terminal client (arlclient.Follower) does with each ending.

// counted is a server in front of e's that counts the table WebSockets
// asked for.
func (e *env) counted() (string, *atomic.Int32) {
	var n atomic.Int32
	inner := e.srv.Config.Handler
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ws") {
			n.Add(1)
		}
		inner.ServeHTTP(w, r)
	}))
	e.tb.Cleanup(front.Close)
	return front.URL, &n
}

// seatedClient is a client, through e.counted, seated as Ann at table id;
// the count is of its WebSocket connections.
func seatedClient(t *testing.T, e *env, id string) (*arlclient.Client, *atomic.Int32) {
	t.Helper()
	url, dials := e.counted()
	c, err := arlclient.New(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Join(context.Background(), id, "Ann", -1); err != nil {
		t.Fatal(err)
	}
	return c, dials
}

// seatedFollower is seatedClient's follower of table id, once it has had
// its first update.
func seatedFollower(t *testing.T, e *env, id string) (*arlclient.Follower, *atomic.Int32) {
	t.Helper()
	c, dials := seatedClient(t, e, id)
	f := c.Open(context.Background(), id, quick)
	firstUpdate(t, f)
	return f, dials
}

// firstUpdate reads f until its first update.
func firstUpdate(t *testing.T, f *arlclient.Follower) {
	t.Helper()
	for {
		if m, ok := nextMsg(t, f); !ok {
			t.Fatalf("a follower ended: %v", f.Err())
		} else if m.Update != nil {
			return
		}
	}
}

// nextMsg is f's next message; ok false once f has ended.
func nextMsg(t *testing.T, f *arlclient.Follower) (arlclient.Message, bool) {
	t.Helper()
	select {
	case m, ok := <-f.Messages():
		return m, ok
	case <-time.After(15 * time.Second):
		t.Fatal("no message from the follower within 15 s")
	}
	return arlclient.Message{}, false
}

// endsWith waits for f to end and returns why, skipping its messages.
func endsWith(t *testing.T, f *arlclient.Follower) error {
	t.Helper()
	for {
		if _, ok := nextMsg(t, f); !ok {
			return f.Err()
		}
	}
}

var quick = arlclient.FollowOptions{Backoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}

// TestWSCloseSlowFollower: a follower whose reader stops falls behind, is
// closed as too slow, reconnects by itself and says hello with the events
// it has: the server sends only those after them.
func TestWSCloseSlowFollower(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := tb.Join(ctx, table.Player{ID: "x", Name: "Xan"}, 0); err != nil {
		t.Fatal(err)
	}
	url, dials := e.counted()
	c, err := arlclient.New(url)
	if err != nil {
		t.Fatal(err)
	}
	f := c.Open(ctx, id, quick)
	defer f.Close()
	have := -1
	for have < 0 {
		if m, ok := nextMsg(t, f); !ok {
			t.Fatalf("the follower ended: %v", f.Err())
		} else if m.Update != nil && m.Update.View != nil {
			have = m.Update.View.EventCount
		}
	}
	if have == 0 {
		t.Fatal("the game started with no event")
	}
	// The follower is not read from now on: Xan comes and goes until the
	// table drops it.
	for start := time.Now(); tb.Summary().Watching > 0; {
		if time.Since(start) > 20*time.Second {
			t.Fatal("the follower still watches")
		}
		s, err := tb.Subscribe(ctx, "x", -1)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	// Its messages now: the rest of the first connection's, then a
	// second connection's.
	for second := false; ; {
		m, ok := nextMsg(t, f)
		if !ok {
			t.Fatalf("the follower ended: %v", f.Err())
		}
		if m.Type == arlclient.TypeConnected {
			second = true
			continue
		}
		if m.Update == nil || m.Update.View == nil {
			continue
		}
		if v := m.Update.View; !second {
			have = v.EventCount // a bot may have played meanwhile
		} else if v.EventsFrom != have || v.EventsFrom == 0 {
			t.Fatalf("the first view after reconnecting has events from %d, want %d", v.EventsFrom, have)
		} else {
			break
		}
	}
	if n := dials.Load(); n != 2 {
		t.Fatalf("%d connections asked for, want 2", n)
	}
}

// TestWSCloseReplacedFollower: a follower whose seat a newer connection of
// the same identity took over ends with ErrReplaced and does not
// reconnect (it would push the newer one out in turn).
func TestWSCloseReplacedFollower(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	c, dials := seatedClient(t, e, id)
	ctx := context.Background()
	var fs []*arlclient.Follower
	for range table.MaxSeatConns + 1 {
		f := c.Open(ctx, id, quick)
		defer f.Close()
		firstUpdate(t, f) // subscribed: the next one is newer
		fs = append(fs, f)
	}
	// A follower that reconnected instead of ending would go on: the
	// test says so at its next connection, not at a timeout.
	for {
		m, ok := nextMsg(t, fs[0])
		if !ok {
			break
		}
		if m.Type == arlclient.TypeConnected {
			t.Fatalf("the oldest follower reconnected after it was replaced (%d connections asked for, want %d); want it to end with ErrReplaced", dials.Load(), len(fs))
		}
	}
	if err := fs[0].Err(); !errors.Is(err, arlclient.ErrReplaced) {
		t.Fatalf("the oldest follower ended with %v, want ErrReplaced", err)
	}
	if n := dials.Load(); n != int32(len(fs)) {
		t.Fatalf("%d connections asked for, want %d: the replaced follower came back", n, len(fs))
	}
}

// TestWSCloseMovedFollower: a follower of a table that moved reconnects
// to reach it (here no server runs it any more, so it learns the table
// is gone).
func TestWSCloseMovedFollower(t *testing.T) {
	var moved atomic.Bool
	e := newEnvStore(t, Limits{}, web.Options{}, func(db *store.DB) table.Store { return &movingStore{DB: db, moved: &moved} })
	id := e.client().create("", "", "random")
	f, dials := seatedFollower(t, e, id)
	defer f.Close()
	moved.Store(true)
	if code := e.client().do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: "Bob"}, nil); code != http.StatusServiceUnavailable {
		t.Fatalf("a join to a table that moved: %d", code)
	}
	err := endsWith(t, f)
	if n := dials.Load(); n < 2 || !errors.Is(err, arlclient.ErrNotFound) {
		t.Fatalf("after the move: %d connections asked for, ended with %v; want a second and ErrNotFound", n, err)
	}
}

// TestWSCloseTableFollower: a follower of a table that closed here
// reconnects (a server that runs the table again answers it; one that
// does not says so).
func TestWSCloseTableFollower(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	f, dials := seatedFollower(t, e, id)
	defer f.Close()
	e.hub.Close()
	// Its messages are taken (it waits for its reader) while its
	// connections are counted.
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for start := time.Now(); dials.Load() < 2; {
		select {
		case _, ok := <-f.Messages():
			if !ok && dials.Load() < 2 {
				t.Fatalf("the follower ended without reconnecting: %v", f.Err())
			}
		case <-tick.C:
		}
		if time.Since(start) > 15*time.Second {
			t.Fatal("the follower did not reconnect")
		}
	}
}
