package arlweb

import (
	"encoding/json"
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
// type or struct names.
func TestDecodeWords(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{`{"type": 5}`, `bad request: "type" must be a string`},
		{`{"type": "hello", "since": "all"}`, `bad request: "since" must be a number`},
		{`{"type": "hello", "colour": "red"}`, `bad request: bad JSON: unknown field "colour"`},
		{`{"type": "hello"} {}`, `bad request: bad JSON: more than one value`},
	} {
		_, err := Decode([]byte(c.msg))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.msg, err, c.want)
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
