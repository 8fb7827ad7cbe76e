package arlweb

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
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

// FuzzPreviewRequest sends any body to the preview, alone and at a
// started table the requester sits at: the answer is 200 or a 4xx with
// an error message, never a server error, and the game does not change.
func FuzzPreviewRequest(f *testing.F) {
	for _, s := range []string{`{"cards":["7H","7D"]}`, `{"cards":["7H"]}`, `{"cards":["JK","JK","2S"]}`,
		`{"cards":[]}`, `{"cards":5}`, `{"cards":null}`, `{"cards":["7H","7H"]}`,
		`{}`, `{"cards":["ZZ"]}`, `{"cards":["7H"],"x":1}`, `{`, "\xff"} {
		f.Add(s)
	}
	e := newEnv(f, Limits{})
	a, b := e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	b.join(id, "Bob")
	tb, err := e.hub.Table(id)
	if err != nil {
		f.Fatal(err)
	}
	player := playerOf(f, a, e)
	f.Fuzz(func(t *testing.T, body string) {
		before, err := tb.View(context.Background(), player)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/arlington/preview", "/api/arlington/tables/" + id + "/preview"} {
			resp, err := a.hc.Post(e.srv.URL+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch code := resp.StatusCode; {
			case code == http.StatusOK:
				var ans previewAnswer
				if err := json.Unmarshal(out, &ans); err != nil {
					t.Fatalf("%s %q: 200 %s: %v", path, body, out, err)
				}
			case code < 400 || code >= 500 || !strings.Contains(string(out), `"error"`):
				t.Fatalf("%s %q: %d %s", path, body, code, out)
			}
		}
		if after, err := tb.View(context.Background(), player); err != nil || after.EventCount != before.EventCount {
			t.Fatalf("%q: the game changed (%d events, then %d; %v)", body, before.EventCount, after.EventCount, err)
		}
	})
}
