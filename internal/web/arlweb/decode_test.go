package arlweb

import (
	"errors"
	"strings"
	"testing"

	"cardtable/internal/web"
)

// TestDecodeDuplicateKeys: a message that gives a key twice is refused
// with an error naming the key (encoding/json alone keeps the last, so
// {"action":"pass","action":"kill"} was heard as a kill); the same
// messages with each key once decode.
func TestDecodeDuplicateKeys(t *testing.T) {
	for _, c := range []struct{ in, key string }{
		{`{"type":"action","action":"pass","action":"kill"}`, "action"},
		{`{"type":"hello","type":"chat","text":"hi"}`, "type"},
		{`{"type":"chat","text":"a","Text":"b"}`, "Text"},
		{`{"type":"hello","since":1,"since":2}`, "since"},
	} {
		t.Run(c.in, func(t *testing.T) {
			_, err := Decode([]byte(c.in))
			if !errors.Is(err, web.ErrBadRequest) || !strings.Contains(err.Error(), `"`+c.key+`" given twice`) {
				t.Errorf("error %v, want a bad request naming %q twice", err, c.key)
			}
		})
	}
	for _, ok := range []string{`{"type":"action","action":"kill"}`, `{"type":"chat","text":"{\"text\":1,\"text\":2}"}`, `{"type":"hello","since":2}`} {
		if _, err := Decode([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}
