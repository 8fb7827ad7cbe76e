package arlweb

import (
	"errors"
	"strings"
	"testing"

	"cardtable/arlington"
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
		{`{"type":"hello","chat":1,"chat":2}`, "chat"},
	} {
		t.Run(c.in, func(t *testing.T) {
			_, err := Decode([]byte(c.in))
			if !errors.Is(err, web.ErrBadRequest) || !strings.Contains(err.Error(), `"`+c.key+`" given twice`) {
				t.Errorf("error %v, want a bad request naming %q twice", err, c.key)
			}
		})
	}
	for _, ok := range []string{`{"type":"action","action":"kill"}`, `{"type":"chat","text":"{\"text\":1,\"text\":2}"}`, `{"type":"hello","since":2}`, `{"type":"hello","since":2,"chat":7}`} {
		if _, err := Decode([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestDecodeHelloChat: hello carries the last chat line the client has
// (-1 or absent: none); a number below -1, or chat on another message, is
// refused.
func TestDecodeHelloChat(t *testing.T) {
	for in, want := range map[string]int{`{"type":"hello"}`: -1, `{"type":"hello","chat":-1}`: -1, `{"type":"hello","since":3,"chat":12}`: 12} {
		if m, err := Decode([]byte(in)); err != nil || m.Chat != want {
			t.Errorf("%s: chat %d, %v; want %d", in, m.Chat, err, want)
		}
	}
	for _, in := range []string{`{"type":"hello","chat":-2}`, `{"type":"hello","chat":"x"}`, `{"type":"chat","text":"hi","chat":3}`, `{"type":"action","action":"pass","chat":3}`} {
		if _, err := Decode([]byte(in)); !errors.Is(err, web.ErrBadRequest) {
			t.Errorf("%s: %v, want a bad request", in, err)
		}
	}
}

// TestDecodeHelloKeepAway: hello's keepAway (absent: false) asks the
// table to leave a person marked away so; another message carrying it,
// or a keepAway not true or false, is refused.
func TestDecodeHelloKeepAway(t *testing.T) {
	for in, want := range map[string]bool{`{"type":"hello"}`: false, `{"type":"hello","keepAway":false}`: false, `{"type":"hello","since":3,"keepAway":true}`: true} {
		if m, err := Decode([]byte(in)); err != nil || m.Keep != want {
			t.Errorf("%s: keepAway %v, %v; want %v", in, m.Keep, err, want)
		}
	}
	for _, in := range []string{`{"type":"hello","keepAway":1}`, `{"type":"hello","keepAway":"yes"}`, `{"type":"chat","text":"hi","keepAway":true}`, `{"type":"action","action":"pass","keepAway":true}`, `{"type":"ping","keepAway":false}`} {
		if _, err := Decode([]byte(in)); !errors.Is(err, web.ErrBadRequest) {
			t.Errorf("%s: %v, want a bad request", in, err)
		}
	}
}

// TestDecodeBadActionSaysItOnce: an action that does not read is refused
// with the engine's message, which names the action once (it was named
// twice: `action "lead XX": bad action "lead XX": ...`), and its classes.
func TestDecodeBadActionSaysItOnce(t *testing.T) {
	for _, action := range []string{"lead XX", "set runs 7H 7H", "dance 7H"} {
		_, err := Decode([]byte(`{"type":"action","action":"` + action + `"}`))
		if !errors.Is(err, web.ErrBadRequest) || !errors.Is(err, arlington.ErrBadAction) {
			t.Errorf("%q: %v, want a bad request wrapping %v", action, err, arlington.ErrBadAction)
			continue
		}
		if n := strings.Count(err.Error(), `"`+action+`"`); n != 1 {
			t.Errorf("%q: %q names the action %d times, want once", action, err, n)
		}
	}
}

// TestDecodeChatRef: a chat message may carry a ref (1 to 16 letters,
// digits, '-' or '_'), which its answer gives back; a ref of another
// shape, or on another message, is refused. refOf finds the ref of a
// chat message refused before it was read in full, and only a valid one.
func TestDecodeChatRef(t *testing.T) {
	for in, want := range map[string]string{`{"type":"chat","text":"hi"}`: "", `{"type":"chat","text":"hi","ref":"7"}`: "7", `{"type":"chat","text":"hi","ref":"a-Z_901234567890"}`: "a-Z_901234567890"} {
		if m, err := Decode([]byte(in)); err != nil || m.Ref != want {
			t.Errorf("%s: ref %q, %v; want %q", in, m.Ref, err, want)
		}
	}
	for _, in := range []string{`{"type":"chat","text":"hi","ref":"12345678901234567"}`, `{"type":"chat","text":"hi","ref":"a b"}`, `{"type":"chat","text":"hi","ref":"é"}`, `{"type":"chat","text":"hi","ref":7}`,
		`{"type":"hello","ref":"1"}`, `{"type":"action","action":"pass","ref":"1"}`, `{"type":"ping","ref":"1"}`} {
		if _, err := Decode([]byte(in)); !errors.Is(err, web.ErrBadRequest) {
			t.Errorf("%s: %v, want a bad request", in, err)
		}
	}
	for in, want := range map[string]string{`{"type":"chat","text":"","ref":"3"}`: "3", `{"type":"chat","text":"hi","ref":"3","seat":1}`: "3", `{"type":"chat","ref":"a b"}`: "", `{"type":"action","ref":"3"}`: "", `{"ref":"3"}`: "", `not json`: ""} {
		if got := refOf([]byte(in)); got != want {
			t.Errorf("refOf(%s) = %q, want %q", in, got, want)
		}
	}
}
