package arlweb

import "testing"

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
