package arlweb

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestWSRefusalWordsOnly: a refusal of the WebSocket, a message's or the
// connection's own, gives the player the words alone; its class is the
// message's "class" or the answer's status, not words before them.
func TestWSRefusalWordsOnly(t *testing.T) {
	e := newEnv(t, Limits{PerAddress: 2})
	id := e.client().create("", "random")
	w := e.client().dial(id, -1)
	w.waitFor(isView)
	w.send(map[string]any{"type": "bogus"})
	m := w.waitFor(func(m srvMsg) bool { return m.Type == "error" })
	if m.Class != "bad_request" || m.Error != `unknown message type "bogus"` {
		t.Errorf("an unknown message is refused %+v, want class bad_request and the words alone", m)
	}
	e.client().dial(id, -1).waitFor(isView)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	c, resp, err := websocket.Dial(ctx, u, nil)
	if err == nil {
		c.CloseNow()
		t.Fatal("a third connection from the address was taken")
	}
	var body struct{ Error string }
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || json.Unmarshal(b, &body) != nil || body.Error != "2 connections open from your address" {
		t.Errorf("a connection over the bound is refused %d %s, want 429 and the words alone", resp.StatusCode, b)
	}
}
