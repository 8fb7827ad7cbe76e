package arlweb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// Client message types (docs/api.md, "Arlington tables").
const (
	msgHello  = "hello"
	msgAction = "action"
	msgChat   = "chat"
	// msgPing asks for a pong: a client checking that its connection is
	// alive without resubscribing (a hello would end and reopen the
	// subscription, which the other players see as the person leaving and
	// coming back, and which re-arms the table's turn timer).
	msgPing = "ping"
)

// maxFrame is the largest WebSocket message a client may send; a bigger
// one ends the connection (the library refuses it before reading it all).
const maxFrame = 4 << 10

// clientMsg is one decoded client message.
type clientMsg struct {
	Type   string
	Since  int              // hello: events the client has (-1: none, a full view)
	Chat   int              // hello: the number of the last chat line the client has (-1: none)
	Name   string           // hello: display name for chat when watching
	Action arlington.Action // action
	Seat   int              // action: -1 means the sender's own seat
	Text   string           // chat
	Ref    string           // chat: the client's name for the message, given back in its answer
}

type wireMsg struct {
	Type   string `json:"type"`
	Since  *int   `json:"since,omitempty"`
	Chat   *int   `json:"chat,omitempty"`
	Name   string `json:"name,omitempty"`
	Action string `json:"action,omitempty"`
	Seat   *int   `json:"seat,omitempty"`
	Text   string `json:"text,omitempty"`
	Ref    string `json:"ref,omitempty"`
}

// maxRef is the longest ref a chat message may carry: a client numbers
// its own lines, so a short counter is all it needs.
const maxRef = 16

// validRef reports whether r is a ref the server gives back: 1 to maxRef
// letters, digits, '-' or '_', so it cannot grow an answer or carry text.
func validRef(r string) bool {
	if r == "" || len(r) > maxRef {
		return false
	}
	for _, c := range []byte(r) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// refOf is the valid ref of a chat message that was refused before it
// was read in full (the rate limit, a binary frame, a bad field, a value
// after it), so that its refusal still names it; "" when there is none
// to name: not a chat message, or one with no ref, a ref not valid or
// two refs (keys are matched as Decode matches them, in ASCII case only:
// web.SameKey). Only the first JSON value is read.
func refOf(b []byte) string {
	if len(b) > maxFrame {
		return ""
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	var typ, ref string
	types, refs := 0, 0
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return ""
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return ""
		}
		switch {
		case web.SameKey(k, "type"):
			types++
			json.Unmarshal(v, &typ) // not a string: typ stays "", no chat
		case web.SameKey(k, "ref"):
			refs++
			json.Unmarshal(v, &ref) // not a string: ref stays "", not valid
		}
	}
	if types != 1 || refs != 1 || typ != msgChat || !validRef(ref) {
		return ""
	}
	return ref
}

// Decode reads one client message: strict JSON (one object, no unknown
// fields), a known type and its fields checked. Every error wraps
// web.ErrBadRequest and names what is wrong.
func Decode(b []byte) (clientMsg, error) {
	w, err := decodeWire(b)
	if err != nil {
		return clientMsg{}, err
	}
	m := clientMsg{Type: w.Type, Since: -1, Chat: -1, Seat: -1}
	switch w.Type {
	case msgHello:
		if w.Since != nil {
			if *w.Since < -1 {
				return clientMsg{}, fmt.Errorf("%w: hello: since %d is below -1 (none)", web.ErrBadRequest, *w.Since)
			}
			m.Since = *w.Since
		}
		if w.Chat != nil {
			if *w.Chat < -1 {
				return clientMsg{}, fmt.Errorf("%w: hello: chat %d is below -1 (none)", web.ErrBadRequest, *w.Chat)
			}
			m.Chat = *w.Chat
		}
		name := strings.TrimSpace(w.Name)
		if utf8.RuneCountInString(name) > table.MaxNameRunes {
			return clientMsg{}, fmt.Errorf("%w: hello: name longer than %d characters", web.ErrBadRequest, table.MaxNameRunes)
		}
		m.Name = name
		if w.Action != "" || w.Seat != nil || w.Text != "" || w.Ref != "" {
			return clientMsg{}, fmt.Errorf("%w: hello takes since, chat and name only", web.ErrBadRequest)
		}
	case msgAction:
		a, err := arlington.ParseAction(w.Action)
		if err != nil {
			// The engine's error names the action already.
			return clientMsg{}, fmt.Errorf("%w: %w", web.ErrBadRequest, err)
		}
		m.Action = a
		if w.Seat != nil {
			if *w.Seat < -1 || *w.Seat >= arlington.MaxSeats {
				return clientMsg{}, fmt.Errorf("%w: action: no seat %d", web.ErrBadRequest, *w.Seat)
			}
			m.Seat = *w.Seat
		}
		if w.Since != nil || w.Chat != nil || w.Name != "" || w.Text != "" || w.Ref != "" {
			return clientMsg{}, fmt.Errorf("%w: action takes action and seat only", web.ErrBadRequest)
		}
	case msgChat:
		if strings.TrimSpace(w.Text) == "" {
			return clientMsg{}, fmt.Errorf("%w: chat: empty message", web.ErrBadRequest)
		}
		if utf8.RuneCountInString(w.Text) > table.MaxChatRunes {
			return clientMsg{}, fmt.Errorf("%w: chat: longer than %d characters", web.ErrBadRequest, table.MaxChatRunes)
		}
		m.Text = w.Text
		if w.Since != nil || w.Chat != nil || w.Name != "" || w.Action != "" || w.Seat != nil {
			return clientMsg{}, fmt.Errorf("%w: chat takes text and ref only", web.ErrBadRequest)
		}
		if w.Ref != "" && !validRef(w.Ref) {
			return clientMsg{}, fmt.Errorf("%w: chat: ref must be 1 to %d letters, digits, '-' or '_'", web.ErrBadRequest, maxRef)
		}
		m.Ref = w.Ref
	case msgPing:
		if w != (wireMsg{Type: msgPing}) {
			return clientMsg{}, fmt.Errorf("%w: ping takes no fields", web.ErrBadRequest)
		}
	case "":
		return clientMsg{}, fmt.Errorf("%w: message without a type", web.ErrBadRequest)
	default:
		return clientMsg{}, fmt.Errorf("%w: unknown message type %.40q", web.ErrBadRequest, w.Type)
	}
	return m, nil
}

// decodeWire reads b as one wire message: a frame within maxFrame, UTF-8,
// one JSON object of known keys (in ASCII case), none given twice.
func decodeWire(b []byte) (wireMsg, error) {
	var w wireMsg
	if len(b) > maxFrame {
		return w, fmt.Errorf("%w: message longer than %d bytes", web.ErrBadRequest, maxFrame)
	}
	if !utf8.Valid(b) {
		return w, fmt.Errorf("%w: message is not UTF-8", web.ErrBadRequest)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&w); err != nil {
		return w, fmt.Errorf("%w: %s", web.ErrBadRequest, web.JSONWords(err, &w))
	}
	if d.More() {
		return w, fmt.Errorf("%w: bad JSON: more than one value", web.ErrBadRequest)
	}
	if err := web.CheckKeys(b, &w); err != nil {
		return w, fmt.Errorf("%w: %v", web.ErrBadRequest, err)
	}
	// encoding/json keeps the last of two equal keys; a message that says
	// two things at once is refused instead of half-heard.
	if k, ok := web.DuplicateKey(b, &w); ok {
		return w, fmt.Errorf("%w: key %.40q given twice", web.ErrBadRequest, k)
	}
	return w, nil
}
