package arlweb

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestDecodeWords: a WebSocket message that does not decode is answered
// in the words of the HTTP routes' JSON bodies (web.DecodeJSON): the field
// as the message names it and the kind of value it takes, never Go's
// type or struct names. A value with more after it (a stray "]") was
// once taken, where an HTTP body with one was refused.
func TestDecodeWords(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{`{"type": 5}`, `"type" must be a string`},
		{`{"type": "hello", "since": "all"}`, `"since" must be a number`},
		{`{"type": "hello", "colour": "red"}`, `bad JSON: unknown field "colour"`},
		{`{"type": "hello"} {}`, `bad JSON: more than one value`},
		{`{"type": "hello"} ]`, `bad JSON: data after the value`},
		{`{"type": "hello", "TYPE": "chat"}`, `bad JSON: key "TYPE" given twice`},
	} {
		_, err := Decode([]byte(c.msg))
		if !errors.Is(err, web.ErrBadRequest) {
			t.Errorf("%s: %v, want a bad request", c.msg, err)
			continue
		}
		if m, _ := newErrorMsg(err); m.Error != c.want || m.Class != "bad_request" {
			t.Errorf("%s: the client reads %+v, want %q", c.msg, m, c.want)
		}
		if got := web.DecodeJSON([]byte(c.msg), &wireMsg{}); got == nil || got.Error() != c.want {
			t.Errorf("%s: an HTTP body says %v, want %q", c.msg, got, c.want)
		}
	}
}

// TestDecodeEmptyWords: an empty WebSocket message is named a message,
// not a request body, and an empty HTTP body still a request body.
func TestDecodeEmptyWords(t *testing.T) {
	for _, msg := range []string{"", " \r\n\t"} {
		_, err := Decode([]byte(msg))
		if m, _ := newErrorMsg(err); !errors.Is(err, web.ErrBadRequest) || m.Error != "empty message; want JSON" || m.Class != "bad_request" {
			t.Errorf("%q: %v, the client reads %+v; want a bad request, \"empty message; want JSON\"", msg, err, m)
		}
		if got := web.DecodeJSON([]byte(msg), &wireMsg{}); got == nil || got.Error() != "empty request body; want JSON" {
			t.Errorf("%q: an HTTP body says %v, want \"empty request body; want JSON\"", msg, got)
		}
	}
}

// TestNewTableWords: a new table's request with a value of the wrong kind
// is a 400 naming the key as sent and the kind it takes, though the
// config decodes itself through an embedded copy (whose Go name
// encoding/json puts in its path).
func TestNewTableWords(t *testing.T) {
	srv := web.New(web.Options{Games: []web.Routes{New(forwardHub(t, nil), wired(Limits{}))}})
	for _, c := range []struct{ body, want string }{
		{`{"players":"x"}`, `"players" must be a number`},
		{`{"bots":[1]}`, `"bots" must be a list of strings`},
		{`{"bots":"easy"}`, `"bots" must be a list of strings`},
		{`{"turnSeconds":1e30}`, `"turnSeconds" must be a whole number within range`},
	} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(c.body)))
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || w.Code != http.StatusBadRequest || e.Error != c.want {
			t.Errorf("%s: %d %s; want 400 and %q", c.body, w.Code, w.Body, c.want)
		}
	}
}

// TestRequestWordsScan: every request body and message the Arlington
// routes decode refuses a value of the wrong kind, in any field, without
// a Go name in its words.
func TestRequestWordsScan(t *testing.T) {
	for _, v := range []any{table.Config{}, joinRequest{}, previewRequest{}} {
		webtest.CheckJSONWords(t, v, func(b []byte) error {
			return web.DecodeJSON(b, reflect.New(reflect.TypeOf(v)).Interface())
		})
	}
	webtest.CheckJSONWords(t, wireMsg{}, func(b []byte) error {
		_, err := Decode(b)
		return err
	})
}

// TestRequestKeyCase: every request body and WebSocket message of
// Arlington's reads its keys in ASCII case only: "SEAT" is "seat",
// "\u212Aind" (the Kelvin sign) is no key, though Unicode folds it to
// "kind".
func TestRequestKeyCase(t *testing.T) {
	folded := 0
	for _, v := range []any{table.Config{}, joinRequest{}, previewRequest{}} {
		folded += webtest.CheckKeyCase(t, v, func(b []byte) error {
			return web.DecodeJSON(b, reflect.New(reflect.TypeOf(v)).Interface())
		})
	}
	folded += webtest.CheckKeyCase(t, wireMsg{}, func(b []byte) error {
		_, err := Decode(b)
		return err
	})
	if folded < 2 {
		t.Fatalf("%d keys with an s or a k checked, want some", folded)
	}
}

// TestOldConfigKeyCase: the previous release's keys of a new table's
// config (turn_seconds, stand_in), still read, are read in ASCII case
// only, as the others: "turn_ſeconds" (a long s) and
// "ſtand_in" are unknown keys, refused 400, though Unicode folds them to
// the old keys; "TURN_SECONDS" is still read.
func TestOldConfigKeyCase(t *testing.T) {
	srv := web.New(web.Options{Games: []web.Routes{New(forwardHub(t, nil), wired(Limits{}))}})
	for _, c := range []struct {
		body string
		code int
	}{
		{`{"players":2,"bots":["","random"],"turn_ſeconds":30}`, http.StatusBadRequest},
		{`{"players":2,"bots":["","random"],"ſtand_in":"easy"}`, http.StatusBadRequest},
		{`{"players":2,"bots":["","random"],"TURN_SECONDS":30,"Stand_In":"easy"}`, http.StatusCreated},
	} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(c.body)))
		if w.Code != c.code {
			t.Errorf("%s: %d %s; want %d", c.body, w.Code, w.Body, c.code)
		}
		if c.code == http.StatusBadRequest && !strings.Contains(w.Body.String(), "unknown field") {
			t.Errorf("%s: %s; want an unknown field named", c.body, w.Body)
		}
	}
}

// TestNewTableOldTurnSecondsKey: a new table's timer is turnSeconds, the
// one spelling the page, the terminal client and the load generator
// send; the previous release's turn_seconds is still read for one
// release (docs/api.md, "Keys (decision)"), and turnSeconds, when given
// and not 0 (the default), wins over it.
func TestNewTableOldTurnSecondsKey(t *testing.T) {
	srv := web.New(web.Options{Games: []web.Routes{New(forwardHub(t, nil), wired(Limits{}))}})
	for _, c := range []struct {
		body string
		want int
	}{
		{`{"players":2,"bots":["","random"],"turnSeconds":30}`, 30},
		{`{"players":2,"bots":["","random"],"turn_seconds":45}`, 45},
		{`{"players":2,"bots":["","random"],"turnSeconds":30,"turn_seconds":45}`, 30},
		{`{"players":2,"bots":["","random"],"turnSeconds":0,"turn_seconds":45}`, 45},
	} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(c.body)))
		var got struct {
			TurnSeconds *int `json:"turnSeconds"`
		}
		if w.Code != http.StatusCreated || json.Unmarshal(w.Body.Bytes(), &got) != nil || got.TurnSeconds == nil || *got.TurnSeconds != c.want {
			t.Errorf("%s: %d %s; want 201 and turnSeconds %d", c.body, w.Code, w.Body, c.want)
		}
		if strings.Contains(w.Body.String(), "turn_seconds") {
			t.Errorf("%s: the answer %s names the old key", c.body, w.Body)
		}
	}
}
