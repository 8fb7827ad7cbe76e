package spiderweb

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestJSONWordsForThePlayer: a body with a value of the wrong kind is a
// 400 whose message names the field as the JSON does and what it takes,
// never a Go struct or type.
func TestJSONWordsForThePlayer(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.newGame(`{"deal":"1"}`)
	for _, tc := range []struct{ method, path, body, want string }{
		{"POST", "/api/games/" + g.ID + "/commands", `{"cmd":"deal","version":"x"}`, `"version" must be a number`},
		{"PUT", "/api/saves/x", `[]`, "the request must be a JSON object"},
	} {
		code, b, _ := h.do(tc.method, tc.path, tc.body)
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(b, &e); err != nil || code != http.StatusBadRequest || e.Error != tc.want {
			t.Errorf("%s %s %s: %d %s; want 400 and %q", tc.method, tc.path, tc.body, code, b, tc.want)
		}
	}
}

// TestRequestWordsScan: every request body the Spider routes decode
// refuses a value of the wrong kind, in any field, without a Go name in
// its words.
func TestRequestWordsScan(t *testing.T) {
	for _, v := range []any{analysisRequest{}, newGameRequest{}, commandRequest{}, putSaveRequest{}} {
		webtest.CheckJSONWords(t, v, func(b []byte) error {
			return web.DecodeJSON(b, reflect.New(reflect.TypeOf(v)).Interface())
		})
	}
}

// TestRequestKeyCase: every request body the Spider routes decode reads
// its keys in ASCII case only: "Deal" is "deal", "ſuits" (a long s) is
// no key of the API, though Unicode folds it to "suits".
func TestRequestKeyCase(t *testing.T) {
	folded := 0
	for _, v := range []any{analysisRequest{}, newGameRequest{}, commandRequest{}, putSaveRequest{}} {
		folded += webtest.CheckKeyCase(t, v, func(b []byte) error {
			return web.DecodeJSON(b, reflect.New(reflect.TypeOf(v)).Interface())
		})
	}
	if folded < 2 {
		t.Fatalf("%d keys with an s or a k checked, want some", folded)
	}
}
