package arlclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"github.com/coder/websocket"
)

// hasControl reports a control or format character other than '\n'.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
	})
}

// TestServerWordsCleaned: the words a server sends that the terminal
// prints (names, chat, the log, refusals, answers, the record) reach the
// client without control and format characters: a server that does not
// clean them (another program; connect goes to any link) cannot set the
// terminal's title, clear it or write its clipboard. The message as
// received (Raw, for --log) is kept as it came.
func TestServerWordsCleaned(t *testing.T) {
	const esc = `\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u202e`
	view := `{"type":"view","table":"T1","seat":0,"status":"open",` +
		`"seats":[{"seat":0,"name":"Ann` + esc + `"},{"seat":1,"bot":"hi` + esc + `"}],` +
		`"chat":[{"n":1,"seat":0,"name":"Ann` + esc + `","text":"hi` + esc + `"}],` +
		`"log":["Ann` + esc + ` passes."],"names":["Ann` + esc + `"]}`
	m, err := decode([]byte(view))
	if err != nil {
		t.Fatal(err)
	}
	u := m.Update
	for _, s := range []string{u.Seats[0].Name, u.Seats[1].Bot, u.Chat[0].Name, u.Chat[0].Text, u.Log[0], u.Names[0]} {
		if hasControl(s) || !strings.HasPrefix(s, "Ann") && !strings.HasPrefix(s, "hi") {
			t.Errorf("%q: not cleaned", s)
		}
	}
	if string(m.Raw) != view {
		t.Errorf("Raw changed: %s", m.Raw)
	}
	m, err = decode([]byte(`{"type":"error","class":"illegal","error":"no` + esc + `","rule":"The Hand` + esc + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	if hasControl(m.Err.Message) || hasControl(m.Err.Rule) {
		t.Errorf("refusal not cleaned: %q %q", m.Err.Message, m.Err.Rule)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/tables") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"T1` + esc + `","seats":[{"seat":0,"name":"Ann` + esc + `"},{"seat":1,"bot":"hi` + esc + `"}]}`))
			return
		}
		if strings.HasSuffix(r.URL.Path, "/record") {
			w.Write([]byte("arlington record 1\nplayers 2\x1b]0;title\x07\n"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"error":"no open seat` + esc + `"}`))
	}))
	defer srv.Close()
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Join(context.Background(), "T1", "Bob", -1)
	var api *APIError
	if !errors.As(err, &api) || hasControl(api.Message) || !strings.HasPrefix(api.Message, "no open seat") {
		t.Errorf("answer not cleaned: %v", err)
	}
	rec, err := c.Record(context.Background(), "T1")
	if err != nil || hasControl(rec) || !strings.HasPrefix(rec, "arlington record 1\nplayers 2") {
		t.Errorf("record not cleaned: %q, %v", rec, err)
	}
	tb, err := c.Create(context.Background(), TableConfig{Players: 2})
	if err != nil || hasControl(tb.ID) || hasControl(tb.Seats[0].Name) || hasControl(tb.Seats[1].Bot) {
		t.Errorf("new table not cleaned: %+v, %v", tb, err)
	}
}

// TestLostCloseReason: the reason a server gives for closing is cleaned
// as its other words are, and a message too big for the server (1009,
// whose reason is the WebSocket library's) is said in words.
func TestLostCloseReason(t *testing.T) {
	for _, c := range []struct {
		err  websocket.CloseError
		want string
	}{
		{websocket.CloseError{Code: websocket.StatusMessageTooBig, Reason: "read limited at 4097 bytes"}, "the server closed it: a message this client sent was too long for it"},
		{websocket.CloseError{Code: websocket.StatusPolicyViolation, Reason: "bye\x1b]0;title\x07"}, "the server closed it: bye ]0;title "},
	} {
		if got := (lost{c.err}).Error(); got != c.want {
			t.Errorf("%d %q: %q, want %q", c.err.Code, c.err.Reason, got, c.want)
		}
	}
}
