package web

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"move 3 7 2", "move 3 7", "deal", "remove 4", "auto 3", "auto 3 2",
		"undo", "redo", "restart", "m 1 2 3", "MOVE 10 1 13", "move -1 2", "auto 3 0", "", "  deal  ",
		"move 1 2 3 4", "remove", "deal\x00", "move ٣ 7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseCommand(s)
		if err != nil {
			if !errors.Is(err, errBadRequest) {
				t.Fatalf("%q: error %v is not a bad request", s, err)
			}
			return
		}
		switch c.op {
		case opAuto:
			if c.pile < 0 || c.pile >= 10 || c.n < 0 || c.n > 13 {
				t.Fatalf("%q: auto out of range %+v", s, c)
			}
		case opMove:
			if c.short && (c.pile < 0 || c.pile >= 10 || c.to < 0 || c.to >= 10) {
				t.Fatalf("%q: move out of range %+v", s, c)
			}
			if !c.short {
				// A full move reads back as itself.
				again, err := parseCommand(c.move.String())
				if err != nil || again.move != c.move {
					t.Fatalf("%q: %v does not read back: %v", s, c.move, err)
				}
			}
		}
	})
}

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
