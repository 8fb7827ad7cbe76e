package spiderweb

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzCommandRequest sends any body as a command: the answer is never a
// server error, and anything but 200 leaves the game as it was.
func FuzzCommandRequest(f *testing.F) {
	for _, s := range []string{`{"cmd":"deal"}`, `{"cmd":"move 1 2"}`, `{"cmd":"undo"}`, `{"cmd":"auto 4"}`,
		`{"cmd":"move 1 6 1"}`, `{`, `[]`, `{"cmd":null}`, `{"cmd":"deal","x":1}`, `{"cmd":"restart"} 5`, "\xff"} {
		f.Add(s)
	}
	h := newHarness(f, Options{})
	id := h.newGame(`{"deal":"617","suits":2}`).ID
	f.Fuzz(func(t *testing.T, body string) {
		h := h.as(t)
		before := h.stored(id)
		code, b, _ := h.do("POST", "/api/games/"+id+"/commands", body)
		if code >= 500 {
			t.Fatalf("%q: %d %s", body, code, b)
		}
		if code != http.StatusOK && h.stored(id) != before {
			t.Fatalf("%q: refused with %d but the game changed", body, code)
		}
		if code != http.StatusOK && !strings.Contains(string(b), `"error"`) {
			t.Fatalf("%q: %d without an error message", body, code)
		}
	})
}

// FuzzNewGameRequest: any body to POST /api/games gets 201 or a 4xx.
func FuzzNewGameRequest(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"deal":"617"}`, `{"deal":617,"suits":2,"variant":"spider"}`,
		`{"suits":3}`, `{"deal":"#1","open":true,"cheat":"full"}`, `{"deal":1e400}`, `{"deal":"18446744073709551615"}`} {
		f.Add(s)
	}
	h := newHarness(f, Options{})
	f.Fuzz(func(t *testing.T, body string) {
		h := h.as(t)
		code, b, _ := h.do("POST", "/api/games", body)
		if code != http.StatusCreated && (code < 400 || code >= 500) {
			t.Fatalf("%q: %d %s", body, code, b)
		}
	})
}
