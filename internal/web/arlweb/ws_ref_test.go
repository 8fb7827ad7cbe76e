package arlweb

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestWSUnreadableChatRef: a chat message the server cannot read in full
// is refused with its ref when it carries one valid ref (docs/api.md: the
// refusal of the message's reading names it too), whatever is wrong with
// the rest: a binary frame, a value after the object, a key twice, text
// that is not UTF-8, a field of the wrong kind or unknown. A message with
// two refs, or none valid, is refused without one: there is no one line
// to name.
func TestWSUnreadableChatRef(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	for _, tc := range []struct {
		name   string
		binary bool
		msg    string
		ref    string
	}{
		{"binary frame", true, `{"type":"chat","text":"hi","ref":"b1"}`, "b1"},
		{"a value after it", false, `{"type":"chat","text":"hi","ref":"v1"} {}`, "v1"},
		{"text twice", false, `{"type":"chat","text":"hi","text":"ho","ref":"d1"}`, "d1"},
		{"not UTF-8", false, "{\"type\":\"chat\",\"text\":\"h\xffi\",\"ref\":\"u1\"}", "u1"},
		{"text a number", false, `{"type":"chat","text":5,"ref":"n1"}`, "n1"},
		{"unknown field", false, `{"type":"chat","text":"hi","ref":"f1","colour":"red"}`, "f1"},
		{"ref spelt in capitals", false, `{"type":"chat","text":"hi","REF":"c1","seat":1}`, "c1"},
		{"two refs", false, `{"type":"chat","text":"hi","ref":"r1","ref":"r2"}`, ""},
		{"two refs by case", false, `{"type":"chat","text":"hi","ref":"r1","Ref":"r2"}`, ""},
		{"a bad ref", false, `{"type":"chat","text":"hi","ref":"a b","seat":1}`, ""},
	} {
		typ := websocket.MessageText
		if tc.binary {
			typ = websocket.MessageBinary
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := w.c.Write(ctx, typ, []byte(tc.msg)); err != nil {
			t.Fatalf("%s: write: %v", tc.name, err)
		}
		cancel()
		m := w.waitFor(isError)
		if m.Class != "bad_request" || m.Ref != tc.ref {
			t.Errorf("%s: refused %+v; want a bad request with ref %q", tc.name, m, tc.ref)
		}
	}
}
