package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgtest"
)

// shortCluster makes the registry's timing short for one test: a take-over
// after a crash within about lease, scans every 100 ms.
func shortCluster(t *testing.T, lease time.Duration) {
	old := clusterTiming
	clusterTiming.lease, clusterTiming.beat, clusterTiming.scan = lease, 100*time.Millisecond, 100*time.Millisecond
	t.Cleanup(func() { clusterTiming = old })
}

// ownerAddr is the internal address of the server that holds table id,
// read from the database ("" if none).
func ownerAddr(t *testing.T, db, id string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var addr *string
	err = conn.QueryRow(ctx, `SELECT s.addr FROM live_tables t LEFT JOIN servers s ON s.id = t.owner WHERE t.id = $1`, id).Scan(&addr)
	if err != nil {
		t.Fatal(err)
	}
	if addr == nil {
		return ""
	}
	return *addr
}

func hostOf(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// tableWS is a table's WebSocket: dialled (through any server), hello
// sent with since, the first view read. A server that answers 503 (the
// table between servers) is asked again, for at most within.
func tableWS(t *testing.T, ctx context.Context, base, id string, since int, within time.Duration) (*websocket.Conn, wsView) {
	t.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + "api/arlington/tables/" + id + "/ws"
	deadline := time.Now().Add(within)
	for {
		conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: browser})
		if err == nil {
			hello, _ := json.Marshal(map[string]any{"type": "hello", "since": since})
			if err := conn.Write(ctx, websocket.MessageText, hello); err != nil {
				t.Fatal(err)
			}
			return conn, readView(t, ctx, conn)
		}
		if resp == nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || time.Now().After(deadline) {
			t.Fatalf("dial %s: %v", u, err)
		}
		time.Sleep(100 * time.Millisecond) // as Retry-After asks, shortened
	}
}

// wsView is what the test reads of a view message.
type wsView struct {
	Type   string   `json:"type"`
	Seat   int      `json:"seat"`
	Legal  []string `json:"legal"`
	Status string   `json:"status"`
	View   *struct {
		EventsFrom int `json:"eventsFrom"`
		EventCount int `json:"eventCount"`
		ToMove     int `json:"toMove"`
	} `json:"view"`
}

// readView reads messages until a view with the game started.
func readView(t *testing.T, ctx context.Context, conn *websocket.Conn) wsView {
	t.Helper()
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("reading a view: %v", err)
		}
		var m wsView
		if err := json.Unmarshal(b, &m); err != nil || m.Type == "error" {
			t.Fatalf("message %.300s (%v)", b, err)
		}
		if m.Type == "view" && m.View != nil {
			return m
		}
	}
}

// TestServersShareTables: two servers on one PostgreSQL database. A table
// made through either runs on one of them; through the other, a player
// joins (HTTP, forwarded), watches and acts (WebSocket, forwarded), and
// the lobby of each lists it. The table's server then stops (SIGTERM's
// path): the WebSocket is told to reconnect, the other server takes the
// table at once (its lease, a minute, is not waited for), and the player
// reconnects through it with the event count they had and plays on.
func TestServersShareTables(t *testing.T) {
	db := pgtest.DB(t)
	shortCluster(t, time.Minute)
	a := startServe(t, "--addr", "127.0.0.1:0", "--db", db)
	b := startServe(t, "--addr", "127.0.0.1:0", "--db", db)
	id := newTable(t, browser, a.url, `{"players":2,"bots":["","random"]}`)
	owner, other := a, b
	switch ownerAddr(t, db, id) {
	case hostOf(t, a.url):
	case hostOf(t, b.url):
		owner, other = b, a
	default:
		t.Fatalf("table %s held by %q, neither server", id, ownerAddr(t, db, id))
	}
	// Join through the server that does not run it.
	resp, err := browser.Post(other.url+"api/arlington/tables/"+id+"/join", "application/json", strings.NewReader(`{"name":"Ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("join through the other server: %s", resp.Status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, v := tableWS(t, ctx, other.url, id, -1, 0)
	defer conn.CloseNow()
	if v.Seat != 0 {
		t.Fatalf("seat %d through the other server, want 0", v.Seat)
	}
	for v.View.ToMove != 0 || len(v.Legal) == 0 {
		v = readView(t, ctx, conn)
	}
	acted := v.View.EventCount
	msg, _ := json.Marshal(map[string]any{"type": "action", "action": v.Legal[0]})
	if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	for v.View.EventCount <= acted {
		v = readView(t, ctx, conn)
	}
	// Each lobby lists it, the other's from the owner's heartbeat.
	for _, s := range []*served{owner, other} {
		for {
			var lobby struct {
				Tables []struct {
					ID    string `json:"id"`
					Yours bool   `json:"yours"`
				} `json:"tables"`
			}
			resp, err := browser.Get(s.url + "api/arlington/tables")
			if err != nil {
				t.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&lobby)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(lobby.Tables) == 1 && lobby.Tables[0].ID == id && lobby.Tables[0].Yours {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("lobby of %s: %+v", s.url, lobby)
			}
			time.Sleep(50 * time.Millisecond) // the owner's next heartbeat
		}
	}
	// The owner stops: the WebSocket through the other server is told to
	// reconnect.
	seen := v.View.EventCount
	stopped := time.Now()
	owner.stop()
	if code, reason, err := readUntilClosed(ctx, conn); err != nil || code != websocket.StatusServiceRestart {
		t.Fatalf("closed with %d %q (%v), want 1012", code, reason, err)
	}
	conn2, v2 := tableWS(t, ctx, other.url, id, seen, 5*time.Second)
	defer conn2.CloseNow()
	t.Logf("table back %v after its server was told to stop", time.Since(stopped).Round(time.Millisecond))
	select {
	case code := <-owner.done:
		owner.done <- code
		if code != exitOK {
			t.Fatalf("the stopped server exited %d", code)
		}
	case <-time.After(stopBound):
		t.Fatal("the stopped server still runs")
	}
	if v2.Seat != 0 || v2.View.EventsFrom != seen {
		t.Fatalf("reconnected since %d: seat %d, events from %d", seen, v2.Seat, v2.View.EventsFrom)
	}
	if got := ownerAddr(t, db, id); got != hostOf(t, other.url) {
		t.Fatalf("held by %q after the stop, want %s", got, hostOf(t, other.url))
	}
	for v2.View.ToMove != 0 || len(v2.Legal) == 0 {
		v2 = readView(t, ctx, conn2)
	}
	acted = v2.View.EventCount
	msg, _ = json.Marshal(map[string]any{"type": "action", "action": v2.Legal[0]})
	if err := conn2.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	for v2.View.EventCount <= acted {
		v2 = readView(t, ctx, conn2)
	}
}
